#pragma once
// Trainer settings: a plain struct with every default in one place and its field list (the
// `train` section of a run config, read and written through config/section.h). No torch, no
// yaml: any module may hold one. docs/TRAINING.md explains the window, the replay ratio and the
// schedules.
#include <cstdint>
#include <string>

#include "models/training_config.h"

namespace sz::train {

enum class LrSchedule { Constant, Step, Cosine };
// auto: bfloat16 autocast on CUDA (no loss scaling needed), float32 on the CPU. float16 uses
// autocast with a dynamic loss scale (for GPUs without bfloat16). Both are CUDA only.
enum class TrainPrecision { Auto, Float32, BFloat16, Float16 };

struct TrainConfig {
  int batch_size = 256;

  // The optimiser (models/training_config.h, where its defaults are): keys optimizer,
  // learning_rate (the base rate of the schedule below), momentum, weight_decay, adam_beta1,
  // adam_beta2.
  models::OptimizerConfig optimizer;

  // Learning rate at step s: a linear warm-up over warmup_steps, then the schedule:
  //   constant: learning_rate
  //   step:     learning_rate * lr_step_factor ^ floor(s / lr_step_every)
  //   cosine:   from learning_rate down to learning_rate * lr_final_fraction over lr_decay_steps
  //             steps after the warm-up, then flat
  LrSchedule lr_schedule = LrSchedule::Constant;
  int64_t warmup_steps = 100;
  int64_t lr_step_every = 100'000;
  double lr_step_factor = 0.1;
  int64_t lr_decay_steps = 200'000;
  double lr_final_fraction = 0.01;

  // The value target: (1 - value_target_search) * the game's result + value_target_search * the
  // search's value of the position (its root W/D/L, recorded by self-play; KataGo and the
  // "Lessons from AlphaZero" series found such a mix learns faster than the result alone: a
  // drawn game still says which side the search thought was ahead). 0: the result alone.
  double value_target_search = 0.0;

  // The board's mirror as data (AlphaZero's symmetries in Go; chess has none, castling breaks it,
  // but neither game here castles): each training row is mirrored a <-> h with probability 1/2
  // (GameSpec::mirror_actions), so every position also teaches its twin. The held-out check
  // scores rows as played.
  bool mirror = false;

  // The loss weights (models/training_config.h): keys policy_weight, wdl_weight,
  // moves_left_weight (0 turns the moves-left loss off).
  models::LossWeights loss;

  // Sliding window over the newest positions (KataGo): with N positions in the run's shards,
  //   window = min(window_cap, max(window_floor, window_scale * N ^ window_exponent))
  // positions, never more than N.
  int64_t window_floor = 250'000;
  int64_t window_cap = 4'000'000;
  double window_scale = 40.0;
  double window_exponent = 0.65;
  // A fixed share of every batch from the newest positions, so that a generation's games are
  // not drowned by a large window: recent_share of the rows are drawn from the newest
  // recent_positions rows of the window, the rest from the whole window. 0: uniform.
  double recent_share = 0.0;
  int64_t recent_positions = 100'000;
  int64_t min_positions = 5'000;  // no training before the run's shards hold this many
  // The bootstrap retires with the first network: once the run holds min_positions positions of
  // players with a prior or a value, at most this share of every batch comes from the bootstrap's
  // games (the uniform player's: a result, no policy target, no search value), drawn from a pool
  // of its own (the window's size rule applied to its positions); the rest from the others'
  // window, whose size and replay ratio count only their positions. 1: one window for all, as
  // before the bootstrap was kept apart.
  double bootstrap_share = 0.1;

  // Replay ratio (KataGo's max-train-bucket-per-new-data): at most this many training samples
  // per self-play position, so steps <= N * replay_ratio / batch_size. 0: no cap.
  double replay_ratio = 4.0;

  // The held-out check (train/heldout.h): before training on games that arrived since it last
  // trained, the network is scored on up to this many of their newest positions, which it has
  // never trained on (logs/heldout.jsonl, plots/heldout.png, plots/value_by_material.png). 0: off.
  int64_t heldout_positions = 20'000;

  // Weights averaged for play: after every step the trainer moves an average of the weights (batch
  // norm's running statistics included) towards the new ones by 1 - average_decay (an exponential
  // moving average, as lc0's SWA and KataGo's averaged exports smooth SGD's last steps), kept
  // beside them in each checkpoint; self-play, the matches and the export play the average. The
  // first steps average faster (decay min(average_decay, (1 + step) / (10 + step))). 0: off.
  double average_decay = 0.0;

  int64_t checkpoint_every = 1000;  // steps between checkpoints
  int keep_checkpoints = 0;         // 0: keep all; k: delete all but the newest k
  int64_t log_every = 100;          // steps between metric lines (logs/train.jsonl)
  int64_t refresh_every = 500;      // steps between scans of games/ for new shards
  double poll_seconds = 10;         // `train --steps` waits this long when the cap is reached
  int prefetch_batches = 4;         // ready batches the loader thread keeps queued

  std::string device = "auto";  // auto | cpu | cuda | cuda:N
  TrainPrecision precision = TrainPrecision::Auto;
  // Torch intra-op threads while training, set at every train_available (the process's
  // evaluators set their own count between: nn::set_torch_threads); 0: every core.
  int threads = 0;
};

// Every key of the `train` section, with its range.
template <typename V>
void fields(V& v, TrainConfig& c) {
  v.num("batch_size", c.batch_size, 1, 1 << 16);
  v.choice("optimizer", c.optimizer.kind,
           {{"sgd", models::OptimizerKind::Sgd}, {"adamw", models::OptimizerKind::AdamW}});
  v.num("learning_rate", c.optimizer.learning_rate, 0.0, 10.0);
  v.num("momentum", c.optimizer.momentum, 0.0, 0.999);
  v.num("weight_decay", c.optimizer.weight_decay, 0.0, 1.0);
  v.num("adam_beta1", c.optimizer.adam_beta1, 0.0, 0.9999);
  v.num("adam_beta2", c.optimizer.adam_beta2, 0.0, 0.99999);
  v.choice("lr_schedule", c.lr_schedule,
           {{"constant", LrSchedule::Constant}, {"step", LrSchedule::Step}, {"cosine", LrSchedule::Cosine}});
  v.num("warmup_steps", c.warmup_steps, int64_t{0}, int64_t{1'000'000'000});
  v.num("lr_step_every", c.lr_step_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("lr_step_factor", c.lr_step_factor, 0.0, 1.0);
  v.num("lr_decay_steps", c.lr_decay_steps, int64_t{1}, int64_t{1'000'000'000});
  v.num("lr_final_fraction", c.lr_final_fraction, 0.0, 1.0);
  v.num("value_target_search", c.value_target_search, 0.0, 1.0);
  v.flag("mirror", c.mirror);
  v.num("policy_weight", c.loss.policy, 0.0, 1000.0);
  v.num("wdl_weight", c.loss.wdl, 0.0, 1000.0);
  v.num("moves_left_weight", c.loss.moves_left, 0.0, 1000.0);
  v.num("window_floor", c.window_floor, int64_t{1}, int64_t{1} << 40);
  v.num("window_cap", c.window_cap, int64_t{1}, int64_t{1} << 40);
  v.num("window_scale", c.window_scale, 0.0, 1e9);
  v.num("window_exponent", c.window_exponent, 0.0, 1.0);
  v.num("recent_share", c.recent_share, 0.0, 1.0);
  v.num("recent_positions", c.recent_positions, int64_t{1}, int64_t{1} << 40);
  v.num("min_positions", c.min_positions, int64_t{1}, int64_t{1} << 40);
  v.num("average_decay", c.average_decay, 0.0, 0.99999);
  v.num("bootstrap_share", c.bootstrap_share, 0.0, 1.0);
  v.num("replay_ratio", c.replay_ratio, 0.0, 1e6);
  v.num("heldout_positions", c.heldout_positions, int64_t{0}, int64_t{1} << 40);
  v.num("checkpoint_every", c.checkpoint_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("keep_checkpoints", c.keep_checkpoints, 0, 1'000'000);
  v.num("log_every", c.log_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("refresh_every", c.refresh_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("poll_seconds", c.poll_seconds, 0.01, 86'400.0);
  v.num("prefetch_batches", c.prefetch_batches, 1, 1024);
  v.text("device", c.device);
  v.choice("precision", c.precision,
           {{"auto", TrainPrecision::Auto},
            {"float32", TrainPrecision::Float32},
            {"bfloat16", TrainPrecision::BFloat16},
            {"float16", TrainPrecision::Float16}});
  v.num("threads", c.threads, 0, 1024);
  v.check(c.window_cap >= c.window_floor, "window_cap", "must be at least '" + v.path("window_floor") + "'");
}

}  // namespace sz::train
