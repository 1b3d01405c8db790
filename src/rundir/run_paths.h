#pragma once
// The run directory's layout, in one place (../shared/DESIGN.md, "The run directory"). Every
// module that reads or writes a run's files asks here for their paths:
//
//   config.yaml                 the run's resolved config (the loop writes it; `train`, `levels`,
//                               `selfplay --follow` read it)
//   games/                      self-play's shards (data/)
//   models/model-<step>.pt      the trainer's checkpoints (checkpoint_files.h), current.txt,
//                               damaged/, .trainer.lock
//   models/adopted.txt          the checkpoint self-play plays with (loop_state.h)
//   models/generation.txt       the loop's generation in training (loop_state.h)
//   logs/train.jsonl            the trainer's metrics, one JSON object a line
//   logs/heldout.jsonl          the held-out check's, one line a generation
//   eval/networks.jsonl         the ladder's networks, eval/ladder.jsonl its matches (run/ladder.h),
//   eval/ladder.json            its ratings, and eval/elo.jsonl the same a line each
//   eval/<name>.json, .pgn      the loop's final matches
//   eval/<suite>                the start suite the ratings play, copied in
//   plots/                      the run's PNG plots (run_plots.h)
//
// Torch-free, header-only.
#include <cstdint>
#include <filesystem>
#include <string>

#include "rundir/checkpoint_files.h"

namespace sz::rundir {

class RunPaths {
 public:
  explicit RunPaths(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::string config() const { return at("config.yaml"); }
  std::string games() const { return at("games"); }
  std::string models() const { return at("models"); }
  std::string logs() const { return at("logs"); }
  std::string eval() const { return at("eval"); }
  std::string plots() const { return at("plots"); }

  std::string adopted() const { return at("models/adopted.txt"); }
  std::string generation() const { return at("models/generation.txt"); }
  std::string trainer_lock() const { return at("models/.trainer.lock"); }
  std::string train_log() const { return at("logs/train.jsonl"); }
  std::string heldout_log() const { return at("logs/heldout.jsonl"); }
  std::string ladder_networks() const { return at("eval/networks.jsonl"); }
  std::string ladder_matches() const { return at("eval/ladder.jsonl"); }
  std::string ladder() const { return at("eval/ladder.json"); }
  std::string elo_log() const { return at("eval/elo.jsonl"); }
  // A checkpoint of the trainer's by its step (checkpoint_files.h: checkpoint_file_name).
  std::string checkpoint(int64_t step) const { return (root_ / "models" / checkpoint_file_name(step)).string(); }
  // A file of eval/ by its name (a start suite copied in).
  std::string in_eval(const std::string& name) const { return (root_ / "eval" / name).string(); }

  // Creates the run's directories (the loop does, before anything is written).
  void create_directories() const {
    for (const char* dir : {"games", "models", "eval", "logs", "plots"})
      std::filesystem::create_directories(root_ / dir);
  }
  // Whether `root` holds any of a run's data directories (logs/, games/, models/, eval/): a
  // directory named by a typo is not "plotted" or "followed" silently.
  bool looks_like_run() const {
    std::error_code ec;
    for (const char* dir : {"logs", "games", "models", "eval"})
      if (std::filesystem::is_directory(root_ / dir, ec)) return true;
    return false;
  }

 private:
  std::string at(const char* relative) const { return (root_ / relative).string(); }
  std::filesystem::path root_;
};

}  // namespace sz::rundir
