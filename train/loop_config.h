#pragma once
// The training loop's settings (the `loop` section of a run config): generations of self-play
// and training in one run directory, optional gating, and the strength measurements.
#include <cstdint>
#include <string>

namespace sz::train {

struct LoopConfig {
  int generations = 10;                  // stop after this many (0: until stopped or out of time)
  int64_t games_per_generation = 64;     // self-play games added per generation
  // Games of the first generation, played by the bootstrap (uniform prior, zero value), which
  // costs no network time: many games give the first network many independent results, where a
  // few long games let it memorise each game's result (0: games_per_generation).
  int64_t bootstrap_games = 0;
  int train_steps_per_generation = 200;  // at most; the replay ratio may allow fewer
  int bootstrap_train_steps = 0;         // the same for the first network (0: train_steps_per_generation)
  double max_minutes = 0;                // start no generation after this long (0: no limit)

  // Gating (optional, AlphaGo Zero; KataGo and AlphaZero train continuously): a new checkpoint
  // plays the current one and self-play adopts it only if it scores at least gating_score.
  bool gating = false;
  int gating_games = 40;
  double gating_score = 0.55;

  // Strength against the bootstrap player (uniform prior, zero value) at eval_simulations:
  // every eval_every generations for the Elo curve (0: never), and once at the end.
  int eval_every = 0;
  int eval_games = 40;
  int final_eval_games = 100;
  std::string eval_suite = "suites/starts-partial.epd";  // built in (configs/) or a path; "": the start position
  int eval_simulations = 0;  // 0: search.full_visits, the self-play budget
  int eval_concurrency = 2;
};

}  // namespace sz::train
