#pragma once
// Collects the finished games of a match for the tests. MatchSpec::on_game runs on the match's
// game threads, so the list is guarded; read it after play_match returns.
#include <mutex>
#include <vector>

#include "eval/arena.h"

namespace sz::eval::test {

class GameCollector {
 public:
  // Becomes `spec.on_game`; must outlive play_match(spec).
  void attach(MatchSpec& spec) {
    spec.on_game = [this](const GameRecord& g, const MatchResult&) {
      std::lock_guard lock(mutex_);
      games_.push_back(g);
    };
  }
  const std::vector<GameRecord>& games() const { return games_; }  // in the order they finished

 private:
  std::mutex mutex_;
  std::vector<GameRecord> games_;
};

}  // namespace sz::eval::test
