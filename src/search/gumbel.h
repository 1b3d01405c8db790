#pragma once
// Gumbel root selection with sequential halving (Danihelka et al., "Policy improvement by
// planning with Gumbel", ICLR 2022; reference code google-deepmind/mctx, gumbel_muzero_policy).
// Draw g(a) ~ Gumbel(0, 1) per legal root action. Simulation i visits, among the actions whose
// visits this search equal the sequential-halving table's entry for i (m = min(16, legal)
// candidates, halved each phase), the argmax of g(a) + logit(a) + sigma(completedQ(a)); the
// first m simulations thus visit the top m by g + logit. The move: the same argmax among the
// most visited. sigma(q) = (c_visit + max_b N(b)) * c_scale * q, with q rescaled to [0, 1] over
// the legal actions; completedQ(a) = Q(a) if visited, else the mixed value
// (v_raw + sum_b N(b) * sum_{b visited} P(b) Q(b) / sum_{b visited} P(b)) / (1 + sum_b N(b)).
// Policy target: softmax(logit(a) + sigma(completedQ(a))) over every legal action.
#include <array>
#include <span>
#include <vector>

#include "core/rng.h"
#include "search/policy_target.h"
#include "search/search_config.h"
#include "search/tree.h"

namespace sz::search {

// The per-search state of a Gumbel root. Not thread-safe: one per GameSearch.
class GumbelRoot {
 public:
  GumbelRoot() { schedule_.reserve(1024); }

  // Draws the Gumbel noise for the root's edges and plans `simulations` visits.
  void start(const Tree& tree, uint32_t root, int simulations, const SearchConfig& config, Rng& rng);
  // The root edge to visit in the next simulation; counts the visit.
  int select(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config);
  // The edge to play: the best by g + logit + sigma(q) among the most visited this search.
  int final_edge(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config);
  // The improved policy over every legal action; returns the number of entries written.
  int improved_policy(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config,
                      std::span<PolicyEntry> out);

 private:
  void compute_sigma(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config);
  int argmax_with_visits(uint32_t wanted_visits) const;

  std::array<float, game::kMaxActions> gumbel_{};
  std::array<float, game::kMaxActions> logit_{};  // log prior, shifted so that the largest is 0
  std::array<float, game::kMaxActions> sigma_{};
  std::array<uint32_t, game::kMaxActions> visits_{};  // this search's visits per edge
  std::vector<uint16_t> schedule_;  // considered visit count per simulation index
  int num_edges_ = 0;
  int simulations_done_ = 0;
};

// The sequential-halving table of mctx: entry i is the visit count the candidates must have for
// simulation i. Appends `simulations` entries to `out` (cleared first).
void sequential_halving_schedule(int considered, int simulations, std::vector<uint16_t>& out);

}  // namespace sz::search
