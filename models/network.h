#pragma once
// The network (LibTorch): a residual tower over 8x8 planes with policy, win/draw/loss and
// optional moves-left heads, as configured by net::NetConfig (net_config.h). Includes torch: include this
// only from files that run or train networks (models/, nn/, train/), never from a widely
// included header (~20 s per translation unit).
//
// Tower (AlphaZero, Silver et al. 2018): a 3x3 stem, then `blocks` residual blocks of two 3x3
// convolutions with batch norm. A global-pooling block (KataGo, Wu 2019, section 3.2) pools a
// few channels of its first convolution over the board (mean and max) and turns them, through a
// linear layer, into per-channel biases of the rest: the whole board informs every square.
#include <torch/torch.h>

#include "net/architecture.h"

namespace sz::models {

struct NetOutput {
  torch::Tensor policy;      // [N, action_space] logits over every action id
  torch::Tensor wdl;         // [N, 3] logits: win, draw, loss from the side to move's view
  torch::Tensor moves_left;  // [N] plies left / net::kMovesLeftScale (>= 0); undefined without the head
};

class ResidualBlockImpl : public torch::nn::Module {
 public:
  ResidualBlockImpl(int channels, int pool_channels);  // pool_channels 0: a plain block
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr}, pool_conv_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr}, pool_bn_{nullptr};
  torch::nn::Linear pool_bias_{nullptr};
};
TORCH_MODULE(ResidualBlock);

class NetworkImpl : public torch::nn::Module {
 public:
  // Throws sz::Error when the config is out of range.
  explicit NetworkImpl(const net::Architecture& arch);
  // x: [N, net::input_channels, 8, 8] (expand_input), float of the network's dtype.
  NetOutput forward(const torch::Tensor& x);
  const net::Architecture& architecture() const { return arch_; }

 private:
  net::Architecture arch_;
  torch::nn::Conv2d stem_{nullptr};
  torch::nn::BatchNorm2d stem_bn_{nullptr};
  torch::nn::ModuleList tower_{nullptr};
  torch::nn::Conv2d policy_conv_{nullptr}, value_conv_{nullptr}, moves_conv_{nullptr};
  torch::nn::BatchNorm2d policy_bn_{nullptr}, value_bn_{nullptr}, moves_bn_{nullptr};
  torch::nn::Conv2d policy_planes_{nullptr};  // spatial policy: onto the move planes
  torch::Tensor policy_map_;  // spatial policy: [action_space] indices into the planes, on the input's device
  torch::nn::Linear policy_fc_{nullptr}, value_fc1_{nullptr}, value_fc2_{nullptr}, moves_fc1_{nullptr},
      moves_fc2_{nullptr};
};
TORCH_MODULE(Network);

// The network input from the compact encoding (docs/ENCODING.md), on whatever device the
// arguments are: planes [N, binary_planes] int64 holding the uint64 bitboards (bit s = square s,
// a1 = 0), scalars [N, scalar_features] float. Returns [N, planes + scalars, 8, 8] float: each
// bitboard as a 0/1 plane (row = rank, column = file), each scalar as a constant plane. Copying
// the compact rows to a GPU moves 224 bytes per position instead of 11 KiB.
torch::Tensor expand_input(const torch::Tensor& planes, const torch::Tensor& scalars);

// A deep copy of `net`'s weights and batch-norm statistics into a fresh network on `device`.
Network copy_network(const Network& net, const torch::Device& device);

}  // namespace sz::models
