#pragma once
// Shards and configs for the trainer's tests: synthetic games from tests/data/test_games.h
// (deterministic in the game index; the Sittuyin encoding sizes) written by the real ShardWriter.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "data/shard_writer.h"
#include "data/test_games.h"
#include "games/registry.h"
#include "net/net_config.h"
#include "train/trainer.h"

namespace sz::train::test {

using data::test::TempDir;

// Writes games [first, first + count) in shards of `per_shard` games with prefix `prefix`.
// Shards written within one millisecond carry the same finished time, and then sort by path
// (by their sequence, for one prefix); each gets a modification time one second after the
// previous one (from `base`) as well, for the readers of file times (`ls -t`). Returns the shard
// paths.
inline std::vector<std::string> write_shards(const std::string& games_dir, int first, int count, int per_shard,
                                             const std::string& prefix = "w",
                                             const game::GameSpec& spec = data::test::test_spec()) {
  std::vector<std::string> paths;
  data::ShardWriter writer(games_dir, prefix, spec, {.games_per_shard = per_shard, .seconds_per_shard = 0});
  for (int i = first; i < first + count; ++i)
    if (std::string done = writer.add_game(data::test::make_game(i, spec)); !done.empty()) paths.push_back(done);
  if (std::string done = writer.close(); !done.empty()) paths.push_back(done);
  static auto base = std::filesystem::file_time_type::clock::now() - std::chrono::hours(24);
  for (const std::string& p : paths) {
    base += std::chrono::seconds(1);
    std::filesystem::last_write_time(p, base);
  }
  return paths;
}

inline int64_t positions_of_games(int first, int count) {
  int64_t n = 0;
  for (int i = first; i < first + count; ++i) n += data::test::positions_in_game(i);
  return n;
}

// A tiny, fast, deterministic trainer: the tiny network on Sittuyin, no replay cap, no minimum,
// one torch thread, in `run_dir`.
inline TrainerSetup tiny_setup(const std::string& run_dir = "") {
  TrainerSetup c;
  c.seed = 11;
  c.net = net::load_net_config("tiny").take_or_throw();
  c.spec = games::spec_for("sittuyin").take_or_throw();
  c.run_dir = run_dir;
  c.train.batch_size = 32;
  c.train.replay_ratio = 0;
  c.train.min_positions = 1;
  c.train.warmup_steps = 3;
  c.train.lr_schedule = train::LrSchedule::Cosine;
  c.train.lr_decay_steps = 30;
  c.train.optimizer.learning_rate = 0.01;
  c.train.checkpoint_every = 5;
  c.train.log_every = 5;
  c.train.threads = 1;
  c.train.device = "cpu";
  return c;
}

// A run directory's games/, where the trainer reads its shards.
inline std::string games_of(const TempDir& run) { return run.file("games"); }

// `setup` in `run_dir`.
inline TrainerSetup in_run(TrainerSetup setup, const std::string& run_dir) {
  setup.run_dir = run_dir;
  return setup;
}

}  // namespace sz::train::test
