// The Eigen forward pass (client/eigen_net.h) and onnxruntime running the exported model.onnx
// (npm onnxruntime-node, scripts/install-onnxruntime.sh) against LibTorch's forward pass
// (models/network.cpp) on positions of random games: priors (the softmax over the legal actions)
// and win/draw/loss within 1e-4, moves-left within 1e-4 relative, for the tiny, small and medium
// presets with and without global pooling and the moves-left head, and the spatial policy head
// (quick, long). The batch-norm statistics and affine terms are randomised, so that folding them
// (Eigen) and ONNX's BatchNormalization are tested too.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "bundle/export_bundle.h"
#include "bundle/onnx_model.h"
#include "client/eigen_net.h"
#include "core/atomic_file.h"
#include "models/network.h"
#include "net/net_rows.h"
#include "nn/random_positions.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace sz::client {
namespace {

constexpr float kTolerance = 1e-4f;
constexpr float kHeadScale = 30.0f;

// The compact encoding of every position (NetRunner's staging layout).
struct Encoded {
  std::vector<uint64_t> planes;
  std::vector<float> scalars;
};

Encoded encode_all(const test::RandomPositions& positions, const game::GameSpec& spec) {
  Encoded e;
  const size_t n = positions.states.size();
  e.planes.resize(n * size_t(spec.binary_planes));
  e.scalars.resize(n * size_t(spec.scalar_features));
  for (size_t i = 0; i < n; ++i) net::encode_row(*positions.states[i], spec, e.planes.data(), e.scalars.data(), int(i));
  return e;
}

// A network with every batch norm given statistics and affine terms away from the identity, and
// output layers scaled up so that priors and values are as peaked as a trained network's (a fresh
// network's are nearly uniform, which would hide differences of the logits).
models::Network random_network(const net::Architecture& arch, uint64_t seed) {
  torch::manual_seed(seed);
  models::Network net(arch);
  torch::NoGradGuard no_grad;
  for (auto& item : net->named_buffers(/*recurse=*/true)) {
    if (item.key().find("running_mean") != std::string::npos) item.value().uniform_(-0.3, 0.3);
    if (item.key().find("running_var") != std::string::npos) item.value().uniform_(0.5, 2.0);
  }
  for (auto& item : net->named_parameters(/*recurse=*/true)) {
    const bool bn = item.key().find("bn") != std::string::npos;
    if (bn && item.key().find(".weight") != std::string::npos) item.value().uniform_(0.6, 1.4);
    if (bn && item.key().find(".bias") != std::string::npos) item.value().uniform_(-0.2, 0.2);
    // A fresh policy head is zero (a uniform prior): drawn here as a layer initialiser would.
    const bool policy = item.key().rfind("policy_fc.", 0) == 0 || item.key().rfind("policy_planes.", 0) == 0;
    if (policy) {
      const torch::Tensor& w = item.value();
      const double fan_in = w.dim() > 1 ? double(w.numel() / w.size(0)) : 64.0;
      w.uniform_(-1 / std::sqrt(fan_in), 1 / std::sqrt(fan_in));  // PyTorch's default bound
    }
    for (const char* head : {"policy_fc.", "policy_planes.", "value_fc2.", "moves_fc2."})
      if (item.key().rfind(head, 0) == 0) item.value().mul_(kHeadScale);
  }
  net->eval();
  return net;
}

// LibTorch's output rows (NetRunner's layout), in batches of 256.
std::vector<float> torch_rows(models::Network& net, const Encoded& e, const game::GameSpec& spec, int n) {
  const int stride = spec.action_space + 4;
  std::vector<float> rows(size_t(n) * size_t(stride));
  torch::InferenceMode guard;
  for (int first = 0; first < n; first += 256) {
    const int count = std::min(256, n - first);
    const torch::Tensor planes =
        torch::from_blob(const_cast<uint64_t*>(e.planes.data()) + size_t(first) * size_t(spec.binary_planes),
                         {count, spec.binary_planes}, torch::kLong);
    const torch::Tensor scalars =
        torch::from_blob(const_cast<float*>(e.scalars.data()) + size_t(first) * size_t(spec.scalar_features),
                         {count, spec.scalar_features}, torch::kFloat32);
    const models::NetOutput out = net->forward(models::expand_input(planes, scalars));
    const torch::Tensor moves =
        out.moves_left.defined() ? out.moves_left.unsqueeze(1) * net::kMovesLeftScale : torch::zeros({count, 1});
    const torch::Tensor all = torch::cat({out.policy, out.wdl, moves}, 1).contiguous();
    std::copy_n(all.data_ptr<float>(), size_t(count) * size_t(stride), rows.data() + size_t(first) * size_t(stride));
  }
  return rows;
}

std::vector<float> eigen_rows(EigenNet& net, const Encoded& e, const game::GameSpec& spec, int n, int batch) {
  std::vector<float> rows(size_t(n) * size_t(net.output_stride()));
  for (int first = 0; first < n; first += batch) {
    const int count = std::min(batch, n - first);
    net.run(e.planes.data() + size_t(first) * size_t(spec.binary_planes),
            e.scalars.data() + size_t(first) * size_t(spec.scalar_features), count,
            rows.data() + size_t(first) * size_t(net.output_stride()));
  }
  return rows;
}

// onnxruntime-node installed once per build tree: its folder, or "" with `why` set.
std::string onnxruntime_dir(std::string& why) {
  const std::string dir = std::string(SZ_TEST_WORK_DIR) + "/onnxruntime-npm";
  const test::CommandRun install = test::run_shell(test::source_dir() + "/scripts/install-onnxruntime.sh " + dir);
  if (install.status != 0) return why = install.output, "";
  return dir;
}

std::string floats_bytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// model.onnx's output rows (NetRunner's layout) by onnxruntime, from its float inputs: each bitboard
// as a plane of 0 and 1.
std::vector<float> onnxruntime_rows(const std::string& ort, const std::string& onnx, const Encoded& e,
                                    const game::GameSpec& spec, int n) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("sz-onnx-parity-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<float> planes(size_t(n) * size_t(spec.binary_planes) * 64);
  for (size_t i = 0; i < size_t(n) * size_t(spec.binary_planes); ++i)
    for (int s = 0; s < 64; ++s) planes[i * 64 + size_t(s)] = float((e.planes[i] >> s) & 1);
  write_file_atomically((dir / "model.onnx").string(), onnx);
  write_file_atomically((dir / "planes.bin").string(), floats_bytes(planes));
  write_file_atomically((dir / "scalars.bin").string(), floats_bytes(e.scalars));
  const test::CommandRun run =
      test::run_shell("node " + test::source_dir() + "/tests/client/onnxruntime_rows.js " + ort + " " +
                      (dir / "model.onnx").string() + " " + (dir / "planes.bin").string() + " " +
                      (dir / "scalars.bin").string() + " " + std::to_string(n) + " " + (dir / "rows.bin").string());
  std::vector<float> rows;
  if (run.status == 0) {
    const std::string bytes = test::read_file((dir / "rows.bin").string());
    rows.resize(bytes.size() / sizeof(float));
    std::memcpy(rows.data(), bytes.data(), rows.size() * sizeof(float));
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(run.status, 0) << run.output;
  return rows;
}

struct Gap {
  float priors = 0, wdl = 0, moves_left = 0;  // the largest differences (moves-left relative)
  double top_prior = 0, top_wdl = 0;          // the mean of the largest prior and WDL entry (LibTorch)
};

Gap compare(const std::vector<float>& a, const std::vector<float>& b, const test::RandomPositions& positions,
            int action_space) {
  Gap gap;
  const size_t stride = size_t(action_space) + 4;
  std::vector<float> pa(game::kMaxActions), pb(game::kMaxActions);
  for (size_t i = 0; i < positions.states.size(); ++i) {
    const float* ra = a.data() + i * stride;
    const float* rb = b.data() + i * stride;
    const auto& legal = positions.actions[i];
    net::legal_softmax(ra, legal, pa);
    net::legal_softmax(rb, legal, pb);
    for (size_t k = 0; k < legal.size(); ++k) gap.priors = std::max(gap.priors, std::abs(pa[k] - pb[k]));
    search::EvalReply ea, eb;
    search::EvalQuery q{positions.states[i].get(), legal};
    ea.priors = pa;
    eb.priors = pb;
    net::decode_row(ra, action_space, q, ea);
    net::decode_row(rb, action_space, q, eb);
    for (int k = 0; k < 3; ++k) gap.wdl = std::max(gap.wdl, std::abs(ea.wdl[k] - eb.wdl[k]));
    gap.top_prior += *std::max_element(pa.begin(), pa.begin() + long(legal.size())) / double(positions.states.size());
    gap.top_wdl += std::max({ea.wdl[0], ea.wdl[1], ea.wdl[2]}) / double(positions.states.size());
    gap.moves_left = std::max(gap.moves_left, std::abs(ea.moves_left - eb.moves_left) / std::max(1.0f, ea.moves_left));
  }
  return gap;
}

struct Case {
  const char* preset;
  int global_pool_every;  // -1: the preset's
  int moves_left;         // -1: the preset's, 0 off, 1 on
  const char* profile;
  int positions;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.preset << " pool " << c.global_pool_every << " moves-left " << c.moves_left << " " << c.profile;
}

class Parity : public ::testing::TestWithParam<Case> {};

// One test for both runtimes: LibTorch's rows, the costly part, are computed once.
TEST_P(Parity, EigenAndOnnxruntimeMatchLibTorchOnRandomGamePositions) {
  const Case& c = GetParam();
  net::Architecture arch{net::load_net_config(c.preset).take_or_throw(), games::spec_for(c.profile).take_or_throw()};
  if (c.global_pool_every >= 0) arch.net.global_pool_every = c.global_pool_every;
  if (c.moves_left >= 0) arch.net.moves_left = c.moves_left == 1;
  const test::RandomPositions positions =
      test::random_positions(c.profile, c.positions, /*seed=*/41, /*max_plies=*/160);
  const Encoded encoded = encode_all(positions, arch.spec);
  models::Network torch_net = random_network(arch, 7);
  EigenNet eigen(arch, bundle::network_tensors(*torch_net), "test");
  const int n = c.positions;
  const std::vector<float> want = torch_rows(torch_net, encoded, arch.spec, n);
  const std::vector<float> got = eigen_rows(eigen, encoded, arch.spec, n, 16);
  const Gap gap = compare(want, got, positions, arch.spec.action_space);
  EXPECT_LT(gap.priors, kTolerance);
  EXPECT_LT(gap.wdl, kTolerance);
  EXPECT_LT(gap.moves_left, kTolerance);
  // The outputs are far from uniform, so the gaps above measure the logits.
  EXPECT_GT(gap.top_prior, 0.3);
  EXPECT_GT(gap.top_wdl, 0.5);
  // One position at a time gives the same as batches of 16 (to rounding).
  const int single = std::min(n, 40);
  const std::vector<float> one = eigen_rows(eigen, encoded, arch.spec, single, 1);
  for (size_t i = 0; i < one.size(); ++i) ASSERT_NEAR(one[i], got[i], 1e-4f * std::max(1.0f, std::abs(got[i]))) << i;
  std::printf(
      "%s (pool %d, moves-left %d, %s): %d positions, largest gaps: priors %.2g, wdl %.2g, moves-left %.2g; mean top "
      "prior %.2f, top wdl %.2f\n",
      c.preset, arch.net.global_pool_every, int(arch.net.moves_left), c.profile, n, double(gap.priors), double(gap.wdl),
      double(gap.moves_left), gap.top_prior, gap.top_wdl);

  // model.onnx as `export` writes it, checked by ONNX, run by onnxruntime.
  std::string why;
  const std::string ort = onnxruntime_dir(why);
  if (ort.empty()) GTEST_SKIP() << "Eigen checked; onnxruntime-node could not be installed: " << why;
  const std::string onnx = bundle::onnx_model_bytes(arch, bundle::network_tensors(*torch_net), "parity test");
  const std::vector<float> ort_rows = onnxruntime_rows(ort, onnx, encoded, arch.spec, n);
  ASSERT_EQ(ort_rows.size(), want.size());
  const Gap ort_gap = compare(want, ort_rows, positions, arch.spec.action_space);
  EXPECT_LT(ort_gap.priors, kTolerance);
  EXPECT_LT(ort_gap.wdl, kTolerance);
  EXPECT_LT(ort_gap.moves_left, kTolerance);
  std::printf("onnxruntime: largest gaps: priors %.2g, wdl %.2g, moves-left %.2g\n", double(ort_gap.priors),
              double(ort_gap.wdl), double(ort_gap.moves_left));
}

INSTANTIATE_TEST_SUITE_P(Presets, Parity,
                         ::testing::Values(Case{"tiny", -1, -1, "sittuyin", 1000},    // pooling, moves-left
                                           Case{"tiny", 0, 0, "sittuyin", 1000},      // neither
                                           Case{"small", -1, -1, "sittuyin", 1000},   // neither
                                           Case{"small", 3, 1, "sittuyin", 1000},     // both
                                           Case{"medium", -1, -1, "sittuyin", 1000},  // both
                                           Case{"medium", 0, 0, "sittuyin", 1000},    // neither
                                           Case{"quick", -1, -1, "sittuyin", 1000},   // spatial policy
                                           Case{"long", -1, -1, "sittuyin", 1000},    // spatial policy
                                           Case{"tiny", -1, -1, "shatranj", 1000},
                                           Case{"quick", -1, -1, "shatranj", 1000}));

}  // namespace
}  // namespace sz::client
