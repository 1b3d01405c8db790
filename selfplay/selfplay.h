#pragma once
// The self-play driver: worker threads (TBB), each advancing many games and sending their leaves
// to its evaluator in one batch; finished games stream to HDF5 shards, one writer per worker.
// Killed at any point, a run leaves every finished shard readable; run again with the same
// output directory it plays only the games still missing.
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "search/evaluator.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_stats.h"

namespace sz::selfplay {

struct SelfplayJob {
  SelfplayConfig config;
  std::string out_dir;   // shards go here (runs/<run>/games)
  int64_t games = 0;     // games the directory should hold when the job is done
  std::string model_id;  // recorded with every game ("" for the bootstrap evaluator)
  // One evaluator per worker (a NetEvaluator, a client of a shared inference service, or the
  // uniform bootstrap). Called once per worker, from that worker's thread.
  std::function<std::unique_ptr<search::Evaluator>(int worker)> make_evaluator;
  // Called about every `progress_seconds` from one thread with the running statistics.
  std::function<void(const SelfplayStats&)> on_progress;
  double progress_seconds = 10;
  const std::atomic<bool>* stop = nullptr;  // set (e.g. by SIGINT) to finish early, losing only games in flight
};

// Runs the job; returns the statistics of the games it played. Throws sz::Error on a bad
// profile, an unwritable directory or a failing evaluator; the first failure stops every worker.
std::unique_ptr<SelfplayStats> run_selfplay(const SelfplayJob& job);

// Games already in the completed shards of `dir` (0 if it does not exist).
int64_t count_games(const std::string& dir);

}  // namespace sz::selfplay
