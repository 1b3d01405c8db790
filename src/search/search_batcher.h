#pragma once
// Many games' searches, one evaluator call per round: each round asks every searching
// GameSearch for one leaf, evaluates all the leaves in one Evaluator::evaluate call (one
// network batch) and delivers the replies. A self-play worker thread owns one SearchBatcher and
// many GameSearch objects; between rounds it concludes the finished searches, plays their moves
// and starts the next ones, so the batch stays full while games are at different moves.
#include <cstdint>
#include <span>
#include <vector>

#include "search/evaluator.h"
#include "search/game_search.h"

namespace sz::search {

// Not thread-safe: one per worker thread. `evaluator` must outlive it.
class SearchBatcher {
 public:
  explicit SearchBatcher(Evaluator& evaluator, size_t max_games = 0);

  // One round over `games` (searches not searching are skipped). Returns the number of leaves
  // evaluated; 0 means none of `games` is still searching.
  int step(std::span<GameSearch* const> games);
  // Rounds until no search in `games` is searching.
  void run(std::span<GameSearch* const> games);

  uint64_t batches() const { return batches_; }
  uint64_t leaves() const { return leaves_; }
  double average_batch() const { return batches_ ? double(leaves_) / double(batches_) : 0.0; }

 private:
  Evaluator& evaluator_;
  std::vector<EvalQuery> queries_;
  std::vector<EvalReply> replies_;
  std::vector<GameSearch*> waiting_;  // the game of each query
  uint64_t batches_ = 0;
  uint64_t leaves_ = 0;
};

}  // namespace sz::search
