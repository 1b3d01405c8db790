// The network: input expansion, output shapes, checkpoints (identical outputs after a round trip,
// clear errors on a mismatched architecture or encoding), and the losses and optimiser the
// trainer uses, which must overfit a fixed batch in seconds.
#include "models/network.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "../nn/random_positions.h"
#include "checkpoint_damage.h"
#include "models/checkpoint.h"
#include "models/training.h"

namespace sz::models {
namespace {

net::Architecture arch_of(const std::string& preset, const std::string& profile = "sittuyin") {
  return {std::move(net::load_net_config(preset)).take_or_throw(), std::move(games::spec_for(profile)).take_or_throw()};
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::path(testing::TempDir()) / (std::to_string(::getpid()) + "-" + name)).string();
}

// The expanded inputs of `positions`.
torch::Tensor encode(const test::RandomPositions& positions, const game::GameSpec& spec) {
  const int64_t n = int64_t(positions.states.size());
  torch::Tensor planes = torch::zeros({n, spec.binary_planes}, torch::kLong);
  torch::Tensor scalars = torch::zeros({n, spec.scalar_features}, torch::kFloat);
  for (int64_t i = 0; i < n; ++i)
    positions.states[size_t(i)]->encode(
        {{reinterpret_cast<uint64_t*>(planes[i].data_ptr<int64_t>()), size_t(spec.binary_planes)},
         {scalars[i].data_ptr<float>(), size_t(spec.scalar_features)}});
  return expand_input(planes, scalars);
}

// A batch with one-hot targets (a random legal move, a random result), which a network can fit
// exactly: the loss can fall towards zero.
LossBatch fixed_batch(const net::Architecture& arch, int n, uint64_t seed) {
  const auto positions = test::random_positions("sittuyin", n, seed);
  Rng rng(seed ^ 0x5eed);
  LossBatch b;
  b.input = encode(positions, arch.spec);
  b.policy = torch::zeros({n, arch.spec.action_space});
  b.wdl = torch::zeros({n, 3});
  b.policy_mask = torch::ones({n});
  b.moves_left = torch::zeros({n});
  for (int i = 0; i < n; ++i) {
    const auto& legal = positions.actions[size_t(i)];
    b.policy[i][legal[rng.below(uint32_t(legal.size()))]] = 1.0f;
    b.wdl[i][rng.below(3)] = 1.0f;
    b.moves_left[i] = float(rng.below(200));
  }
  return b;
}

double train_steps(Network& net, torch::optim::Optimizer& opt, const LossBatch& b, int steps) {
  net->train();
  double last = 0;
  for (int s = 0; s < steps; ++s) {
    opt.zero_grad();
    Losses l = compute_losses(net->forward(b.input), b);
    l.total.backward();
    opt.step();
    last = l.total.item<double>();
  }
  return last;
}

TEST(ExpandInput, EachBitOnItsSquareAndScalarsAsConstantPlanes) {
  torch::Tensor planes = torch::zeros({1, 2}, torch::kLong);
  // a1 (bit 0), h1 (7), a8 (56) and h8 (63, the sign bit of int64) in plane 0; e4 (28) in plane 1.
  const uint64_t corners = 1ull | 1ull << 7 | 1ull << 56 | 1ull << 63;
  planes[0][0] = int64_t(corners);
  planes[0][1] = int64_t(1ull << 28);
  const torch::Tensor scalars = torch::tensor({{0.5f, 1.0f, 0.0f}});
  const torch::Tensor x = expand_input(planes, scalars);
  ASSERT_EQ(x.sizes(), (std::vector<int64_t>{1, 5, 8, 8}));
  EXPECT_EQ(x[0][0][0][0].item<float>(), 1.0f);  // [rank][file]
  EXPECT_EQ(x[0][0][0][7].item<float>(), 1.0f);
  EXPECT_EQ(x[0][0][7][0].item<float>(), 1.0f);
  EXPECT_EQ(x[0][0][7][7].item<float>(), 1.0f);
  EXPECT_EQ(x[0][0].sum().item<float>(), 4.0f);
  EXPECT_EQ(x[0][1][3][4].item<float>(), 1.0f);
  EXPECT_EQ(x[0][1].sum().item<float>(), 1.0f);
  EXPECT_TRUE(torch::equal(x[0][2], torch::full({8, 8}, 0.5f)));
  EXPECT_TRUE(torch::equal(x[0][3], torch::ones({8, 8})));
  EXPECT_TRUE(torch::equal(x[0][4], torch::zeros({8, 8})));
}

TEST(Network, OutputShapesForEveryPresetAndGame) {
  torch::NoGradGuard no_grad;
  for (const char* preset : {"tiny", "small", "medium", "large"})
    for (const char* profile : {"sittuyin", "shatranj"}) {
      const net::Architecture arch = arch_of(preset, profile);
      Network net(arch);
      net->eval();
      const auto positions = test::random_positions(profile, 3, 7);
      const NetOutput out = net->forward(encode(positions, arch.spec));
      EXPECT_EQ(out.policy.sizes(), (std::vector<int64_t>{3, arch.spec.action_space})) << preset;
      EXPECT_EQ(out.wdl.sizes(), (std::vector<int64_t>{3, 3})) << preset;
      EXPECT_EQ(out.moves_left.defined(), arch.net.moves_left) << preset;
      if (out.moves_left.defined()) {
        EXPECT_GE(out.moves_left.min().item<float>(), 0.0f);
      }
    }
}

// The spatial policy head: each action's logit is its cell of the move planes, and the head has
// no linear layer onto the action space.
TEST(Network, SpatialPolicyGathersTheMovePlanes) {
  torch::NoGradGuard no_grad;
  for (const char* profile : {"sittuyin", "shatranj"}) {
    net::Architecture arch = arch_of("tiny", profile);
    arch.net.spatial_policy = true;
    Network net(arch);
    net->eval();
    for (const auto& item : net->named_parameters())
      EXPECT_EQ(item.key().find("policy_fc"), std::string::npos) << item.key();
    const auto positions = test::random_positions(profile, 4, 9);
    const NetOutput out = net->forward(encode(positions, arch.spec));
    ASSERT_EQ(out.policy.sizes(), (std::vector<int64_t>{4, arch.spec.action_space}));
    EXPECT_TRUE(torch::isfinite(out.policy).all().item<bool>());
  }
  net::Architecture lacking = arch_of("tiny");
  lacking.net.spatial_policy = true;
  lacking.spec.policy_map = {};
  EXPECT_THROW(Network{lacking}, Error);
}

TEST(Network, GlobalPoolingBlocksWhereConfigured) {
  net::Architecture arch = arch_of("small");
  arch.net.global_pool_every = 3;
  Network net(arch);
  int pooled = 0;
  for (const auto& item : net->named_parameters())
    if (item.key().find("pool_bias.weight") != std::string::npos) ++pooled;
  EXPECT_EQ(pooled, 2);  // blocks 3 and 6 of 6
}

TEST(Checkpoint, SaveLoadGivesIdenticalOutputsAndOptimiserState) {
  const net::Architecture arch = arch_of("tiny");
  const LossBatch batch = fixed_batch(arch, 16, 1);
  torch::manual_seed(1);
  Network net(arch);
  auto opt = make_optimizer(net, {});
  train_steps(net, *opt, batch, 3);  // non-default batch-norm statistics and momentum
  CheckpointMeta meta;
  meta.profiles = {"sittuyin", "sittuyin-plyyard"};
  meta.step = 3;
  const std::string path = temp_path("roundtrip.ckpt");
  save_checkpoint(path, net, opt.get(), "sgd", meta);

  Network copy(arch);
  auto copy_opt = make_optimizer(copy, {});
  const CheckpointMeta got = load_checkpoint(path, copy, copy_opt.get(), "sgd");
  EXPECT_EQ(got.step, 3);
  EXPECT_EQ(got.profiles, meta.profiles);
  EXPECT_EQ(got.optimizer, "sgd");
  EXPECT_TRUE(net::architecture_differences(arch, got.arch).empty());
  net->eval();
  copy->eval();
  {
    torch::NoGradGuard no_grad;
    const NetOutput a = net->forward(batch.input), b = copy->forward(batch.input);
    EXPECT_TRUE(torch::equal(a.policy, b.policy));
    EXPECT_TRUE(torch::equal(a.wdl, b.wdl));
    EXPECT_TRUE(torch::equal(a.moves_left, b.moves_left));
  }
  // The optimiser state came back too: one more step keeps the two in lockstep.
  train_steps(net, *opt, batch, 1);
  train_steps(copy, *copy_opt, batch, 1);
  const auto pa = net->parameters(), pb = copy->parameters();
  for (size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(torch::allclose(pa[i], pb[i], 1e-6, 1e-7)) << i;

  const LoadedNetwork loaded = load_network(path, arch_of("tiny").spec);
  EXPECT_EQ(loaded.meta.arch.net.name, "tiny");
  EXPECT_EQ(read_checkpoint_meta(path).step, 3);
  std::filesystem::remove(path);
}

// A spatial-policy network loads by itself (the map comes from the game) with identical outputs.
TEST(Checkpoint, SpatialPolicyRoundTrips) {
  net::Architecture arch = arch_of("tiny");
  arch.net.spatial_policy = true;
  torch::manual_seed(4);
  Network net(arch);
  net->eval();
  const std::string path = temp_path("spatial.ckpt");
  save_checkpoint(path, net, nullptr, "", {});
  EXPECT_TRUE(read_checkpoint_meta(path).arch.net.spatial_policy);
  LoadedNetwork loaded = load_network(path, arch_of("tiny").spec);
  const LossBatch batch = fixed_batch(arch, 8, 2);
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(net->forward(batch.input).policy, loaded.net->forward(batch.input).policy));
  Network linear(arch_of("tiny"));
  EXPECT_THROW(load_checkpoint(path, linear), Error);  // spatial_policy: checkpoint true, expected false
  std::filesystem::remove(path);
}

TEST(Checkpoint, MismatchedArchitectureIsAClearError) {
  const std::string path = temp_path("tiny.ckpt");
  save_checkpoint(path, Network(arch_of("tiny")), nullptr, "", {});
  net::Architecture other = arch_of("tiny");
  other.net.blocks = 3;
  other.net.channels = 24;
  Network net(other);
  try {
    load_checkpoint(path, net);
    FAIL() << "loaded into another architecture";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("blocks: checkpoint 2, expected 3"), std::string::npos) << what;
    EXPECT_NE(what.find("channels: checkpoint 16, expected 24"), std::string::npos) << what;
  }
  Network same(arch_of("tiny"));
  auto opt = make_optimizer(same, {});
  EXPECT_THROW(load_checkpoint(path, same, opt.get(), "sgd"), Error);  // no optimiser state stored
  std::filesystem::remove(path);
}

TEST(Checkpoint, MismatchedEncodingIsAClearError) {
  net::Architecture old = arch_of("tiny");
  old.spec.encoder_version -= 1;  // as if written before the encoder changed
  const std::string path = temp_path("old-encoder.ckpt");
  save_checkpoint(path, Network(old), nullptr, "", {});
  Network net(arch_of("tiny"));
  try {
    load_checkpoint(path, net);
    FAIL() << "loaded a checkpoint of another encoder version";
  } catch (const Error& e) {
    const std::string want = "encoder_version: checkpoint " + std::to_string(old.spec.encoder_version) + ", expected " +
                             std::to_string(old.spec.encoder_version + 1);
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_encoding(arch_of("tiny").spec, read_checkpoint_meta(path), path), Error);
  Network shatranj(arch_of("tiny", "shatranj"));
  EXPECT_THROW(load_checkpoint(path, shatranj), Error);
  std::filesystem::remove(path);
}

TEST(Checkpoint, GarbageIsAClearError) {
  const std::string path = temp_path("garbage.ckpt");
  std::ofstream(path) << "not a checkpoint";
  try {
    read_checkpoint_meta(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a readable checkpoint"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_checkpoint_meta(path + ".missing"), Error);
  std::filesystem::remove(path);
  CheckpointMeta future;
  future.format_version = kCheckpointFormatVersion + 1;
  EXPECT_FALSE(meta_from_text(meta_to_text(future), "x").ok());
  EXPECT_FALSE(meta_from_text("blocks 3\n", "x").ok());
}

// A checkpoint damaged inside its tensor data still opens as a zip (LibTorch does not check the
// entries' CRCs): without a checksum it loaded, and training then diverged with "loss nan ...
// lower train.learning_rate", blaming the wrong cause. Now every reader names the bad file.
TEST(Checkpoint, DamagedCheckpointIsRefusedNamingTheFile) {
  const net::Architecture arch = arch_of("tiny");
  torch::manual_seed(2);
  Network net(arch);
  auto opt = make_optimizer(net, {});
  train_steps(net, *opt, fixed_batch(arch, 8, 2), 2);  // optimiser state worth checking
  const std::string path = temp_path("damaged.ckpt");
  save_checkpoint(path, net, opt.get(), "sgd", {});
  EXPECT_EQ(read_checkpoint_meta(path).checksum.rfind("fnv1a64:", 0), 0u);
  test::damage_weights(path);
  for (int reader = 0; reader < 3; ++reader) {
    try {
      Network copy(arch);
      auto copy_opt = make_optimizer(copy, {});
      if (reader == 0) read_checkpoint_meta(path);
      if (reader == 1) load_checkpoint(path, copy, copy_opt.get(), "sgd");
      if (reader == 2) load_network(path, arch_of("tiny").spec);
      ADD_FAILURE() << "reader " << reader << " loaded a damaged checkpoint";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ": damaged: its tensors do not match the checksum", 0), 0u)
          << e.what();
    }
  }
  std::filesystem::remove(path);
}

// The trainer's averaged weights ride beside the trained ones: a player (load_network) gets the
// average, the trainer (load_checkpoint) both, and a checkpoint without them says so.
TEST(Checkpoint, APlayerLoadsTheAveragedWeightsAndTheTrainerBoth) {
  const net::Architecture arch = arch_of("tiny");
  torch::manual_seed(4);
  Network trained(arch), averaged(arch);
  const auto first = [](const Network& n) { return n->parameters().front().flatten()[0].item<float>(); };
  ASSERT_NE(first(trained), first(averaged));
  const std::string path = temp_path("averaged.ckpt");
  save_checkpoint(path, trained, nullptr, "", {}, &averaged);
  EXPECT_EQ(first(load_network(path, arch.spec).net), first(averaged));
  Network net(arch), average(arch);
  AveragedWeights slot{&average};
  load_checkpoint(path, net, nullptr, {}, &slot);
  EXPECT_TRUE(slot.loaded);
  EXPECT_EQ(first(net), first(trained));
  EXPECT_EQ(first(average), first(averaged));
  save_checkpoint(path, trained, nullptr, "", {});
  AveragedWeights none{&average};
  load_checkpoint(path, net, nullptr, {}, &none);
  EXPECT_FALSE(none.loaded);
  EXPECT_EQ(first(load_network(path, arch.spec).net), first(trained));
  std::filesystem::remove(path);
}

// Checkpoints of format 1 have no checksum: they still load (unverified).
TEST(Checkpoint, FormatOneWithoutChecksumStillLoads) {
  const net::Architecture arch = arch_of("tiny");
  torch::manual_seed(3);
  Network net(arch);
  CheckpointMeta meta;
  meta.format_version = 1;
  meta.arch = arch;
  meta.step = 7;
  const std::string path = temp_path("format1.ckpt");
  {
    torch::serialize::OutputArchive root, weights;
    root.write("meta", c10::IValue(meta_to_text(meta)));
    net->save(weights);
    root.write("model", weights);
    root.save_to(path);
  }
  Network copy(arch);
  EXPECT_EQ(load_checkpoint(path, copy).step, 7);
  EXPECT_TRUE(read_checkpoint_meta(path).checksum.empty());
  const auto a = net->parameters(), b = copy->parameters();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i], b[i])) << i;
  std::filesystem::remove(path);
  // Format 2 without its checksum, or format 1 with one, is damage.
  meta.format_version = 2;
  EXPECT_FALSE(meta_from_text(meta_to_text(meta), "x").ok());
  meta.format_version = 1;
  meta.checksum = "fnv1a64:0123456789abcdef";
  EXPECT_FALSE(meta_from_text(meta_to_text(meta), "x").ok());
}

TEST(Losses, UnmaskedPositionsDoNotTeachThePolicy) {
  const net::Architecture arch = arch_of("tiny");
  LossBatch b = fixed_batch(arch, 8, 2);
  Network net(arch);
  net->eval();
  torch::NoGradGuard no_grad;
  const NetOutput out = net->forward(b.input);
  b.policy_mask = torch::tensor({1.f, 1.f, 1.f, 1.f, 0.f, 0.f, 0.f, 0.f});
  const Losses masked = compute_losses(out, b);
  LossBatch half = b;
  half.policy = b.policy.narrow(0, 0, 4);
  half.policy_mask = torch::ones({4});
  NetOutput first = out;
  first.policy = out.policy.narrow(0, 0, 4);
  EXPECT_NEAR(masked.policy.item<double>(), compute_losses(first, half).policy.item<double>(), 1e-5);
  b.policy_mask = torch::zeros({8});
  EXPECT_EQ(compute_losses(out, b).policy.item<double>(), 0.0);  // no full search in the batch: no policy loss
}

// STYLE.md: a tiny net overfits a fixed batch on the CPU in seconds: the loss falls by 90%.
TEST(Training, TinyNetOverfitsAFixedBatch) {
  net::Architecture arch = arch_of("tiny");
  const LossBatch batch = fixed_batch(arch, 64, 3);
  const std::pair<OptimizerKind, bool> cases[] = {
      {OptimizerKind::Sgd, false}, {OptimizerKind::AdamW, false}, {OptimizerKind::Sgd, true}};
  for (const auto& [kind, spatial] : cases) {
    arch.net.spatial_policy = spatial;
    torch::manual_seed(3);
    Network net(arch);
    OptimizerConfig config;
    config.kind = kind;
    config.learning_rate = kind == OptimizerKind::Sgd ? 0.1 : 0.01;
    auto opt = make_optimizer(net, config);
    const auto start = std::chrono::steady_clock::now();
    const double first = train_steps(net, *opt, batch, 1);
    double last = first;
    int steps = 1;
    for (; steps < 400 && last > 0.1 * first; ++steps) last = train_steps(net, *opt, batch, 1);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s%s: loss %.3f -> %.3f in %d steps, %.1f s\n", optimizer_name(kind).data(),
                spatial ? ", spatial policy" : "", first, last, steps, seconds);
    EXPECT_LT(last, 0.1 * first) << optimizer_name(kind) << (spatial ? ", spatial policy" : "");
  }
}

}  // namespace
}  // namespace sz::models
