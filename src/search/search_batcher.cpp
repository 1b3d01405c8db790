#include "search/search_batcher.h"

namespace sz::search {

SearchBatcher::SearchBatcher(Evaluator& evaluator, size_t max_games) : evaluator_(evaluator) {
  queries_.reserve(max_games);
  replies_.reserve(max_games);
  waiting_.reserve(max_games);
}

int SearchBatcher::step(std::span<GameSearch* const> games) {
  queries_.clear();
  replies_.clear();
  waiting_.clear();
  for (GameSearch* game : games) {
    EvalQuery query{};
    EvalReply reply{};
    if (!game->select_leaf(query, reply)) continue;
    queries_.push_back(query);
    replies_.push_back(reply);
    waiting_.push_back(game);
  }
  if (queries_.empty()) return 0;
  evaluator_.evaluate(queries_, replies_);
  for (size_t i = 0; i < waiting_.size(); ++i) waiting_[i]->deliver(replies_[i]);
  ++batches_;
  leaves_ += queries_.size();
  return int(queries_.size());
}

void SearchBatcher::run(std::span<GameSearch* const> games) {
  while (step(games) > 0) {
  }
}

}  // namespace sz::search
