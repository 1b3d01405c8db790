// `sittuyin-zero bench targets`: do the self-play policy targets say more than the prior of the
// network that searched? For the positions of a run's shards that got a full search, grouped by
// the model that played them (a generation) and by phase, it replays each game, asks that
// model (the uniform prior for the bootstrap) for its prior over the legal moves and reports
// the mean KL divergence KL(target || prior) in nats, the entropies of both, and how often the
// target's favourite is the prior's. A target equal to its prior (KL 0) teaches nothing; forced
// playouts pruned back to the prior, or a search that follows its prior, show as a small KL.
// Results: docs/BENCHMARKS.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

#include "bench/benches.h"
#include "cli/config_args.h"
#include "core/split.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "games/registry.h"
#include "nn/evaluators.h"
#include "run/run_config.h"

namespace sz::bench {

namespace {

constexpr const char* kAbout =
    R"(Policy targets against the prior of the network that played them: per model (generation) and
phase, the mean KL(target || prior), both entropies, and the share of positions whose most
likely move is the same in both. Each game is replayed from its start; each model of the games
(the model_id a shard records; empty or bootstrap:...: a bootstrap player, whose prior is
uniform) is loaded with the config's inference settings.
)";

struct Options {
  std::string games;
  cli::ConfigFlags config;
  int positions = 2000;
};

cli::Flags options_flags(Options& o) {
  cli::Flags f("sittuyin-zero bench targets --games DIR [--positions N] [--config FILE] [--set KEY=VALUE ...]", kAbout);
  f.text("--games", "DIR", o.games, "a run's games/ folder (or any folder of shards)").required();
  f.number("--positions", "N", o.positions, 1, 10'000'000,
           "full-search positions per model and phase at most (default 2000)");
  f.config(o.config, "run config whose inference settings load the models (default quickstart)");
  return f;
}

struct Sums {
  int64_t positions = 0, same_top = 0;
  double kl = 0, target_entropy = 0, prior_entropy = 0;
};

// One position to measure: its state, the legal actions and the recorded target.
struct Probe {
  std::unique_ptr<game::GameState> state;
  std::array<game::ActionId, game::kMaxActions> actions{};
  int count = 0;
  std::vector<game::PolicyEntry> target;
  int phase = 0;
};

void measure(search::Evaluator& evaluator, std::vector<Probe>& probes, std::array<Sums, 2>& sums) {
  std::vector<search::EvalQuery> queries;
  std::vector<search::EvalReply> replies(probes.size());
  std::vector<std::array<float, game::kMaxActions>> priors(probes.size());
  for (size_t i = 0; i < probes.size(); ++i) {
    queries.push_back({probes[i].state.get(), {probes[i].actions.data(), size_t(probes[i].count)}});
    replies[i].priors = {priors[i].data(), size_t(probes[i].count)};
  }
  evaluator.evaluate(queries, replies);
  for (size_t i = 0; i < probes.size(); ++i) {
    const Probe& p = probes[i];
    Sums& s = sums[size_t(p.phase)];
    std::map<game::ActionId, double> prior;
    game::ActionId prior_top = p.actions[0], target_top = p.target[0].action;
    float best_prior = -1, best_target = -1;
    for (int a = 0; a < p.count; ++a) {
      const double q = std::max(double(priors[i][size_t(a)]), 1e-12);
      prior[p.actions[size_t(a)]] = q;
      s.prior_entropy -= q * std::log(q);
      if (q > best_prior) best_prior = float(q), prior_top = p.actions[size_t(a)];
    }
    for (const game::PolicyEntry& e : p.target) {
      if (e.prob <= 0) continue;
      s.kl += e.prob * std::log(e.prob / (prior.count(e.action) ? prior[e.action] : 1e-12));
      s.target_entropy -= e.prob * std::log(e.prob);
      if (e.prob > best_target) best_target = e.prob, target_top = e.action;
    }
    s.same_top += prior_top == target_top;
    ++s.positions;
  }
  probes.clear();
}

// Replays the games of one shard, measuring the full-search positions of `model` (up to the
// limit per phase) in batches.
void measure_shard(const data::ShardReader& reader, const std::string& model, search::Evaluator& evaluator, int limit,
                   std::array<Sums, 2>& sums) {
  const std::vector<data::GameInfo> games = reader.read_games();
  const auto of_model = [&](const data::GameInfo& g) { return g.model_id == model; };
  if (std::none_of(games.begin(), games.end(), of_model)) return;  // its positions are not read
  const data::PositionColumns p = reader.read_positions();
  std::vector<Probe> probes;
  std::array<int64_t, 2> pending{};  // probes not yet measured, per phase
  for (const data::GameInfo& g : games) {
    if (!of_model(g)) continue;
    auto state = games::new_game(g.profile, g.start_fen).take_or_throw(reader.info().path);
    const std::vector<std::string_view> moves = split_words(g.moves);
    for (int64_t k = 0; k < g.num_positions && size_t(k) < moves.size(); ++k) {
      const int64_t row = g.first_position + k;
      const int phase = p.phase[size_t(row)];
      if (p.policy_target[size_t(row)] && p.policy_count[size_t(row)] > 0 &&
          sums[size_t(phase)].positions + pending[size_t(phase)] < limit) {
        Probe probe;
        probe.state = state->clone();
        probe.count = state->legal_actions(probe.actions);
        probe.phase = phase;
        const auto actions = p.policy_actions_of(row);
        const auto probs = p.policy_probs_of(row);
        for (size_t e = 0; e < actions.size(); ++e) probe.target.push_back({actions[e], probs[e]});
        probes.push_back(std::move(probe));
        ++pending[size_t(phase)];
        if (probes.size() == 64) {
          measure(evaluator, probes, sums);
          pending = {};
        }
      }
      state->apply(state->parse_action(moves[size_t(k)]).take_or_throw(reader.info().path + ": game move"));
    }
  }
  if (!probes.empty()) measure(evaluator, probes, sums);
}

}  // namespace

int bench_targets(Args args) {
  Options o;
  if (!options_flags(o).parse(args)) return 0;
  const run::RunConfig config = cli::run_config_of(o.config);
  const game::GameSpec spec = games::spec_for(config.profile).take_or_throw("profile");
  const std::vector<std::string> shards = data::list_shards(o.games);
  if (shards.empty()) throw Error(o.games + ": no shards");
  std::vector<std::string> models;  // in the order they first played
  for (const std::string& path : shards)
    for (const data::GameInfo& g : data::ShardReader::open(path).read_games())
      if (std::find(models.begin(), models.end(), g.model_id) == models.end()) models.push_back(g.model_id);
  std::printf("%-40s %-9s %9s %9s %9s %9s %9s\n", "model", "phase", "positions", "KL(t||p)", "H(target)", "H(prior)",
              "same top");
  for (const std::string& model : models) {
    // The bootstrap players ("", "bootstrap:material") search with a uniform prior.
    auto evaluator = nn::evaluator_factory(model.starts_with("bootstrap:") ? "" : model, spec, config.inference)(0);
    std::array<Sums, 2> sums{};
    for (const std::string& path : shards) {
      measure_shard(data::ShardReader::open(path), model, *evaluator, o.positions, sums);
      if (sums[0].positions >= o.positions && sums[1].positions >= o.positions) break;
    }
    for (int phase = 0; phase < 2; ++phase) {
      const Sums& s = sums[size_t(phase)];
      if (s.positions == 0) continue;
      const double n = double(s.positions);
      const std::string name = model.empty() ? "(bootstrap: uniform)" : model.substr(model.rfind('/') + 1);
      // (a "bootstrap:material" id keeps its name: it has no '/')
      std::printf("%-40s %-9s %9lld %9.3f %9.3f %9.3f %8.1f%%\n", name.c_str(), phase == 0 ? "placement" : "play",
                  static_cast<long long>(s.positions), s.kl / n, s.target_entropy / n, s.prior_entropy / n,
                  100.0 * double(s.same_top) / n);
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace sz::bench
