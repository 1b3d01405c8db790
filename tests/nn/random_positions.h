#pragma once
// Test positions from random games: a profile's start position plus random legal moves, each
// with its legal actions, and queries/replies for an Evaluator over them.
#include <memory>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "games/registry.h"
#include "search/evaluator.h"

namespace sz::test {

struct RandomPositions {
  std::vector<std::unique_ptr<game::GameState>> states;
  std::vector<std::vector<game::ActionId>> actions;  // legal actions of each state, never empty
};

// `count` positions after 0..max_plies random plies (placement included) from `seed`.
inline RandomPositions random_positions(std::string_view profile, int count, uint64_t seed, int max_plies = 80) {
  Rng rng(seed);
  RandomPositions out;
  game::ActionId legal[game::kMaxActions];
  while (int(out.states.size()) < count) {
    auto state = std::move(games::new_game(profile)).take_or_throw("test positions");
    const int plies = int(rng.below(uint32_t(max_plies + 1)));
    for (int ply = 0; ply < plies && !state->outcome().over(); ++ply) {
      const int n = state->legal_actions(legal);
      state->apply(legal[rng.below(uint32_t(n))]);
    }
    if (state->outcome().over()) continue;
    const int n = state->legal_actions(legal);
    out.actions.emplace_back(legal, legal + n);
    out.states.push_back(std::move(state));
  }
  return out;
}

// Queries over `positions` and replies with room for their priors.
struct EvalBatch {
  std::vector<search::EvalQuery> queries;
  std::vector<search::EvalReply> replies;
  std::vector<std::vector<float>> priors;

  explicit EvalBatch(const RandomPositions& positions, size_t first = 0, size_t count = size_t(-1)) {
    const size_t end = std::min(positions.states.size(), count == size_t(-1) ? positions.states.size() : first + count);
    for (size_t i = first; i < end; ++i) {
      queries.push_back({positions.states[i].get(), positions.actions[i]});
      priors.emplace_back(positions.actions[i].size(), -1.0f);
    }
    replies.resize(queries.size());
    for (size_t i = 0; i < replies.size(); ++i) replies[i].priors = priors[i];
  }
  EvalBatch(const EvalBatch&) = delete;  // the replies point into `priors`
};

}  // namespace sz::test
