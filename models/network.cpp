#include "models/network.h"

#include "core/error.h"

namespace sz::models {

namespace nn = torch::nn;

namespace {

nn::Conv2d conv(int in, int out, int kernel) {
  // No bias: the batch norm that follows has its own shift.
  return nn::Conv2d(nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false));
}

nn::BatchNorm2d batch_norm(int channels) {
  return nn::BatchNorm2d(nn::BatchNorm2dOptions(channels).eps(net::kBatchNormEpsilon));
}

torch::Tensor conv_bn_relu(nn::Conv2d& c, nn::BatchNorm2d& bn, const torch::Tensor& x) { return torch::relu(bn(c(x))); }

}  // namespace

ResidualBlockImpl::ResidualBlockImpl(int channels, int pool_channels) {
  conv1_ = register_module("conv1", conv(channels, channels, 3));
  bn1_ = register_module("bn1", batch_norm(channels));
  conv2_ = register_module("conv2", conv(channels, channels, 3));
  bn2_ = register_module("bn2", batch_norm(channels));
  if (pool_channels > 0) {
    pool_conv_ = register_module("pool_conv", conv(channels, pool_channels, 3));
    pool_bn_ = register_module("pool_bn", batch_norm(pool_channels));
    pool_bias_ = register_module("pool_bias", nn::Linear(2 * pool_channels, channels));
  }
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
  torch::Tensor y = conv_bn_relu(conv1_, bn1_, x);
  if (pool_conv_) {
    const torch::Tensor g = conv_bn_relu(pool_conv_, pool_bn_, x);
    const torch::Tensor pooled = torch::cat({g.mean({2, 3}), g.amax({2, 3})}, 1);  // [N, 2 * pool_channels]
    y = y + pool_bias_(pooled).unsqueeze(-1).unsqueeze(-1);                        // a bias per channel
  }
  y = bn2_(conv2_(y));
  return torch::relu(x + y);
}

NetworkImpl::NetworkImpl(const net::Architecture& arch) : arch_(arch) {
  const net::NetConfig n = validate(arch.net).take_or_throw();
  const game::GameSpec& s = arch.spec;
  if (s.binary_planes <= 0 || s.scalar_features < 0 || s.action_space <= 0)
    throw Error("network for game '" + s.game + "': the game spec has no planes or no actions");
  stem_ = register_module("stem", conv(net::input_channels(s), n.channels, 3));
  stem_bn_ = register_module("stem_bn", batch_norm(n.channels));
  tower_ = register_module("tower", nn::ModuleList());
  for (int b = 0; b < n.blocks; ++b)
    tower_->push_back(ResidualBlock(n.channels, net::is_global_pool_block(n, b) ? n.global_pool_channels : 0));
  policy_conv_ = register_module("policy_conv", conv(n.channels, n.policy_channels, n.spatial_policy ? 3 : 1));
  policy_bn_ = register_module("policy_bn", batch_norm(n.policy_channels));
  if (n.spatial_policy) {
    if (s.policy_planes <= 0 || int(s.policy_map.size()) != s.action_space)
      throw Error("network for game '" + s.game + "': spatial_policy needs the game's policy map, which it lacks");
    policy_planes_ = register_module("policy_planes",
                                     nn::Conv2d(nn::Conv2dOptions(n.policy_channels, s.policy_planes, 1).bias(true)));
    // Not a buffer: Module::to(dtype) would convert it, and it is the game's, not a weight.
    policy_map_ = torch::tensor(std::vector<int64_t>(s.policy_map.begin(), s.policy_map.end()), torch::kLong);
  } else {
    policy_fc_ = register_module("policy_fc", nn::Linear(n.policy_channels * net::kBoardSquares, s.action_space));
  }
  {
    // The policy's last layer starts at zero: a fresh network's prior is uniform over the legal
    // actions, not the arbitrary preferences of random weights. The first network trains no
    // policy (the bootstrap's rows carry no policy target), and with c_puct 0.1 and no FPU
    // reduction the prior decides which of its moves the next generation's searches ever visit.
    torch::NoGradGuard no_grad;
    const std::vector<torch::Tensor> last = policy_planes_ ? policy_planes_->parameters() : policy_fc_->parameters();
    for (torch::Tensor p : last) p.zero_();
  }
  value_conv_ = register_module("value_conv", conv(n.channels, n.value_channels, 1));
  value_bn_ = register_module("value_bn", batch_norm(n.value_channels));
  value_fc1_ = register_module("value_fc1", nn::Linear(n.value_channels * net::kBoardSquares, n.value_hidden));
  value_fc2_ = register_module("value_fc2", nn::Linear(n.value_hidden, 3));
  if (n.moves_left) {
    moves_conv_ = register_module("moves_conv", conv(n.channels, n.moves_left_channels, 1));
    moves_bn_ = register_module("moves_bn", batch_norm(n.moves_left_channels));
    moves_fc1_ = register_module("moves_fc1", nn::Linear(n.moves_left_channels * net::kBoardSquares, n.value_hidden));
    moves_fc2_ = register_module("moves_fc2", nn::Linear(n.value_hidden, 1));
  }
}

NetOutput NetworkImpl::forward(const torch::Tensor& input) {
  torch::Tensor x = conv_bn_relu(stem_, stem_bn_, input);
  for (const auto& block : *tower_) x = block->as<ResidualBlockImpl>()->forward(x);
  NetOutput out;
  const torch::Tensor p = conv_bn_relu(policy_conv_, policy_bn_, x);
  if (policy_planes_ && policy_map_.device() != p.device()) policy_map_ = policy_map_.to(p.device());
  out.policy = policy_planes_ ? policy_planes_(p).flatten(1).index_select(1, policy_map_) : policy_fc_(p.flatten(1));
  const torch::Tensor v = conv_bn_relu(value_conv_, value_bn_, x).flatten(1);
  out.wdl = value_fc2_(torch::relu(value_fc1_(v)));
  if (moves_conv_) {
    const torch::Tensor m = conv_bn_relu(moves_conv_, moves_bn_, x).flatten(1);
    out.moves_left = torch::softplus(moves_fc2_(torch::relu(moves_fc1_(m)))).squeeze(1);  // plies are >= 0
  }
  return out;
}

torch::Tensor expand_input(const torch::Tensor& planes, const torch::Tensor& scalars) {
  const int64_t n = planes.size(0);
  // Bit s of each word, by arithmetic shift: bit 63 (the sign bit) comes out right as well.
  const torch::Tensor shifts = torch::arange(net::kBoardSquares, planes.options());
  const torch::Tensor bits = torch::bitwise_right_shift(planes.unsqueeze(-1), shifts).bitwise_and(1);
  const torch::Tensor board =
      bits.to(scalars.scalar_type()).view({n, planes.size(1), net::kBoardSide, net::kBoardSide});
  const torch::Tensor constant =
      scalars.view({n, scalars.size(1), 1, 1}).expand({n, scalars.size(1), net::kBoardSide, net::kBoardSide});
  return torch::cat({board, constant}, 1);
}

Network copy_network(const Network& net, const torch::Device& device) {
  Network copy(net->architecture());
  torch::NoGradGuard no_grad;
  const auto params = net->named_parameters(/*recurse=*/true);
  for (auto& item : copy->named_parameters(/*recurse=*/true)) item.value().copy_(params[item.key()]);
  const auto buffers = net->named_buffers(/*recurse=*/true);
  for (auto& item : copy->named_buffers(/*recurse=*/true)) item.value().copy_(buffers[item.key()]);
  copy->to(device);
  if (!net->is_training()) copy->eval();
  return copy;
}

}  // namespace sz::models
