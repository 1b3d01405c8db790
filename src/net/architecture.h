#pragma once
// What a network is: its tower and heads (NetConfig) and the encoding it reads and writes
// (game::GameSpec: planes, scalar features, action space and their versions). Torch-free, so
// that any module can name an architecture; every checkpoint stores one (checkpoint_meta.h).
#include <string>
#include <vector>

#include "game/game_state.h"
#include "net/net_config.h"

namespace sz::net {

inline constexpr int kBoardSide = 8;
inline constexpr int kBoardSquares = kBoardSide * kBoardSide;

// The moves-left head predicts plies / kMovesLeftScale, so that its targets stay near 1 and its
// Huber loss sits on the same scale as the cross-entropies; evaluators multiply back to plies.
inline constexpr float kMovesLeftScale = 100.0f;

// Every batch norm's epsilon (LibTorch's default), which the network's forward passes outside
// LibTorch (the clients' Eigen pass, model.onnx) must use as well.
inline constexpr float kBatchNormEpsilon = 1e-5f;

struct Architecture {
  NetConfig net;
  game::GameSpec spec;
};

// The stored fields of the encoding (GameSpec without its policy map, which the game's action-space
// version fixes), in the order a difference is reported: the game and its versions, then the
// sizes. The visitor interface of config/section.h; ranges are only for plausibility.
template <typename V>
void fields(V& v, game::GameSpec& s) {
  v.text("game", s.game);
  v.num("encoder_version", s.encoder_version, 0, 1 << 20);
  v.num("action_space_version", s.action_space_version, 0, 1 << 20);
  v.num("binary_planes", s.binary_planes, 0, 1 << 20);
  v.num("scalar_features", s.scalar_features, 0, 1 << 20);
  v.num("action_space", s.action_space, 0, 1 << 24);
}

// Input channels: one per binary plane plus one constant plane per scalar feature.
inline int input_channels(const game::GameSpec& spec) { return spec.binary_planes + spec.scalar_features; }

// Is block `b` (0-based) a global-pooling block?
inline bool is_global_pool_block(const NetConfig& net, int b) {
  return net.global_pool_every > 0 && (b + 1) % net.global_pool_every == 0;
}

// "small: 6 x 64, global pooling every 0, WDL + moves-left, sittuyin (12 + 32 -> 2212), encoder 1"
std::string describe(const Architecture& arch);

// Empty when weights saved for `found` load into `want`; otherwise one entry per difference,
// e.g. "blocks: checkpoint 6, expected 10". The name is not compared: it is only a label.
std::vector<std::string> architecture_differences(const Architecture& want, const Architecture& found);

// The differences joined for an error message.
std::string join_differences(const std::vector<std::string>& diffs);

}  // namespace sz::net
