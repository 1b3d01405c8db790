#pragma once
// Counters of a self-play run, shared by its workers (atomics and one mutex for the end-reason
// table), and the progress line users watch.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "game/game_state.h"
#include "search/tree_report.h"

namespace sz::selfplay {

class SelfplayStats {
 public:
  SelfplayStats() : start_(std::chrono::steady_clock::now()) {}

  void add_batch(int positions) {
    evaluations_ += positions;
    ++batches_;
  }
  void add_game(game::GameResult result, std::string_view reason, int plies, int positions);
  // A would-be resignation in a game where resigning was disabled; `lost` = that side lost.
  void add_resign_check(bool lost);
  // A would-be draw adjudication in a control game; `decisive` = the game did not end drawn.
  void add_draw_check(bool decisive);
  // A search of the play phase, full or cheap: how its root visits spread, and the W - L of its
  // value target (the policy target's children) minus the root's mean over every visit.
  void add_search(bool full, const search::RootSpread& spread, double target_minus_mean);

  int64_t games() const { return games_; }
  int64_t positions() const { return positions_; }
  int64_t evaluations() const { return evaluations_; }
  double seconds() const;
  double average_batch() const { return batches_ ? double(evaluations_) / double(batches_) : 0.0; }
  // The share of would-be resignations (in resign-disabled games) whose side did not lose; -1 if none.
  double resign_false_positive_rate() const;
  // The share of would-be draw adjudications (in control games) whose game ended decisively; -1 if none.
  double draw_false_positive_rate() const;
  // "games 120 | 35.1 pos/s | 2210 evals/s | batch 31.8 | length 97.2 | W/D/L 40/55/25 | ..."
  std::string progress_line() const;
  // The searches of the play phase, averaged: "full searches 900: 34.2 moves, 33.0 visited,
  // best 18.5 of 63.0 visits, line 3.1 plies; the target keeps 52% of the visits on 6.1 moves,
  // its W - L +0.041 over the root's mean | cheap searches 2700: 33.9 moves, 15.2 visited, best
  // 1.6 of 16.0 visits, line 1.3 plies"; "" before the first.
  std::string search_line() const;
  std::map<std::string, int64_t> end_reasons() const;

 private:
  std::chrono::steady_clock::time_point start_;
  std::atomic<int64_t> games_{0}, positions_{0}, plies_{0}, evaluations_{0}, batches_{0};
  std::array<std::atomic<int64_t>, 3> results_{};  // first wins, draws, second wins
  std::atomic<int64_t> resign_checks_{0}, resign_false_positives_{0};
  std::atomic<int64_t> draw_checks_{0}, draw_false_positives_{0};
  struct SearchSums {  // over the play phase's searches of one kind
    std::atomic<int64_t> searches{0}, moves{0}, visited{0}, targeted{0}, visits{0}, best{0}, line{0};
    std::atomic<double> kept{0}, target_minus_mean{0};
  };
  std::array<SearchSums, 2> searches_;  // full, cheap
  mutable std::mutex reasons_mutex_;
  std::map<std::string, int64_t> reasons_;
};

}  // namespace sz::selfplay
