#include "eval/levels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace sz::eval {

std::vector<LevelSetting> level_candidates(const LevelsSpec& spec) {
  if (spec.checkpoints.empty()) throw Error("levels: the run has no checkpoint yet");
  const std::string& newest = spec.checkpoints.back();
  const int full = std::max(1, spec.full_simulations);
  std::vector<LevelSetting> c;
  c.push_back({.name = "random", .checkpoint = "", .random = true, .simulations = 0, .temperature = 0});
  c.push_back({.name = "newest, 1 visit, temperature 1",
               .checkpoint = newest,
               .random = false,
               .simulations = 1,
               .temperature = 1.0f});
  c.push_back({.name = "newest, 1 visit", .checkpoint = newest, .random = false, .simulations = 1, .temperature = 0});
  c.push_back({.name = "uniform MCTS, " + std::to_string(full) + " visits",
               .checkpoint = "",
               .random = false,
               .simulations = full,
               .temperature = 0});
  const auto newest_at = [&](int sims) {
    return LevelSetting{.name = "newest, " + std::to_string(sims) + " visits",
                        .checkpoint = newest,
                        .random = false,
                        .simulations = sims,
                        .temperature = 0};
  };
  if (spec.checkpoints.size() > 1) {
    const int sims = std::max(1, full / 4);
    c.push_back({.name = "oldest, " + std::to_string(sims) + " visits",
                 .checkpoint = spec.checkpoints.front(),
                 .random = false,
                 .simulations = sims,
                 .temperature = 0});
  }
  for (int sims = std::max(2, full / 16); sims <= full; sims *= 4) c.push_back(newest_at(sims));
  if (c.back().simulations != full) c.push_back(newest_at(full));
  return c;
}

std::vector<Level> pick_levels(const std::vector<LevelSetting>& candidates, const std::vector<Rating>& ratings,
                               int count) {
  std::vector<int> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return ratings[size_t(a)].elo < ratings[size_t(b)].elo; });
  count = std::clamp(count, 1, int(order.size()));
  const double lo = ratings[size_t(order.front())].elo, hi = ratings[size_t(order.back())].elo;
  std::vector<Level> levels;
  size_t next = 0;  // the first candidate not yet passed over
  for (int k = 0; k < count; ++k) {
    const double target = count == 1 ? hi : lo + (hi - lo) * k / (count - 1);
    const size_t last_allowed = order.size() - size_t(count - k);  // leave one per later level
    size_t best = next;
    for (size_t j = next; j <= last_allowed; ++j)
      if (std::abs(ratings[size_t(order[j])].elo - target) < std::abs(ratings[size_t(order[best])].elo - target))
        best = j;
    levels.push_back({k + 1, candidates[size_t(order[best])], ratings[size_t(order[best])], {}});
    next = best + 1;
  }
  return levels;
}

LevelsResult build_levels(const LevelsSpec& spec) {
  LevelsResult result;
  result.candidates = level_candidates(spec);
  MatchSpec match;
  for (const LevelSetting& s : result.candidates) {
    if (s.random) {
      match.players.push_back({s.name, random_player_factory()});
      continue;
    }
    MctsPlayerOptions options{spec.search, s.simulations, s.temperature, spec.tables};
    match.players.push_back({s.name, mcts_player_factory(options, spec.load_model(s.checkpoint))});
  }
  if (spec.anchor) match.players.push_back(*spec.anchor), result.anchor = spec.anchor->name;
  match.profile = spec.profile;
  match.starts = spec.starts;
  match.concurrency = spec.concurrency;
  match.seed = spec.seed;
  match.anchor = 0;  // the random mover
  match.pgn_path = spec.pgn_path;
  match.tables = spec.tables;
  match.on_game = spec.on_game;
  result.match = play_match(match);
  const std::vector<Rating> candidate_ratings(result.match.ratings.begin(),
                                              result.match.ratings.begin() + ptrdiff_t(result.candidates.size()));
  result.levels = pick_levels(result.candidates, candidate_ratings, spec.count);
  if (spec.anchor) {
    // The same games, fitted with the anchor at 0.
    std::vector<PairResult> games;
    for (const PairingResult& p : result.match.pairings) games.push_back({p.a, p.b, p.score});
    const int anchor = int(match.players.size()) - 1;
    const std::vector<Rating> over = fit_ratings(int(match.players.size()), games, anchor);
    for (Level& l : result.levels)
      for (size_t i = 0; i < result.candidates.size(); ++i)
        if (result.candidates[i].name == l.setting.name) l.over_anchor = over[i];
    result.random_over_anchor = over[0];
  }
  return result;
}

std::string levels_manifest(const LevelsResult& result, const std::string& run_dir, const std::string& profile) {
  std::string out = "# Strength levels for game clients, measured by `sittuyin-zero levels` in a round robin of " +
                    std::to_string(result.candidates.size()) + " candidates (" +
                    std::to_string(result.match.games_played) +
                    " games).\n# Elo is relative to the random mover, with a 95% interval.\n";
  if (!result.anchor.empty())
    out += "# elo_over_anchor: the same games, with the anchor (" + result.anchor + ") at 0 Elo.\n";
  out += "format: sittuyin-zero levels\nversion: 1\nrun: \"" + run_dir + "\"\nprofile: " + profile + "\n";
  char line[512];
  if (!result.anchor.empty()) {
    std::snprintf(line, sizeof line, "anchor: \"%s\"\nrandom_over_anchor: %.1f\n", result.anchor.c_str(),
                  result.random_over_anchor.elo);
    out += line;
  }
  out += "levels:\n";
  for (const Level& l : result.levels) {
    std::snprintf(
        line, sizeof line,
        "  - level: %d\n    name: \"%s\"\n    elo: %.1f\n    elo_lower: %.1f\n    elo_upper: %.1f\n    player: %s\n"
        "    checkpoint: \"%s\"\n    simulations: %d\n    temperature: %.2f\n",
        l.level, l.setting.name.c_str(), l.rating.elo, l.rating.lower, l.rating.upper,
        l.setting.random               ? "random"
        : l.setting.checkpoint.empty() ? "uniform-mcts"
                                       : "model",
        l.setting.checkpoint.c_str(), l.setting.simulations, double(l.setting.temperature));
    out += line;
    if (!result.anchor.empty()) {
      std::snprintf(line, sizeof line,
                    "    elo_over_anchor: %.1f\n    elo_over_anchor_lower: %.1f\n    elo_over_anchor_upper: %.1f\n",
                    l.over_anchor.elo, l.over_anchor.lower, l.over_anchor.upper);
      out += line;
    }
  }
  return out;
}

}  // namespace sz::eval
