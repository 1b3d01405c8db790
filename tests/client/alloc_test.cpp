// What the Eigen forward pass allocates once warm (a game's search calls it at every leaf): after
// one run at the largest batch, runs at that batch and below allocate nothing of their own; only
// Eigen's large matrix products take their blocking buffers from the heap, at most two per
// product. Counts malloc (which Eigen uses) and calloc/realloc, replaced in this test binary only.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "client/eigen_evaluator.h"
#include "games/chaturanga/state.h"

// AddressSanitizer replaces malloc itself (scripts/sanitize.sh): there the counting is left out.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define __SANITIZE_ADDRESS__ 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SZ_COUNTS_MALLOC 0
namespace {
std::atomic<long> g_allocations{0};
}  // namespace
#else
#define SZ_COUNTS_MALLOC 1
extern "C" void* __libc_malloc(size_t);
extern "C" void* __libc_calloc(size_t, size_t);
extern "C" void* __libc_realloc(void*, size_t);
extern "C" void __libc_free(void*);

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

extern "C" void* malloc(size_t size) {
  ++g_allocations;
  return __libc_malloc(size);
}
extern "C" void* calloc(size_t n, size_t size) {
  ++g_allocations;
  return __libc_calloc(n, size);
}
extern "C" void* realloc(void* p, size_t size) {
  ++g_allocations;
  return __libc_realloc(p, size);
}
extern "C" void free(void* p) { __libc_free(p); }
#endif

namespace sz::client {
namespace {

// Random weights of the right shapes for `arch` (the values do not matter here).
std::vector<Tensor> shapes_of(const net::Architecture& arch) {
  std::vector<Tensor> t;
  const auto add = [&](std::string name, std::vector<int64_t> shape) {
    size_t n = 1;
    for (const int64_t d : shape) n *= size_t(d);
    t.push_back({std::move(name), std::move(shape), std::vector<float>(n, 0.01f)});
  };
  const auto bn = [&](const std::string& name, int c) {
    for (const char* p : {".weight", ".bias", ".running_mean", ".running_var"}) add(name + p, {c});
  };
  const net::NetConfig& n = arch.net;
  const int in = net::input_channels(arch.spec), sq = net::kBoardSquares;
  add("stem.weight", {n.channels, in, 3, 3});
  bn("stem_bn", n.channels);
  for (int b = 0; b < n.blocks; ++b) {
    const std::string p = "tower." + std::to_string(b) + ".";
    add(p + "conv1.weight", {n.channels, n.channels, 3, 3});
    bn(p + "bn1", n.channels);
    add(p + "conv2.weight", {n.channels, n.channels, 3, 3});
    bn(p + "bn2", n.channels);
    if (net::is_global_pool_block(n, b)) {
      add(p + "pool_conv.weight", {n.global_pool_channels, n.channels, 3, 3});
      bn(p + "pool_bn", n.global_pool_channels);
      add(p + "pool_bias.weight", {n.channels, 2 * n.global_pool_channels});
      add(p + "pool_bias.bias", {n.channels});
    }
  }
  const int k = n.spatial_policy ? 3 : 1;
  add("policy_conv.weight", {n.policy_channels, n.channels, k, k});
  bn("policy_bn", n.policy_channels);
  if (n.spatial_policy) {
    add("policy_planes.weight", {arch.spec.policy_planes, n.policy_channels, 1, 1});
    add("policy_planes.bias", {arch.spec.policy_planes});
  } else {
    add("policy_fc.weight", {arch.spec.action_space, n.policy_channels * sq});
    add("policy_fc.bias", {arch.spec.action_space});
  }
  add("value_conv.weight", {n.value_channels, n.channels, 1, 1});
  bn("value_bn", n.value_channels);
  add("value_fc1.weight", {n.value_hidden, n.value_channels * sq});
  add("value_fc1.bias", {n.value_hidden});
  add("value_fc2.weight", {3, n.value_hidden});
  add("value_fc2.bias", {3});
  if (n.moves_left) {
    add("moves_conv.weight", {n.moves_left_channels, n.channels, 1, 1});
    bn("moves_bn", n.moves_left_channels);
    add("moves_fc1.weight", {n.value_hidden, n.moves_left_channels * sq});
    add("moves_fc1.bias", {n.value_hidden});
    add("moves_fc2.weight", {1, n.value_hidden});
    add("moves_fc2.bias", {1});
  }
  return t;
}

net::NetConfig medium_like(bool spatial) {
  net::NetConfig n;  // medium's tower (10 x 128, pooling every 3rd block, moves-left)
  n.blocks = 10;
  n.channels = 128;
  n.global_pool_every = 3;
  n.global_pool_channels = 32;
  n.moves_left = true;
  n.spatial_policy = spatial;
  return n;
}

// The matrix products of one forward pass: the stem, two convolutions per block, a convolution
// and a linear layer per pooling block, the policy convolution and its layer, the value
// convolution and two layers, the moves-left convolution and first layer.
int products(const net::NetConfig& n) {
  int pooling = 0;
  for (int b = 0; b < n.blocks; ++b) pooling += net::is_global_pool_block(n, b);
  return 1 + 2 * n.blocks + 2 * pooling + 2 + 3 + (n.moves_left ? 2 : 0);
}

TEST(EigenNet, AllocatesOnlyEigensProductBuffersOnceWarm) {
  if (!SZ_COUNTS_MALLOC) GTEST_SKIP() << "malloc is AddressSanitizer's in this build";
  const game::GameSpec spec = chaturanga::game_spec(chaturanga::Game::Sittuyin);
  for (const bool spatial : {false, true}) {
    const net::Architecture arch{medium_like(spatial), spec};
    EigenNet net(arch, shapes_of(arch), "test");
    std::vector<uint64_t> planes(16 * size_t(spec.binary_planes), 0x0102040810204080ull);
    std::vector<float> scalars(16 * size_t(spec.scalar_features), 0.5f);
    std::vector<float> out(16 * size_t(net.output_stride()));
    net.run(planes.data(), scalars.data(), 16, out.data());  // warm: the buffers grow here
    const long before = g_allocations.load();
    for (const int n : {16, 1, 7, 16}) net.run(planes.data(), scalars.data(), n, out.data());
    const long per_run = (g_allocations.load() - before) / 4;
    EXPECT_LE(per_run, 2 * products(arch.net)) << (spatial ? "spatial" : "linear") << " policy head";
    std::printf("%s policy head: %ld allocations a forward pass, %d matrix products\n", spatial ? "spatial" : "linear",
                per_run, products(arch.net));
  }
}

// A tower small enough that every product's buffers fit Eigen's stack limit allocates nothing at
// all: the forward pass's own code makes no allocation.
TEST(EigenNet, ASmallTowerAllocatesNothingOnceWarm) {
  if (!SZ_COUNTS_MALLOC) GTEST_SKIP() << "malloc is AddressSanitizer's in this build";
  const game::GameSpec spec = chaturanga::game_spec(chaturanga::Game::Sittuyin);
  net::NetConfig n;  // tiny's tower with both policy heads' shapes below
  n.blocks = 2;
  n.channels = 16;
  n.global_pool_every = 2;
  n.global_pool_channels = 8;
  n.policy_channels = 8;
  n.value_channels = 8;
  n.value_hidden = 32;
  n.moves_left = true;
  n.moves_left_channels = 4;
  for (const bool spatial : {false, true}) {
    n.spatial_policy = spatial;
    const net::Architecture arch{n, spec};
    EigenNet net(arch, shapes_of(arch), "test");
    std::vector<uint64_t> planes(16 * size_t(spec.binary_planes), 0x0102040810204080ull);
    std::vector<float> scalars(16 * size_t(spec.scalar_features), 0.5f);
    std::vector<float> out(16 * size_t(net.output_stride()));
    net.run(planes.data(), scalars.data(), 1, out.data());
    const long before = g_allocations.load();
    for (int k = 0; k < 4; ++k) net.run(planes.data(), scalars.data(), 1, out.data());
    EXPECT_EQ(g_allocations.load() - before, 0) << (spatial ? "spatial" : "linear") << " policy head";
  }
}

}  // namespace
}  // namespace sz::client
