#include "train/batch.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "core/rng.h"

namespace sz::train {

namespace {

// The widths and the longest policy of the sampled rows.
struct Shape {
  int planes = 0, scalars = 0, policy = 1;
};

Shape shape_of(const Window& window, const std::vector<int64_t>& rows) {
  Shape s;
  for (const int64_t i : rows) {
    const Window::Row r = window.row(i);
    s.planes = r.columns->binary_planes;
    s.scalars = r.columns->scalar_features;
    s.policy = std::max(s.policy, int(r.columns->policy_count[size_t(r.index)]));
  }
  return s;
}

int wdl_column(int8_t result) { return result > 0 ? 0 : result == 0 ? 1 : 2; }  // win, draw, loss

// A bitboard with the bits of each byte (a rank, file = bit) reversed: the board mirrored a <-> h.
uint64_t mirror_files(uint64_t b) {
  b = ((b >> 1) & 0x5555555555555555ull) | ((b & 0x5555555555555555ull) << 1);
  b = ((b >> 2) & 0x3333333333333333ull) | ((b & 0x3333333333333333ull) << 2);
  return ((b >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((b & 0x0F0F0F0F0F0F0F0Full) << 4);
}

}  // namespace

HostBatch make_host_batch(const Window& window, const BatchSpec& spec, int64_t step, bool pinned) {
  std::vector<int64_t> rows;
  sample_rows(spec.seed, step, spec.batch_size, window.pool_rows(), window.size(), spec.sampling, rows);
  HostBatch b = host_batch_of_rows(window, rows, spec, pinned);
  b.step = step;
  if (!spec.mirror_actions.empty()) {
    uint64_t state = batch_seed(spec.seed, step);
    Rng rng(splitmix64(state));  // not sample_rows' stream
    for (int64_t j = 0; j < int64_t(rows.size()); ++j)
      if (rng() >> 63) mirror_row(b, j, spec.mirror_actions);
  }
  return b;
}

void mirror_row(HostBatch& batch, int64_t j, std::span<const int32_t> mirror_actions) {
  const int64_t planes = batch.planes.size(1), entries = batch.policy_index.size(1);
  int64_t* plane = batch.planes.data_ptr<int64_t>() + j * planes;
  for (int64_t p = 0; p < planes; ++p) plane[p] = int64_t(mirror_files(uint64_t(plane[p])));
  int64_t* action = batch.policy_index.data_ptr<int64_t>() + j * entries;
  for (int64_t e = 0; e < entries; ++e) action[e] = mirror_actions[size_t(action[e])];  // padding: probability 0
}

HostBatch host_batch_of_rows(const Window& window, const std::vector<int64_t>& rows, const BatchSpec& spec,
                             bool pinned) {
  const Shape s = shape_of(window, rows);
  const int64_t n = int64_t(rows.size());
  const float w = float(spec.value_target_search);
  const auto f32 = torch::TensorOptions().dtype(torch::kFloat).pinned_memory(pinned);
  const auto i64 = torch::TensorOptions().dtype(torch::kLong).pinned_memory(pinned);
  HostBatch b;
  b.planes = torch::empty({n, s.planes}, i64);
  b.scalars = torch::empty({n, s.scalars}, f32);
  b.policy_index = torch::zeros({n, s.policy}, i64);
  b.policy_prob = torch::zeros({n, s.policy}, f32);
  b.policy_mask = torch::empty({n}, f32);
  b.policy_legal = torch::zeros({n, s.policy}, f32);
  b.lists_legal = torch::zeros({n}, torch::TensorOptions().dtype(torch::kBool).pinned_memory(pinned));
  b.wdl = torch::zeros({n, 3}, f32);
  b.moves_left = torch::empty({n}, f32);
  int64_t* planes = b.planes.data_ptr<int64_t>();
  float* scalars = b.scalars.data_ptr<float>();
  int64_t* index = b.policy_index.data_ptr<int64_t>();
  float* prob = b.policy_prob.data_ptr<float>();
  float* wdl = b.wdl.data_ptr<float>();
  float* mask = b.policy_mask.data_ptr<float>();
  float* moves_left = b.moves_left.data_ptr<float>();
  float* legal = b.policy_legal.data_ptr<float>();
  bool* lists_legal = b.lists_legal.data_ptr<bool>();
  for (int64_t j = 0; j < n; ++j) {
    const Window::Row r = window.row(rows[size_t(j)]);
    const data::PositionColumns& c = *r.columns;
    const size_t i = size_t(r.index);
    std::memcpy(planes + j * s.planes, c.planes.data() + i * size_t(s.planes), size_t(s.planes) * sizeof(uint64_t));
    std::memcpy(scalars + j * s.scalars, c.scalars.data() + i * size_t(s.scalars), size_t(s.scalars) * sizeof(float));
    const int32_t count = c.policy_count[i];
    const int64_t start = c.policy_start[i];
    for (int32_t e = 0; e < count; ++e) {
      index[j * s.policy + e] = c.policy_action[size_t(start + e)];
      prob[j * s.policy + e] = c.policy_prob[size_t(start + e)];
    }
    mask[j] = c.policy_target[i] && count > 0 ? 1.0f : 0.0f;
    lists_legal[j] = c.policy_lists_legal(int64_t(i));
    if (lists_legal[j])
      for (int32_t e = 0; e < count; ++e) legal[j * s.policy + e] = 1.0f;
    const float ws = c.has_search_value[i] ? w : 0.0f;
    for (int k = 0; k < 3; ++k) wdl[j * 3 + k] = ws * c.search_wdl[3 * i + size_t(k)];
    wdl[j * 3 + wdl_column(c.result[i])] += 1.0f - ws;
    moves_left[j] = float(c.plies_to_end[i]);
  }
  return b;
}

models::LossBatch to_loss_batch(const HostBatch& host, const torch::Device& device, int action_space,
                                bool with_moves_left) {
  const bool async = device.is_cuda();  // from pinned memory: ordered before the forward pass
  const auto to = [&](const torch::Tensor& t) { return t.to(device, /*non_blocking=*/async); };
  const int64_t n = host.planes.size(0);
  models::LossBatch b;
  b.input = models::expand_input(to(host.planes), to(host.scalars));
  b.policy = torch::zeros({n, action_space}, torch::TensorOptions().dtype(torch::kFloat).device(device))
                 .scatter_add_(1, to(host.policy_index), to(host.policy_prob));
  b.policy_mask = to(host.policy_mask);
  if (host.lists_legal.any().item<bool>()) {
    const auto dense = torch::TensorOptions().dtype(torch::kFloat).device(device);
    const torch::Tensor listed =
        torch::zeros({n, action_space}, dense).scatter_add_(1, to(host.policy_index), to(host.policy_legal)) > 0;
    b.legal = listed.logical_or(to(host.lists_legal).logical_not().unsqueeze(1));
  }
  b.wdl = to(host.wdl);
  if (with_moves_left) b.moves_left = to(host.moves_left);
  return b;
}

}  // namespace sz::train
