#include "search/gumbel.h"

#include <algorithm>
#include <cmath>

#include "search/noise.h"

namespace sz::search {
namespace {

constexpr float kLowLogit = -1e9f;  // floor of a score, as mctx
constexpr float kTinyPrior = 1e-30f;

}  // namespace

void sequential_halving_schedule(int considered, int simulations, std::vector<uint16_t>& out) {
  out.clear();
  if (considered <= 1) {
    for (int i = 0; i < simulations; ++i) out.push_back(uint16_t(std::min(i, 65535)));
    return;
  }
  const int log2max = int(std::ceil(std::log2(double(considered))));
  std::array<int, game::kMaxActions> visits{};
  int num_considered = considered;
  while (int(out.size()) < simulations) {
    const int extra = std::max(1, simulations / (log2max * num_considered));
    for (int r = 0; r < extra; ++r) {
      for (int i = 0; i < num_considered; ++i) out.push_back(uint16_t(std::min(visits[size_t(i)]++, 65535)));
    }
    num_considered = std::max(2, num_considered / 2);
  }
  out.resize(size_t(simulations));
}

void GumbelRoot::start(const Tree& tree, uint32_t root, int simulations, const SearchConfig& config, Rng& rng) {
  const std::span<const Edge> edges = tree.edges_of(root);
  num_edges_ = int(edges.size());
  simulations_done_ = 0;
  float max_logit = -INFINITY;
  for (int i = 0; i < num_edges_; ++i) {
    gumbel_[size_t(i)] = sample_gumbel(rng);
    logit_[size_t(i)] = std::log(std::max(edges[size_t(i)].prior, kTinyPrior));
    max_logit = std::max(max_logit, logit_[size_t(i)]);
    visits_[size_t(i)] = 0;
  }
  for (int i = 0; i < num_edges_; ++i) logit_[size_t(i)] -= max_logit;
  const int considered = std::min(config.gumbel_considered, num_edges_);
  sequential_halving_schedule(considered, std::max(simulations, 0), schedule_);
}

// sigma(completedQ) per edge, into sigma_.
void GumbelRoot::compute_sigma(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config) {
  const std::span<const Edge> edges = tree.edges_of(root);
  const DrawScore draws{mover, config.contempt};  // at the root the mover is the root's mover
  uint32_t sum_n = 0, max_n = 0;
  double visited_p = 0, weighted_q = 0;
  for (int i = 0; i < num_edges_; ++i) {
    const Edge& e = edges[size_t(i)];
    const uint32_t n = e.child == kNoNode ? 0 : tree.node(e.child).visits;
    if (n == 0) continue;
    sum_n += n;
    max_n = std::max(max_n, n);
    visited_p += std::max(e.prior, kTinyPrior);
    weighted_q += std::max(e.prior, kTinyPrior) * q_for(tree.node(e.child), mover, draws);
  }
  const Node& r = tree.node(root);
  const double v_raw = r.view == mover ? r.raw_q : -r.raw_q;
  const double mixed =
      visited_p > 0 ? (v_raw + double(sum_n) * weighted_q / visited_p) / (1.0 + double(sum_n)) : v_raw;
  float lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < num_edges_; ++i) {
    const Edge& e = edges[size_t(i)];
    const bool visited = e.child != kNoNode && tree.node(e.child).visits > 0;
    const float q = visited ? q_for(tree.node(e.child), mover, draws) : float(mixed);
    sigma_[size_t(i)] = q;
    lo = std::min(lo, q);
    hi = std::max(hi, q);
  }
  const float scale = (config.gumbel_c_visit + float(max_n)) * config.gumbel_c_scale;
  const float range = std::max(hi - lo, 1e-8f);
  for (int i = 0; i < num_edges_; ++i) sigma_[size_t(i)] = scale * (sigma_[size_t(i)] - lo) / range;
}

int GumbelRoot::argmax_with_visits(uint32_t wanted_visits) const {
  int best = -1;
  float best_score = -INFINITY;
  for (int i = 0; i < num_edges_; ++i) {
    if (visits_[size_t(i)] != wanted_visits) continue;
    const float score = std::max(kLowLogit, gumbel_[size_t(i)] + logit_[size_t(i)] + sigma_[size_t(i)]);
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

int GumbelRoot::select(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config) {
  compute_sigma(tree, root, mover, config);
  const size_t index = std::min(size_t(simulations_done_), schedule_.empty() ? 0 : schedule_.size() - 1);
  const uint32_t wanted = schedule_.empty() ? 0 : schedule_[index];
  int best = argmax_with_visits(wanted);
  if (best < 0) best = argmax_with_visits(*std::min_element(visits_.begin(), visits_.begin() + num_edges_));
  assert(best >= 0);
  ++visits_[size_t(best)];
  ++simulations_done_;
  return best;
}

int GumbelRoot::final_edge(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config) {
  compute_sigma(tree, root, mover, config);
  const int best = argmax_with_visits(*std::max_element(visits_.begin(), visits_.begin() + num_edges_));
  assert(best >= 0);
  return best;
}

int GumbelRoot::improved_policy(const Tree& tree, uint32_t root, game::Player mover, const SearchConfig& config,
                                std::span<PolicyEntry> out) {
  compute_sigma(tree, root, mover, config);
  const std::span<const Edge> edges = tree.edges_of(root);
  float top = -INFINITY;
  for (int i = 0; i < num_edges_; ++i) top = std::max(top, logit_[size_t(i)] + sigma_[size_t(i)]);
  double sum = 0;
  for (int i = 0; i < num_edges_; ++i) {
    const double weight = std::exp(double(logit_[size_t(i)] + sigma_[size_t(i)] - top));
    out[size_t(i)] = {edges[size_t(i)].action, float(weight)};
    sum += weight;
  }
  for (int i = 0; i < num_edges_; ++i) out[size_t(i)].prob = float(double(out[size_t(i)].prob) / sum);
  return num_edges_;
}

}  // namespace sz::search
