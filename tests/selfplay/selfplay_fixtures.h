#pragma once
// A small self-play job with the uniform bootstrap evaluator, and the games a directory holds:
// shared by the self-play tests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "selfplay/selfplay.h"

namespace sz::selfplay {

inline SelfplayJob small_job(const std::string& dir, int64_t games) {
  SelfplayJob job;
  job.config.threads = 1;
  job.config.games_per_thread = 4;
  job.config.seed = 42;
  job.config.search.full_visits = 24;
  job.config.search.cheap_visits = 8;
  job.config.games_per_shard = 3;
  job.config.shard_prefix = "test";
  job.start = games::new_game("sittuyin").take_or_throw("sittuyin");
  job.heuristics = heuristics::of_game(job.start->spec().game);
  job.out_dir = dir;
  job.games = games;
  job.make_evaluator = [](int) { return std::make_unique<search::UniformEvaluator>(); };
  return job;
}

inline std::string fresh_dir(const std::string& name) {
  const std::string dir = testing::TempDir() + "/selfplay-" + name + "-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  return dir;
}

inline std::vector<data::GameInfo> all_games(const std::string& dir) {
  std::vector<data::GameInfo> games;
  for (const auto& path : data::list_shards(dir))
    for (auto& g : data::ShardReader::open(path).read_games()) games.push_back(g);
  return games;
}

}  // namespace sz::selfplay
