#pragma once
// The network's forward pass on the CPU with Eigen, for every architecture net::NetConfig
// allows (models/network.cpp is the reference: residual tower, global-pooling blocks, the linear
// and the spatial policy heads, WDL, moves-left), reading the weights of client/onnx_weights.h.
// Batch norm is folded into the convolutions on load; a 3x3 convolution is one matrix product
// over the unfolded board (im2col). Torch-free: the game clients' runtime.
#include <Eigen/Core>
#include <cstdint>
#include <string_view>
#include <vector>

#include "client/onnx_weights.h"
#include "net/architecture.h"

namespace sz::client {

// Not thread-safe: one per thread. Its buffers grow to the largest batch run and are reused;
// what a warm forward pass still allocates is Eigen's: a large matrix product takes its blocking
// buffers from the heap (above EIGEN_STACK_ALLOCATION_LIMIT), at most two per product
// (tests/client/alloc_test.cpp: about 47 allocations a pass for medium's tower, against
// millions of multiply-adds).
class EigenNet {
 public:
  // Throws sz::Error naming `source` and the tensor when one is missing, of another shape, or left
  // over (weights of another architecture), and when the architecture is out of range.
  EigenNet() = default;
  EigenNet(const net::Architecture& arch, const std::vector<Tensor>& tensors, std::string_view source);

  const net::Architecture& architecture() const { return arch_; }
  // Floats per output row: action_space policy logits, then 3 win/draw/loss logits, then the
  // moves-left estimate in plies (0 without that head): nn::NetRunner's layout.
  int output_stride() const { return arch_.spec.action_space + 4; }

  // Runs `n` positions in the compact encoding (docs/ENCODING.md: n rows of binary_planes
  // bitboards and of scalar_features floats) and writes n output rows to `out`.
  void run(const uint64_t* planes, const float* scalars, int n, float* out);

  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
  using Vec = Eigen::Matrix<float, Eigen::Dynamic, 1>;
  using Map = Eigen::Map<Mat>;

  struct Conv {  // a convolution with its batch norm folded in (or its own bias)
    int in = 0, out = 0, kernel = 1;
    Mat weight;  // [out, kernel * kernel * in], column (ky * kernel + kx) * in + c
    Vec bias;
  };
  struct Linear {
    Mat weight;  // [out, in]
    Vec bias;
  };
  struct Block {
    Conv conv1, conv2, pool_conv;  // pool_conv.out == 0: a plain block
    Linear pool_bias;
  };

 private:
  void ensure_batch(int n);
  void conv(const Conv& c, const float* in, float* out, int n, bool relu);

  net::Architecture arch_;
  Conv stem_, policy_conv_, policy_planes_, value_conv_, moves_conv_;
  std::vector<Block> tower_;
  Linear policy_fc_, value_fc1_, value_fc2_, moves_fc1_, moves_fc2_;
  std::vector<int32_t> policy_gather_;  // spatial policy: action -> offset in one position's planes

  int batch_ = 0;  // the batch the buffers hold room for
  std::vector<float> input_, x_, y_, t_, head_, unfolded_, planes_out_, small_;
};

}  // namespace sz::client
