#pragma once
// The training loop's settings (the `loop` section of a run config): generations of self-play
// and training in one run directory, optional gating, and the strength measurements. A plain
// struct with its field list (read and written through config/section.h).
#include <cstdint>
#include <string>

namespace sz::run {

struct LoopConfig {
  int generations = 10;               // stop after this many (0: until stopped or out of time)
  int64_t games_per_generation = 64;  // self-play games added per generation
  // Games of the first generation, played by the bootstrap (uniform prior, zero value), which
  // costs no network time: many games give the first network many independent results, where a
  // few long games let it memorise each game's result (0: games_per_generation).
  int64_t bootstrap_games = 0;
  // Who plays the first generation: "uniform" (uniform prior, zero value: no knowledge at all) or
  // "material" (uniform prior, the game's material count as the value, eval/material_evaluator.h):
  // a classical searcher whose games and search values (train.value_target_search) hand the
  // first network the sense that men matter, which results of near-random games do not teach.
  std::string bootstrap_player = "uniform";
  int train_steps_per_generation = 200;  // at most; the replay ratio may allow fewer
  int bootstrap_train_steps = 0;         // the same for the first network (0: train_steps_per_generation)
  double max_minutes = 0;                // start no generation after this long (0: no limit)

  // Gating (optional, AlphaGo Zero; KataGo and AlphaZero train continuously): a new checkpoint
  // plays the current one and self-play adopts it only if it scores at least gating_score.
  bool gating = false;
  int gating_games = 40;
  double gating_score = 0.55;

  // The learning curve (run/ladder.h): every adopted network plays the rate_previous networks
  // adopted before it and the anchor, rate_games games each, at eval_simulations; one
  // Bradley-Terry fit rates them all over the anchor. At the end the final network plays the
  // first network and the anchor, final_eval_games each. Every match: the eval suite's first
  // games / 2 starts, each with colours swapped.
  int rate_games = 20;  // 0: no rating during the run
  int rate_previous = 1;
  // Rate generations 1, 1 + rate_every, 1 + 2 rate_every, ... (the final network is rated by the
  // final matches): ratings cost CPU the networks do not learn from.
  int rate_every = 1;
  // The external yardstick, a player spec (eval/player_spec.h): Fairy-Stockfish at one node.
  // "": none (ratings are then over the first network). If it cannot be started (no node/npm),
  // the run says so and rates its networks against each other.
  std::string anchor = "fsf:nodes=1";
  int final_eval_games = 100;
  std::string eval_suite = "suites/starts-partial.epd";  // built in (configs/) or a path; "": the start position
  int eval_simulations = 0;                              // 0: search.full_visits, the self-play budget
  int eval_concurrency = 2;
};

// Every key of the `loop` section, with its range.
template <typename V>
void fields(V& v, LoopConfig& c) {
  v.num("generations", c.generations, 0, 1'000'000);
  v.num("games_per_generation", c.games_per_generation, int64_t{1}, int64_t{100'000'000});
  v.num("bootstrap_games", c.bootstrap_games, int64_t{0}, int64_t{100'000'000});
  v.choice("bootstrap_player", c.bootstrap_player,
           {{"uniform", std::string("uniform")}, {"material", std::string("material")}});
  v.num("train_steps_per_generation", c.train_steps_per_generation, 0, 100'000'000);
  v.num("bootstrap_train_steps", c.bootstrap_train_steps, 0, 100'000'000);
  v.num("max_minutes", c.max_minutes, 0.0, 1e7);
  v.flag("gating", c.gating);
  v.num("gating_games", c.gating_games, 2, 100'000);
  v.num("gating_score", c.gating_score, 0.0, 1.0);
  v.num("rate_games", c.rate_games, 0, 100'000);
  v.num("rate_previous", c.rate_previous, 0, 1'000);
  v.num("rate_every", c.rate_every, 1, 1'000);
  v.text("anchor", c.anchor);
  v.num("final_eval_games", c.final_eval_games, 0, 100'000);
  v.text("eval_suite", c.eval_suite);
  v.num("eval_simulations", c.eval_simulations, 0, 1'000'000);
  v.num("eval_concurrency", c.eval_concurrency, 1, 1024);
}

}  // namespace sz::run
