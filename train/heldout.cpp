#include "train/heldout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/json_writer.h"
#include "models/training.h"

namespace sz::train {

namespace {

// "m3", "0", "p3": a material edge in a JSON key.
std::string edge_key(int edge) {
  return edge < 0 ? "m" + std::to_string(-edge) : edge > 0 ? "p" + std::to_string(edge) : "0";
}

// Adds each row's predicted W - L and result to the bin of its material edge (rows without a
// recorded material are left out).
void add_to_bins(const Window& window, const std::vector<int64_t>& rows, size_t first, const torch::Tensor& wdl,
                 HeldoutReport& r) {
  const torch::Tensor p = torch::softmax(wdl.to(torch::kFloat).cpu(), 1);
  const auto a = p.accessor<float, 2>();
  for (int64_t j = 0; j < p.size(0); ++j) {
    const Window::Row row = window.row(rows[first + size_t(j)]);
    const float material = row.columns->material[size_t(row.index)];
    if (!std::isfinite(material)) continue;
    const int edge = std::clamp(int(std::lround(material)), -kMaxEdge, kMaxEdge);
    HeldoutReport::Bin& bin = r.by_edge[size_t(edge + kMaxEdge)];
    ++bin.n;
    bin.predicted += a[j][0] - a[j][2];
    bin.actual += row.columns->result[size_t(row.index)];
  }
}

}  // namespace

std::vector<int64_t> fresh_rows(const Window& window, const std::string& trained_newest, int64_t limit) {
  if (trained_newest.empty() || limit <= 0) return {};
  const int64_t begin = window.end_of_shard(trained_newest);
  if (begin < 0) return {};
  std::vector<int64_t> rows;
  for (int64_t i = std::max(begin, window.size() - limit); i < window.size(); ++i) rows.push_back(i);
  return rows;
}

HeldoutReport score_heldout(models::Network& net, const Window& window, const std::vector<int64_t>& rows,
                            const BatchSpec& spec, const torch::Device& device, int action_space, int64_t step) {
  HeldoutReport r;
  r.step = step;
  if (rows.empty()) return r;
  torch::NoGradGuard no_grad;
  net->eval();
  double policy_sum = 0, wdl_sum = 0, result_sum = 0;
  BatchSpec result_only = spec;
  result_only.value_target_search = 0;
  for (size_t first = 0; first < rows.size(); first += size_t(spec.batch_size)) {
    const std::vector<int64_t> part(rows.begin() + ptrdiff_t(first),
                                    rows.begin() + ptrdiff_t(std::min(rows.size(), first + size_t(spec.batch_size))));
    const models::LossBatch batch = to_loss_batch(host_batch_of_rows(window, part, spec, false), device, action_space,
                                                  /*with_moves_left=*/false);
    const models::NetOutput out = net->forward(batch.input);
    const models::Losses losses = models::compute_losses(out, batch);
    const double n = double(part.size()), targets = batch.policy_mask.sum().item<double>();
    policy_sum += losses.policy.item<double>() * targets;
    r.policy_positions += int64_t(targets);
    wdl_sum += losses.wdl.item<double>() * n;
    const torch::Tensor result =
        to_loss_batch(host_batch_of_rows(window, part, result_only, false), device, action_space, false).wdl;
    result_sum += -(result * torch::log_softmax(out.wdl.to(torch::kFloat), 1)).sum(1).mean().item<double>() * n;
    add_to_bins(window, rows, first, out.wdl, r);
    r.positions += int64_t(part.size());
  }
  net->train();
  r.policy = r.policy_positions ? policy_sum / double(r.policy_positions) : std::nan("");
  r.wdl = wdl_sum / double(r.positions);
  r.wdl_result = result_sum / double(r.positions);
  for (HeldoutReport::Bin& bin : r.by_edge)
    if (bin.n) bin.predicted /= double(bin.n), bin.actual /= double(bin.n);
  return r;
}

std::string heldout_json(const HeldoutReport& r, double unix_time) {
  constexpr const char* kDigits = "%.5g";
  JsonWriter line;
  line.object(JsonWriter::Layout::Compact)
      .add("step", r.step)
      .add("time", unix_time, "%.3f")
      .add("positions", r.positions)
      .add("policy_positions", r.policy_positions)
      .add("policy", r.policy, kDigits)
      .add("wdl", r.wdl, kDigits)
      .add("wdl_result", r.wdl_result, kDigits);
  for (int edge = -kMaxEdge; edge <= kMaxEdge; ++edge) {
    const HeldoutReport::Bin& bin = r.by_edge[size_t(edge + kMaxEdge)];
    if (!bin.n) continue;
    const std::string k = edge_key(edge);
    line.add("n_" + k, bin.n).add("predicted_" + k, bin.predicted, kDigits).add("actual_" + k, bin.actual, kDigits);
  }
  return line.close().str();
}

std::string heldout_line(const HeldoutReport& r) {
  char head[256];
  std::snprintf(head, sizeof head,
                "held out: %lld positions of newer games at step %lld: policy %.3f, wdl %.3f (against the result "
                "alone %.3f); W - L by material edge, predicted/actual (positions):",
                static_cast<long long>(r.positions), static_cast<long long>(r.step), r.policy, r.wdl, r.wdl_result);
  std::string line = head;
  for (int edge : {-6, -3, -1, 0, 1, 3, 6}) {
    const HeldoutReport::Bin& bin = r.by_edge[size_t(edge + kMaxEdge)];
    if (!bin.n) continue;
    char part[96];
    std::snprintf(part, sizeof part, " %+d %+.2f/%+.2f (%lld)", edge, bin.predicted, bin.actual,
                  static_cast<long long>(bin.n));
    line += part;
  }
  return line;
}

}  // namespace sz::train
