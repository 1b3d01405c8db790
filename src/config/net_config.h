#pragma once
// Network architecture (configs/nets/*.yaml) and inference settings, as plain structs: no torch
// and no yaml here, so any module may hold them. The defaults below are the only defaults; the
// YAML loaders (net_config.cpp) are strict: an unknown key or an out-of-range value is an error
// naming the file, the line and the key.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::config {

class StrictMap;

}  // namespace sz::config

namespace YAML {
class Node;
}

namespace sz::config {

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
  int value_channels = 32;        // 1x1 convolution before the value's hidden layer
  int value_hidden = 128;         // hidden units of the value (and moves-left) head
  bool moves_left = false;        // a moves-left head (expected plies to the end)
  int moves_left_channels = 8;

  bool operator==(const NetConfig&) const = default;
};

enum class Precision { Float32, Float16, BFloat16 };

// How a network runs at inference (nn/). Defaults never oversubscribe a small machine: one
// torch intra-op thread per evaluator (measured on 2 cores: two intra-op threads inside one
// evaluator collapsed 10-100x as soon as anything else used a core).
struct InferenceConfig {
  std::string device = "auto";               // auto | cpu | cuda | cuda:N
  Precision precision = Precision::Float32;  // float16: CUDA only; bfloat16: CPU only
  int threads = 1;                           // torch intra-op threads, set once per process
  int max_batch = 256;                       // positions per forward pass
  int max_wait_us = 1000;                    // a partial batch runs after this long
  int cache_entries = 1 << 16;               // 0: no cache
  int cache_shards = 16;

  bool operator==(const InferenceConfig&) const = default;
};

std::string_view precision_name(Precision p);

// Parses a network description; `source` names the text in error messages.
Result<NetConfig> parse_net_config(std::string_view yaml, std::string_view source);

// A preset by name (tiny, small, medium, large: configs/nets/<name>.yaml, compiled in) or the
// path of a YAML file.
Result<NetConfig> load_net_config(std::string_view name_or_path);

std::vector<std::string> builtin_net_presets();

// Inference settings from a YAML mapping (all keys optional), standalone or as the section of a
// larger config: its loader passes the section's StrictMap and node (throws sz::Error).
Result<InferenceConfig> parse_inference_config(std::string_view yaml, std::string_view source);
void read_inference_config(StrictMap& map, const YAML::Node& node, InferenceConfig& out);

// Checks the ranges of a config built in code (the loaders check them on the way in).
Result<NetConfig> validate(NetConfig net);

}  // namespace sz::config
