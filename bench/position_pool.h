#pragma once
// Positions for the network benchmarks (bench nn, bench selfplay): the states of random games
// with their legal actions, and batches of queries over them with reply storage.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "games/registry.h"
#include "search/evaluator.h"

namespace sz::bench {

struct Pool {
  std::vector<std::unique_ptr<game::GameState>> states;
  std::vector<std::vector<game::ActionId>> actions;
};

inline Pool make_pool(const std::string& profile, int count) {
  Pool pool;
  Rng rng(2024);
  game::ActionId legal[game::kMaxActions];
  while (int(pool.states.size()) < count) {
    auto state = std::move(games::new_game(profile)).take_or_throw("bench nn");
    const int plies = int(rng.below(120));
    for (int p = 0; p < plies && !state->outcome().over(); ++p)
      state->apply(legal[rng.below(uint32_t(state->legal_actions(legal)))]);
    if (state->outcome().over()) continue;
    pool.actions.emplace_back(legal, legal + state->legal_actions(legal));
    pool.states.push_back(std::move(state));
  }
  return pool;
}

// Queries over `n` pool positions starting at `first` (wrapping), with their reply storage.
struct Batch {
  std::vector<search::EvalQuery> queries;
  std::vector<search::EvalReply> replies;
  std::vector<float> priors;
  Batch(const Pool& pool, size_t first, int n) : replies(size_t(n)), priors(size_t(n) * game::kMaxActions) {
    for (int i = 0; i < n; ++i) {
      const size_t k = (first + size_t(i)) % pool.states.size();
      queries.push_back({pool.states[k].get(), pool.actions[k]});
      replies[size_t(i)].priors =
          std::span<float>(priors).subspan(size_t(i) * game::kMaxActions, pool.actions[k].size());
    }
  }
};

}  // namespace sz::bench
