#pragma once
// What a checkpoint says about itself, readable without loading its weights (and without torch
// in the includer): the architecture, the encoding, the rule profiles it was trained on, the
// training step and the optimiser. Stored as "key: value" lines inside the checkpoint file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "models/architecture.h"

namespace sz::models {

// 2: adds `checksum`. Format 1 (no checksum) still reads; its tensors cannot be verified.
inline constexpr int kCheckpointFormatVersion = 2;  // bump => teach meta_from_text the old one

struct CheckpointMeta {
  int format_version = kCheckpointFormatVersion;
  Architecture arch;
  std::vector<std::string> profiles;  // rule profiles of the training data
  int64_t step = 0;                   // training steps taken
  std::string optimizer;              // "sgd", "adamw", or empty without optimiser state
  // "fnv1a64:<16 hex digits>": the sum of the FNV-1a hashes of every tensor and value of the
  // weights and the optimiser state as stored (models/checkpoint.cpp), so that a damaged file is
  // refused on load. Format 2 requires it; empty in format 1.
  std::string checksum;
};

std::string meta_to_text(const CheckpointMeta& meta);
// `source` names the checkpoint in error messages. Unknown keys and newer formats are errors.
Result<CheckpointMeta> meta_from_text(std::string_view text, std::string_view source);

// The metadata of the checkpoint at `path`; throws sz::Error if it is not a readable checkpoint.
CheckpointMeta read_checkpoint_meta(const std::string& path);

// Throws sz::Error naming every difference when a checkpoint made for `found` cannot serve as
// `want` (another architecture, another game, another encoder or action-space version).
void check_compatible(const Architecture& want, const CheckpointMeta& found, std::string_view path);

// Throws sz::Error unless the checkpoint's encoding is the one `spec` (the game as built now)
// reads and writes: a network trained on encoder 1 must not read encoder 2's planes.
void check_encoding(const game::GameSpec& spec, const CheckpointMeta& found, std::string_view path);

}  // namespace sz::models
