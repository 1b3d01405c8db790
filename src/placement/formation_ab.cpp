#include "placement/formation_ab.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

#include "eval/arena.h"
#include "plot/gnuplot.h"

namespace sz::placement {

namespace {

constexpr double kZ95 = 1.959963984540054;

// The placing player's points in each game of a match, by the game's index.
std::map<int, double> play(const AbOptions& o, const eval::PlacementControl& control, const char* which,
                           eval::MatchScore& score) {
  eval::PlayerSpec player = o.player;
  player.placement = control;
  player.name = std::string("formation ") + which;
  eval::MatchSpec match;
  match.players.push_back(eval::make_match_player(player, o.search, o.simulations, o.load_model));
  match.players.push_back(eval::make_match_player(o.opponent, o.search, o.simulations, o.load_model));
  match.profile = o.profile;
  match.rounds = std::max(1, o.games / 2);
  match.concurrency = o.concurrency;
  match.max_plies = o.max_plies;
  match.seed = o.seed;
  match.stop = o.stop;
  std::map<int, double> points;
  std::mutex mutex;
  match.on_game = [&](const eval::GameRecord& g, const eval::MatchResult& m) {
    const bool white = g.white == 0;
    const double p = g.result == game::GameResult::Draw                   ? 0.5
                     : (g.result == game::GameResult::FirstWins) == white ? 1.0
                                                                          : 0.0;
    std::lock_guard lock(mutex);
    points[g.index] = p;
    if (o.progress) {
      o.progress(std::string("formation ") + which + ": game " + std::to_string(m.games_played) + "/" +
                 std::to_string(m.games_scheduled) + (g.error.empty() ? "" : " (forfeit: " + g.error + ")"));
    }
  };
  const eval::MatchResult result = eval::play_match(match);
  score = result.pairings.at(0).score;
  return points;
}

}  // namespace

Result<eval::PlacementControl> formation_control(const std::string& text, const std::string& name) {
  auto formation = games::parse_formation(text);
  if (formation) {
    eval::PlacementControl control;
    control.kind = eval::PlacementControl::Kind::Fixed;
    control.text = text;
    control.formations.push_back({std::move(formation).value(), 1.0, name});
    return control;
  }
  if (text.find('@') != std::string::npos) return fail(name + ": " + formation.error());
  auto control = eval::parse_placement_control("fixed:" + text);
  if (!control) return fail(name + ": " + control.error());
  return control;
}

AbResult run_formation_ab(const AbOptions& o) {
  for (const auto* c : {&o.a, &o.b}) eval::check_placement_control(*c, o.profile).take_or_throw();
  AbResult r;
  const std::map<int, double> a = play(o, o.a, "A", r.a);
  const std::map<int, double> b = play(o, o.b, "B", r.b);
  double sum = 0, sum2 = 0;
  for (const auto& [index, pa] : a) {
    const auto it = b.find(index);
    if (it == b.end()) continue;
    const double d = pa - it->second;
    sum += d;
    sum2 += d * d;
    ++r.pairs;
    if (d > 0)
      ++r.paired.wins;
    else if (d < 0)
      ++r.paired.losses;
    else
      ++r.paired.draws;
  }
  if (r.pairs > 0) {
    r.difference = sum / r.pairs;
    const double var = r.pairs > 1 ? (sum2 - r.pairs * r.difference * r.difference) / (r.pairs - 1) : 0.25;
    const double se = std::sqrt(std::max(var, 0.0) / r.pairs);
    r.lower = r.difference - kZ95 * se;
    r.upper = r.difference + kZ95 * se;
  }
  r.llr = o.sprt.llr(r.paired);
  r.verdict = o.sprt.verdict(r.paired);
  return r;
}

std::string format_ab(const AbResult& r, const AbOptions& o) {
  const auto line = [](const char* name, const eval::MatchScore& s, const std::string& formation) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s  score %.3f  +%d =%d -%d  (%d games)  %s\n", name, s.score(), s.wins, s.draws,
                  s.losses, s.games(), formation.c_str());
    return std::string(buf);
  };
  const auto text_of = [](const eval::PlacementControl& c) {
    return c.formations.empty() ? c.text : games::formation_text(c.formations[0].formation);
  };
  std::string out = "profile " + o.profile + "; player " + o.player.text + " against " + o.opponent.text + "\n";
  out += line("A", r.a, text_of(o.a)) + line("B", r.b, text_of(o.b));
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "A - B: %+.3f points per game, 95%% interval [%+.3f, %+.3f] over %d paired games\n"
                "pairs: A better %d, equal %d, worse %d; SPRT elo0=%s elo1=%s: LLR %.2f in [%.2f, %.2f]: %s\n",
                r.difference, r.lower, r.upper, r.pairs, r.paired.wins, r.paired.draws, r.paired.losses,
                plot::number(o.sprt.elo0).c_str(), plot::number(o.sprt.elo1).c_str(), r.llr, o.sprt.lower_bound(),
                o.sprt.upper_bound(),
                r.verdict == eval::Sprt::Verdict::AcceptH1   ? "H1 (A is better)"
                : r.verdict == eval::Sprt::Verdict::AcceptH0 ? "H0 (A is not better)"
                                                             : "undecided (play more games)");
  return out + buf;
}

}  // namespace sz::placement
