#include "search/policy_target.h"

#include <algorithm>
#include <cmath>

#include "search/puct.h"

namespace sz::search {

void visit_weights(const Tree& tree, uint32_t root, std::span<float> weights) {
  const std::span<const Edge> edges = tree.edges_of(root);
  assert(weights.size() >= edges.size());
  for (size_t i = 0; i < edges.size(); ++i)
    weights[i] = edges[i].child == kNoNode ? 0.0f : float(tree.node(edges[i].child).visits);
}

void pruned_visit_weights(const Tree& tree, uint32_t root, game::Player mover, const DrawScore& draws,
                          const SearchConfig& config, std::span<float> weights) {
  visit_weights(tree, root, weights);
  const std::span<const Edge> edges = tree.edges_of(root);
  if (edges.empty()) return;
  const auto begin = weights.begin(), end = weights.begin() + ptrdiff_t(edges.size());
  const int best = int(std::max_element(begin, end) - begin);
  if (weights[size_t(best)] <= 0) return;
  const uint32_t total = tree.node(root).visits - 1;
  const float u_scale = cpuct(config, tree.node(root).visits) * std::sqrt(float(std::max<uint32_t>(total, 1)));
  const Edge& b = edges[size_t(best)];
  const float best_score = q_for(tree.node(b.child), mover, draws) + u_scale * b.prior / (1.0f + weights[size_t(best)]);
  for (size_t i = 0; i < edges.size(); ++i) {
    if (int(i) == best || weights[i] <= 0) continue;
    const float gap = best_score - q_for(tree.node(edges[i].child), mover, draws);
    if (gap > 0) {
      const float forced = forced_playouts(config.forced_playouts_k, edges[i].prior, total);
      const float keep = std::max(weights[i] - forced, u_scale * edges[i].prior / gap - 1.0f);
      weights[i] = std::min(weights[i], keep);
    }
    if (weights[i] <= 1.0f) weights[i] = 0;
  }
}

int to_policy(std::span<const Edge> edges, std::span<const float> weights, std::span<PolicyEntry> out,
              bool every_edge) {
  double sum = 0;
  for (size_t i = 0; i < edges.size(); ++i) sum += weights[i] > 0 ? weights[i] : 0.0f;
  int count = 0;
  if (!(sum > 0)) return 0;
  for (size_t i = 0; i < edges.size(); ++i)
    if (weights[i] > 0 || every_edge)
      out[size_t(count++)] = {edges[i].action, weights[i] > 0 ? float(weights[i] / sum) : 0.0f};
  return count;
}

int choose_by_temperature(std::span<const float> weights, float temperature, Rng& rng) {
  assert(!weights.empty());
  const int best = int(std::max_element(weights.begin(), weights.end()) - weights.begin());
  assert(weights[size_t(best)] > 0);
  if (temperature < kGreedyTemperature) return best;
  // N^(1/T) / max N^(1/T), in logs so that small T does not overflow.
  const double inv_t = 1.0 / double(temperature), log_max = std::log(double(weights[size_t(best)]));
  double sum = 0;
  for (float w : weights) sum += w > 0 ? std::exp((std::log(double(w)) - log_max) * inv_t) : 0.0;
  double pick = rng.uniform() * sum;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) continue;
    pick -= std::exp((std::log(double(weights[i])) - log_max) * inv_t);
    if (pick < 0) return int(i);
  }
  return best;  // rounding left a sliver
}

float move_temperature(const SearchConfig& config, game::Phase phase, int play_ply) {
  if (phase == game::Phase::Placement) return config.placement_temperature;
  if (play_ply < config.play_temperature_plies) return config.play_temperature;
  const float half_life = std::max(config.play_temperature_half_life, 1e-3f);
  const float halvings = float(play_ply - config.play_temperature_plies) / half_life;
  return config.play_temperature_floor +
         (config.play_temperature - config.play_temperature_floor) * std::exp2(-halvings);
}

}  // namespace sz::search
