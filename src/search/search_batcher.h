#pragma once
// Many games' searches, one evaluator call per round: each round asks every source for one leaf,
// evaluates all the leaves in one Evaluator::evaluate call (one network batch) and delivers the
// replies. The one batching loop of the project: self-play workers (selfplay/) run it over their
// game slots, which between two leaves conclude a search, play its move and start the next (or
// the next game), so the batch stays full while games are at different moves; tests and
// benchmarks run it over bare GameSearch objects.
#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

#include "search/evaluator.h"
#include "search/game_search.h"

namespace sz::search {

// What the batcher drives: select_leaf fills a query and points the reply's priors at the
// source's buffer (true), or says that the source has no leaf this round (false); deliver hands
// the evaluation of that leaf back. GameSearch is one.
template <typename S>
concept LeafSource = requires(S& source, EvalQuery& query, EvalReply& reply, const EvalReply& done) {
  { source.select_leaf(query, reply) } -> std::same_as<bool>;
  source.deliver(done);
};

// Not thread-safe: one per worker thread. `evaluator` must outlive it. Allocates nothing per
// round once it has seen `max_sources` sources.
template <LeafSource Source = GameSearch>
class SearchBatcher {
 public:
  explicit SearchBatcher(Evaluator& evaluator, size_t max_sources = 0) : evaluator_(evaluator) {
    queries_.reserve(max_sources);
    replies_.reserve(max_sources);
    waiting_.reserve(max_sources);
  }

  // One round over `sources`, in order. Returns the number of leaves evaluated; 0 means that no
  // source had a leaf (every search done, every slot out of games).
  int step(std::span<Source* const> sources) {
    queries_.clear();
    replies_.clear();
    waiting_.clear();
    for (Source* source : sources) {
      EvalQuery query{};
      EvalReply reply{};
      if (!source->select_leaf(query, reply)) continue;
      queries_.push_back(query);
      replies_.push_back(reply);
      waiting_.push_back(source);
    }
    if (queries_.empty()) return 0;
    evaluator_.evaluate(queries_, replies_);
    for (size_t i = 0; i < waiting_.size(); ++i) waiting_[i]->deliver(replies_[i]);
    ++batches_;
    leaves_ += queries_.size();
    return int(queries_.size());
  }

  // Rounds until no source has a leaf.
  void run(std::span<Source* const> sources) {
    while (step(sources) > 0) {
    }
  }

  uint64_t batches() const { return batches_; }
  uint64_t leaves() const { return leaves_; }
  double average_batch() const { return batches_ ? double(leaves_) / double(batches_) : 0.0; }

 private:
  Evaluator& evaluator_;
  std::vector<EvalQuery> queries_;
  std::vector<EvalReply> replies_;
  std::vector<Source*> waiting_;  // the source of each query
  uint64_t batches_ = 0;
  uint64_t leaves_ = 0;
};

}  // namespace sz::search
