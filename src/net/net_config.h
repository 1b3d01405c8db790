#pragma once
// The network's architecture as configured (configs/nets/*.yaml): its tower and heads. A plain
// struct, torch-free and yaml-free, so that any module may hold one. Its fields are listed once,
// in fields() below, for every reader and writer of them: the YAML loader (net_config.cpp), the
// checkpoint metadata (checkpoint_meta.cpp), the comparison of two architectures
// (architecture.cpp) and the check of configs built in code (validate). The defaults below are the
// only defaults.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::net {

// A residual tower (AlphaZero) over the 8x8 input planes with a policy head over the action
// space, a win/draw/loss value head and an optional moves-left head (lc0). Optional global-pooling
// bias blocks (KataGo, arXiv:1902.10565 section 3.2) let the tower see the whole board at once.
struct NetConfig {
  std::string name = "custom";
  int blocks = 6;                 // residual blocks in the tower
  int channels = 64;              // channels of every tower convolution
  int global_pool_every = 0;      // 0: none; k: every k-th block (1-based) is a global-pooling block
  int global_pool_channels = 32;  // channels pooled (mean and max) in such a block
  int policy_channels = 32;       // the policy head's first convolution
  // The policy head: false, a 1x1 convolution and a linear layer onto the action space; true,
  // a 3x3 convolution and a 1x1 convolution onto the game's move planes (GameSpec::policy_map,
  // AlphaZero's layout), gathered into action ids: a move's logit is computed where it starts,
  // by weights shared across the board.
  bool spatial_policy = false;
  int value_channels = 32;  // 1x1 convolution before the value's hidden layer
  int value_hidden = 128;   // hidden units of the value (and moves-left) head
  bool moves_left = false;  // a moves-left head (expected plies to the end)
  int moves_left_channels = 8;

  bool operator==(const NetConfig&) const = default;
};

// Every field of NetConfig, with its range and the rules across fields (the visitor interface of
// config/section.h). The keys are the YAML keys; checkpoints store them as "net.<key>".
template <typename V>
void fields(V& v, NetConfig& n) {
  v.text("name", n.name);
  v.num("blocks", n.blocks, 1, 64);
  v.num("channels", n.channels, 4, 1024);
  v.num("global_pool_every", n.global_pool_every, 0, 64);
  v.num("global_pool_channels", n.global_pool_channels, 1, 1024);
  v.num("policy_channels", n.policy_channels, 1, 256);
  v.flag("spatial_policy", n.spatial_policy);
  v.num("value_channels", n.value_channels, 1, 256);
  v.num("value_hidden", n.value_hidden, 1, 4096);
  v.flag("moves_left", n.moves_left);
  v.num("moves_left_channels", n.moves_left_channels, 1, 256);
  v.check(n.global_pool_every <= n.blocks, "global_pool_every",
          "must be at most '" + v.path("blocks") + "' (" + std::to_string(n.blocks) + ")");
  v.check(n.global_pool_every == 0 || n.global_pool_channels <= n.channels, "global_pool_channels",
          "must be at most '" + v.path("channels") + "' (" + std::to_string(n.channels) + ")");
}

// Whether the field `key` shapes the network `n` (a field of a head or block kind that `n` does
// not have does not): only such fields must agree for weights to load.
bool field_in_use(const NetConfig& n, std::string_view key);

// Parses a network description; `source` names the text in error messages, which name the line
// and the key.
Result<NetConfig> parse_net_config(std::string_view yaml, std::string_view source);

// A preset by name (tiny, quick, long, small, medium, large: configs/nets/<name>.yaml, compiled in) or the
// path of a YAML file.
Result<NetConfig> load_net_config(std::string_view name_or_path);

std::vector<std::string> builtin_net_presets();

// Checks the ranges of a config built in code (the loaders check them on the way in).
Result<NetConfig> validate(NetConfig net);

}  // namespace sz::net
