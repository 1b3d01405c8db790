#include "client/eigen_net.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "core/error.h"

namespace sz::client {

namespace {

constexpr int kSquares = net::kBoardSquares;
constexpr int kSide = net::kBoardSide;

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The tensors by name; every one must be taken exactly once.
class TensorSet {
 public:
  TensorSet(const std::vector<Tensor>& tensors, std::string_view source) : source_(source) {
    for (const Tensor& t : tensors)
      if (!by_name_.emplace(t.name, &t).second) throw Error(source_ + ": tensor '" + t.name + "' given twice");
  }
  const std::vector<float>& take(const std::string& name, const std::vector<int64_t>& shape) {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) throw Error(source_ + ": tensor '" + name + "' is missing (weights of another network?)");
    if (it->second->shape != shape)
      throw Error(source_ + ": tensor '" + name + "' has shape " + shape_text(it->second->shape) +
                  ", the network needs " + shape_text(shape));
    taken_.insert(name);
    return it->second->data;
  }
  void finish() const {
    for (const auto& [name, t] : by_name_)
      if (!taken_.count(name)) throw Error(source_ + ": tensor '" + name + "' is not part of this network");
  }

 private:
  std::string source_;
  std::map<std::string, const Tensor*> by_name_;
  std::set<std::string> taken_;
};

using Conv = EigenNet::Conv;
using Linear = EigenNet::Linear;

// A bias-free convolution followed by batch norm (eval mode), folded: w' = w * s, b' = beta - mean * s,
// s = gamma / sqrt(var + eps).
Conv conv_bn(TensorSet& t, const std::string& conv, const std::string& bn, int in, int out, int kernel) {
  const auto& w = t.take(conv + ".weight", {out, in, kernel, kernel});
  const auto& gamma = t.take(bn + ".weight", {out});
  const auto& beta = t.take(bn + ".bias", {out});
  const auto& mean = t.take(bn + ".running_mean", {out});
  const auto& var = t.take(bn + ".running_var", {out});
  Conv c;
  c.in = in;
  c.out = out;
  c.kernel = kernel;
  c.weight.resize(out, kernel * kernel * in);
  c.bias.resize(out);
  for (int o = 0; o < out; ++o) {
    const float s = gamma[size_t(o)] / std::sqrt(var[size_t(o)] + net::kBatchNormEpsilon);
    c.bias[o] = beta[size_t(o)] - mean[size_t(o)] * s;
    for (int i = 0; i < in; ++i)
      for (int k = 0; k < kernel * kernel; ++k)
        c.weight(o, k * in + i) = w[(size_t(o) * size_t(in) + size_t(i)) * size_t(kernel * kernel) + size_t(k)] * s;
  }
  return c;
}

// A linear layer. With `planes` > 0 its input is a [planes, 8, 8] activation flattened as torch
// does (channel-major: c * 64 + square); the columns are reordered to this file's layout
// (square-major: square * planes + c), so that a position's activation is read as it lies.
Linear linear(TensorSet& t, const std::string& name, int in, int out, int planes = 0) {
  const auto& w = t.take(name + ".weight", {out, in});
  const auto& b = t.take(name + ".bias", {out});
  Linear l;
  l.weight.resize(out, in);
  l.bias = Eigen::Map<const EigenNet::Vec>(b.data(), out);
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < in; ++i) {
      const int col = planes > 0 ? (i % kSquares) * planes + i / kSquares : i;
      l.weight(o, col) = w[size_t(o) * size_t(in) + size_t(i)];
    }
  return l;
}

}  // namespace

EigenNet::EigenNet(const net::Architecture& arch, const std::vector<Tensor>& tensors, std::string_view source)
    : arch_(arch) {
  const net::NetConfig& n = arch.net;
  const game::GameSpec& s = arch.spec;
  const std::string where(source);
  if (n.blocks < 1 || n.channels < 1 || s.binary_planes <= 0 || s.scalar_features < 0 || s.action_space <= 0)
    throw Error(where + ": the network has no tower, no planes or no actions");
  TensorSet t(tensors, source);
  stem_ = conv_bn(t, "stem", "stem_bn", net::input_channels(s), n.channels, 3);
  for (int b = 0; b < n.blocks; ++b) {
    const std::string p = "tower." + std::to_string(b) + ".";
    Block block;
    block.conv1 = conv_bn(t, p + "conv1", p + "bn1", n.channels, n.channels, 3);
    block.conv2 = conv_bn(t, p + "conv2", p + "bn2", n.channels, n.channels, 3);
    if (net::is_global_pool_block(n, b)) {
      block.pool_conv = conv_bn(t, p + "pool_conv", p + "pool_bn", n.channels, n.global_pool_channels, 3);
      block.pool_bias = linear(t, p + "pool_bias", 2 * n.global_pool_channels, n.channels);
    }
    tower_.push_back(std::move(block));
  }
  policy_conv_ = conv_bn(t, "policy_conv", "policy_bn", n.channels, n.policy_channels, n.spatial_policy ? 3 : 1);
  if (n.spatial_policy) {
    if (s.policy_planes <= 0 || int(s.policy_map.size()) != s.action_space)
      throw Error(where + ": spatial_policy needs the game's policy map, which it lacks");
    const auto& w = t.take("policy_planes.weight", {s.policy_planes, n.policy_channels, 1, 1});
    const auto& b = t.take("policy_planes.bias", {s.policy_planes});
    policy_planes_.in = n.policy_channels;
    policy_planes_.out = s.policy_planes;
    policy_planes_.weight = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        w.data(), s.policy_planes, n.policy_channels);
    policy_planes_.bias = Eigen::Map<const Vec>(b.data(), s.policy_planes);
    for (const int32_t at : s.policy_map) {
      if (at < 0 || at >= s.policy_planes * kSquares) throw Error(where + ": the game's policy map is out of range");
      policy_gather_.push_back((at % kSquares) * s.policy_planes + at / kSquares);
    }
  } else {
    policy_fc_ = linear(t, "policy_fc", n.policy_channels * kSquares, s.action_space, n.policy_channels);
  }
  value_conv_ = conv_bn(t, "value_conv", "value_bn", n.channels, n.value_channels, 1);
  value_fc1_ = linear(t, "value_fc1", n.value_channels * kSquares, n.value_hidden, n.value_channels);
  value_fc2_ = linear(t, "value_fc2", n.value_hidden, 3);
  if (n.moves_left) {
    moves_conv_ = conv_bn(t, "moves_conv", "moves_bn", n.channels, n.moves_left_channels, 1);
    moves_fc1_ = linear(t, "moves_fc1", n.moves_left_channels * kSquares, n.value_hidden, n.moves_left_channels);
    moves_fc2_ = linear(t, "moves_fc2", n.value_hidden, 1);
  }
  t.finish();
}

void EigenNet::ensure_batch(int n) {
  if (n <= batch_) return;
  const net::NetConfig& c = arch_.net;
  const size_t points = size_t(n) * kSquares;
  const int widest = std::max(net::input_channels(arch_.spec), c.channels);
  input_.resize(size_t(net::input_channels(arch_.spec)) * points);
  x_.resize(size_t(c.channels) * points);
  y_.resize(size_t(c.channels) * points);
  t_.resize(size_t(c.channels) * points);
  head_.resize(size_t(std::max({c.policy_channels, c.value_channels, c.moves_left_channels})) * points);
  unfolded_.resize(size_t(9 * widest) * points);
  planes_out_.resize(size_t(std::max(arch_.spec.policy_planes, 1)) * points);
  small_.resize(size_t(std::max({2 * c.global_pool_channels, c.channels, c.value_hidden, 3})) * size_t(n) * 2);
  batch_ = n;
}

// out [c.out, n * 64] = conv(in [c.in, n * 64]), each column a square's channels, squares of a
// position together (a1 .. h8), positions one after another.
void EigenNet::conv(const Conv& c, const float* in, float* out, int n, bool relu) {
  const int points = n * kSquares;
  Map y(out, c.out, points);
  if (c.kernel == 1) {
    y.noalias() = c.weight * Eigen::Map<const Mat>(in, c.in, points);
  } else {
    // Unfold: column p holds the 3x3 neighbourhood of square p, zeros off the board.
    const size_t column = size_t(9 * c.in);
    for (int p = 0; p < points; ++p) {
      const int sq = p % kSquares, rank = sq / kSide, file = sq % kSide;
      float* dst = unfolded_.data() + size_t(p) * column;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx, dst += c.in) {
          const int r = rank + dy, f = file + dx;
          if (r < 0 || r >= kSide || f < 0 || f >= kSide)
            std::memset(dst, 0, sizeof(float) * size_t(c.in));
          else
            std::memcpy(dst, in + size_t(p + dy * kSide + dx) * size_t(c.in), sizeof(float) * size_t(c.in));
        }
    }
    y.noalias() = c.weight * Eigen::Map<const Mat>(unfolded_.data(), Eigen::Index(column), points);
  }
  y.colwise() += c.bias;
  if (relu) y = y.cwiseMax(0.0f);
}

void EigenNet::run(const uint64_t* planes, const float* scalars, int n, float* out) {
  if (n <= 0) return;
  ensure_batch(n);
  const net::NetConfig& c = arch_.net;
  const game::GameSpec& s = arch_.spec;
  const int points = n * kSquares, in_channels = net::input_channels(s);

  // The input: a 0/1 channel per bitboard, a constant channel per scalar (models::expand_input).
  for (int i = 0; i < n; ++i)
    for (int sq = 0; sq < kSquares; ++sq) {
      float* col = input_.data() + size_t(i * kSquares + sq) * size_t(in_channels);
      for (int b = 0; b < s.binary_planes; ++b)
        col[b] = float((planes[size_t(i) * size_t(s.binary_planes) + size_t(b)] >> sq) & 1u);
      std::memcpy(col + s.binary_planes, scalars + size_t(i) * size_t(s.scalar_features),
                  sizeof(float) * size_t(s.scalar_features));
    }
  conv(stem_, input_.data(), x_.data(), n, true);  // x_: the tower's activation from here on

  for (const Block& b : tower_) {
    conv(b.conv1, x_.data(), y_.data(), n, true);
    if (b.pool_conv.out > 0) {
      // Global pooling: the mean and max of a few channels over the board, into per-channel biases.
      conv(b.pool_conv, x_.data(), t_.data(), n, true);
      const int pc = b.pool_conv.out;
      Map pooled(small_.data(), 2 * pc, n);
      for (int i = 0; i < n; ++i) {
        const auto g = Eigen::Map<const Mat>(t_.data() + size_t(i) * kSquares * size_t(pc), pc, kSquares);
        pooled.col(i).head(pc) = g.rowwise().mean();
        pooled.col(i).tail(pc) = g.rowwise().maxCoeff();
      }
      Map bias(small_.data() + size_t(2 * pc) * size_t(n), c.channels, n);
      bias.noalias() = b.pool_bias.weight * pooled;
      bias.colwise() += b.pool_bias.bias;
      for (int i = 0; i < n; ++i)
        Map(y_.data() + size_t(i) * kSquares * size_t(c.channels), c.channels, kSquares).colwise() += bias.col(i);
    }
    conv(b.conv2, y_.data(), t_.data(), n, false);
    Map x(x_.data(), c.channels, points);
    x = (x + Map(t_.data(), c.channels, points)).cwiseMax(0.0f);
  }

  const int stride = output_stride();
  Eigen::Map<Mat, 0, Eigen::OuterStride<>> rows(out, stride, n, Eigen::OuterStride<>(stride));

  // Policy logits.
  conv(policy_conv_, x_.data(), head_.data(), n, true);
  if (c.spatial_policy) {
    conv(policy_planes_, head_.data(), planes_out_.data(), n, false);
    const size_t per_position = size_t(s.policy_planes) * kSquares;
    for (int i = 0; i < n; ++i) {
      const float* from = planes_out_.data() + size_t(i) * per_position;
      float* to = out + size_t(i) * size_t(stride);
      for (int a = 0; a < s.action_space; ++a) to[a] = from[policy_gather_[size_t(a)]];
    }
  } else {
    rows.topRows(s.action_space).noalias() =
        policy_fc_.weight * Eigen::Map<const Mat>(head_.data(), c.policy_channels * kSquares, n);
    rows.topRows(s.action_space).colwise() += policy_fc_.bias;
  }

  // Win/draw/loss logits.
  conv(value_conv_, x_.data(), head_.data(), n, true);
  Map hidden(small_.data(), c.value_hidden, n);
  hidden.noalias() = value_fc1_.weight * Eigen::Map<const Mat>(head_.data(), c.value_channels * kSquares, n);
  hidden.colwise() += value_fc1_.bias;
  hidden = hidden.cwiseMax(0.0f);
  rows.middleRows(s.action_space, 3).noalias() = value_fc2_.weight * hidden;
  rows.middleRows(s.action_space, 3).colwise() += value_fc2_.bias;

  // Moves left in plies: softplus (torch's, threshold 20) of the head, times its scale.
  if (c.moves_left) {
    conv(moves_conv_, x_.data(), head_.data(), n, true);
    hidden.noalias() = moves_fc1_.weight * Eigen::Map<const Mat>(head_.data(), c.moves_left_channels * kSquares, n);
    hidden.colwise() += moves_fc1_.bias;
    hidden = hidden.cwiseMax(0.0f);
    for (int i = 0; i < n; ++i) {
      const float z = moves_fc2_.weight.row(0).dot(hidden.col(i)) + moves_fc2_.bias[0];
      const float plies = z > 20.0f ? z : std::log1p(std::exp(z));
      rows(s.action_space + 3, i) = plies * net::kMovesLeftScale;
    }
  } else {
    rows.row(s.action_space + 3).setZero();
  }
}

}  // namespace sz::client
