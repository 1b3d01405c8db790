#include "net/net_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/error.h"

namespace sz::net {

void legal_softmax(const float* logits, std::span<const game::ActionId> actions, std::span<float> priors) {
  if (actions.empty()) return;
  float top = -INFINITY;
  for (const game::ActionId a : actions) top = std::max(top, logits[a]);
  double sum = 0;
  for (size_t i = 0; i < actions.size(); ++i) sum += priors[i] = std::exp(logits[actions[i]] - top);
  const float scale = float(1.0 / sum);
  for (size_t i = 0; i < actions.size(); ++i) priors[i] *= scale;
}

bool all_finite(const float* values, size_t count) {
  // A float is NaN or infinite exactly when its exponent bits are all ones. Integer operations
  // only, so that the loop vectorises without -ffast-math (which would assume NaN away).
  constexpr uint32_t kExponent = 0x7F800000u;
  uint32_t bad = 0;
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, values + i, sizeof bits);
    bad |= uint32_t((bits & kExponent) == kExponent);
  }
  return bad == 0;
}

void decode_row(const float* row, int action_space, const search::EvalQuery& query, search::EvalReply& reply) {
  legal_softmax(row, query.actions, reply.priors);
  const float* wdl = row + action_space;
  const float top = std::max({wdl[0], wdl[1], wdl[2]});
  float e[3], sum = 0;
  for (int k = 0; k < 3; ++k) sum += e[k] = std::exp(wdl[k] - top);
  for (int k = 0; k < 3; ++k) reply.wdl[k] = e[k] / sum;
  reply.moves_left = std::max(0.0f, row[action_space + 3]);
}

void encode_row(const game::GameState& state, const game::GameSpec& net, uint64_t* planes, float* scalars, int i) {
  const game::GameSpec& s = state.spec();
  if (s.encoder_version != net.encoder_version || s.action_space_version != net.action_space_version ||
      s.binary_planes != net.binary_planes || s.scalar_features != net.scalar_features ||
      s.action_space != net.action_space || s.game != net.game)
    throw Error("a " + s.game + " position (encoder " + std::to_string(s.encoder_version) + ", " +
                std::to_string(s.action_space) + " actions) sent to a network for " + net.game + " (encoder " +
                std::to_string(net.encoder_version) + ", " + std::to_string(net.action_space) + " actions)");
  state.encode({std::span<uint64_t>(planes + size_t(i) * size_t(net.binary_planes), size_t(net.binary_planes)),
                std::span<float>(scalars + size_t(i) * size_t(net.scalar_features), size_t(net.scalar_features))});
}

}  // namespace sz::net
