#pragma once
// The trainer: reads the newest self-play shards of a run (runs/<run>/games/*.h5) into a sliding
// window in memory, trains the network on shuffled batches prepared by a background thread, and
// writes checkpoints (runs/<run>/models/current.txt names the newest, which a restart resumes
// from); self-play picks one up once it is adopted (models/adopted.txt). docs/TRAINING.md
// describes the window, the replay ratio, the learning-rate schedules, resuming and the metrics.
// Torch-free (pimpl): the training loop and the CLI include it freely.
//
// Use, in-process between self-play generations:
//
//   train::Trainer trainer(setup);             // resumes from its checkpoints if it has any
//   ... self-play writes shards to run_dir/games ...
//   trainer.train_available(/*max_steps=*/1000, &stop);   // as many as the replay ratio allows
//   const std::string net = trainer.current_checkpoint(); // the newest weights, for self-play
//
// or standalone (`sittuyin-zero train`): trainer.train(steps, &stop), which waits for new games
// whenever the replay ratio caps it.
//
// Determinism: batch k is drawn from the window by an RNG seeded from (seed, k) alone, so a
// killed trainer resumed from its last checkpoint draws the same batches as one never stopped
// (given the same shards; exact with one torch thread on the CPU). Only one trainer may work on
// a run directory at a time (a lock file, models/.trainer.lock, enforces it).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "game/game_state.h"
#include "net/net_config.h"
#include "train/distributed_config.h"
#include "train/train_config.h"

namespace sz::models {
class NetworkImpl;
}

namespace sz::train {

// What one metric line says (logs/train.jsonl; the progress line is the same, shorter). Losses
// are means over the steps since the previous line.
struct StepMetrics {
  int64_t step = 0;   // steps taken so far
  double loss = 0;    // total, as optimised
  double policy = 0;  // per head, unweighted
  double wdl = 0;
  double moves_left = 0;
  double learning_rate = 0;  // of the last step
  double samples_per_s = 0;  // training samples per second of wall time since the previous line
  double loader_wait = 0;    // fraction of that time the optimiser waited for batches
  int64_t window = 0;        // positions in the window
  int64_t window_shards = 0;
  int64_t positions_seen = 0;  // positions in the run's shards at the last scan
  int64_t samples = 0;         // training samples drawn so far
};

std::string metrics_json(const StepMetrics& m, double unix_time);  // one JSON object, no newline
std::string progress_line(const StepMetrics& m);

struct TrainerHooks {
  std::function<void(const std::string&)> on_warning;     // default: "warning: ..." on stderr
  std::function<void(const std::string&)> on_info;        // e.g. waiting for games; default: stderr
  std::function<void(const StepMetrics&)> on_metrics;     // after each metric line (default: none)
  std::function<void(const std::string&)> on_checkpoint;  // the path of each checkpoint written
};

// What a trainer needs: its own settings and, from the run, the network to train, the encoding of
// the game it plays, the seed (of the first weights and of every batch) and the run directory.
struct TrainerSetup {
  TrainConfig train;
  net::NetConfig net;
  game::GameSpec spec;
  uint64_t seed = 1;
  std::string run_dir;
  // Data-parallel training (docs/SCALING.md): this rank's place among the trainers of the run.
  // Every rank draws the same batches and trains on its share of each batch's slices; their
  // gradients are averaged, so the ranks keep the same weights. Rank 0 alone writes the run's
  // files (checkpoints, metrics, current.txt), the others only read them.
  DistributedConfig distributed{};
  // What every rank of a distributed run must agree on, as "key: value" lines (run::trainer_setup
  // writes the train section but its device and threads, the network, the seed and the program's
  // version): a rank whose text differs from rank 0's stops before the first step with an error
  // naming the first line that differs. "" : nothing checked.
  std::string agreement;
  // Each batch is cut into this many equal slices, a forward pass each (batch normalisation sees
  // one slice), their gradients averaged; the ranks share them, so world_size must divide it and
  // it must divide train.batch_size. 0: one slice per rank. N ranks compute what one rank with N
  // slices computes (up to the order of float sums).
  int batch_slices = 0;
};

class Trainer {
 public:
  // Builds the network `setup.net` for `setup.spec` on train.device and resumes (weights,
  // optimiser, step, loss scale) from the checkpoint run_dir/models/current.txt
  // names, or from a newer one that reads completely (a trainer stopped before it updated
  // current.txt), or, without current.txt, from the newest one that reads, with a warning naming
  // it: never a fresh network over checkpoints, never a checkpoint written over. Newer
  // checkpoints that cannot be read are moved into models/damaged/ with a warning. Throws
  // sz::Error naming the file on an unreadable or incompatible current checkpoint, when
  // checkpoints exist of which none reads, or when another trainer holds the run directory.
  explicit Trainer(TrainerSetup setup, TrainerHooks hooks = {});
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  // Scans games/ for new shards, then trains at most `max_steps` steps, fewer when the replay
  // ratio (or min_positions) allows fewer with the data there now; never waits for data. Stops
  // early once *stop is true. Writes a checkpoint every checkpoint_every steps and, if it took any
  // step since the last one, at the end, so that current_checkpoint() has the newest weights.
  // Returns the steps taken. Shards that cannot be read are skipped with a warning naming the
  // file; a shard of another encoding is an error (sz::Error naming the file).
  int train_available(int max_steps, const std::atomic<bool>* stop = nullptr);

  // Trains `steps` steps (< 0: until *stop), waiting (polling every train.poll_seconds) whenever
  // the replay ratio caps it; checkpoints every checkpoint_every steps and on the way out,
  // including when *stop ends it. Returns the steps taken.
  int64_t train(int64_t steps, const std::atomic<bool>* stop = nullptr);

  // Writes a checkpoint of the current state now (nothing if it already exists); returns its path.
  std::string save_checkpoint();

  std::string current_checkpoint() const;  // the newest checkpoint's path; "" before the first
  int64_t step() const;                    // training steps taken (restored on resume)
  int64_t positions_seen() const;          // positions in the run's shards at the last scan
  int64_t steps_allowed() const;           // the replay ratio's cap at the last scan
  const std::string& run_dir() const;

  // The network being trained (for an in-process evaluator: nn::NetRunner::from_network copies it).
  std::shared_ptr<models::NetworkImpl> network() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sz::train
