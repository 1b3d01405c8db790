#include "models/architecture.h"

#include <type_traits>

namespace sz::models {

namespace {

template <typename T>
void compare(std::vector<std::string>& out, const char* key, const T& want, const T& found) {
  if (want == found) return;
  auto text = [](const T& v) {
    if constexpr (std::is_same_v<T, std::string>) return v;
    else if constexpr (std::is_same_v<T, bool>) return std::string(v ? "true" : "false");
    else return std::to_string(v);
  };
  out.push_back(std::string(key) + ": checkpoint " + text(found) + ", expected " + text(want));
}

}  // namespace

std::string describe(const Architecture& a) {
  const auto& n = a.net;
  const auto& s = a.spec;
  std::string text = n.name + ": " + std::to_string(n.blocks) + " x " + std::to_string(n.channels);
  if (n.global_pool_every > 0) text += ", global pooling every " + std::to_string(n.global_pool_every);
  if (n.spatial_policy) text += ", spatial policy";
  text += n.moves_left ? ", WDL + moves-left" : ", WDL";
  text += ", " + s.game + " (" + std::to_string(s.binary_planes) + " + " + std::to_string(s.scalar_features) +
          " -> " + std::to_string(s.action_space) + "), encoder " + std::to_string(s.encoder_version) +
          ", actions " + std::to_string(s.action_space_version);
  return text;
}

std::vector<std::string> architecture_differences(const Architecture& want, const Architecture& found) {
  std::vector<std::string> d;
  // The encoding first: a different encoding is the more fundamental mismatch.
  compare(d, "game", want.spec.game, found.spec.game);
  compare(d, "encoder_version", want.spec.encoder_version, found.spec.encoder_version);
  compare(d, "action_space_version", want.spec.action_space_version, found.spec.action_space_version);
  compare(d, "binary_planes", want.spec.binary_planes, found.spec.binary_planes);
  compare(d, "scalar_features", want.spec.scalar_features, found.spec.scalar_features);
  compare(d, "action_space", want.spec.action_space, found.spec.action_space);
  const auto& w = want.net;
  const auto& f = found.net;
  compare(d, "blocks", w.blocks, f.blocks);
  compare(d, "channels", w.channels, f.channels);
  compare(d, "global_pool_every", w.global_pool_every, f.global_pool_every);
  if (w.global_pool_every > 0 && f.global_pool_every > 0)
    compare(d, "global_pool_channels", w.global_pool_channels, f.global_pool_channels);
  compare(d, "policy_channels", w.policy_channels, f.policy_channels);
  compare(d, "spatial_policy", w.spatial_policy, f.spatial_policy);
  compare(d, "value_channels", w.value_channels, f.value_channels);
  compare(d, "value_hidden", w.value_hidden, f.value_hidden);
  compare(d, "moves_left", w.moves_left, f.moves_left);
  if (w.moves_left && f.moves_left) compare(d, "moves_left_channels", w.moves_left_channels, f.moves_left_channels);
  return d;
}

std::string join_differences(const std::vector<std::string>& diffs) {
  std::string text;
  for (const auto& d : diffs) text += (text.empty() ? "" : "; ") + d;
  return text;
}

}  // namespace sz::models
