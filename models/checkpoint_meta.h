#pragma once
// What a checkpoint says about itself, readable without loading its weights (and without torch
// in the includer): the architecture, the encoding, the rule profiles it was trained on, the
// training step and the optimiser. Stored as "key: value" lines inside the checkpoint file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "net/architecture.h"

namespace sz::models {

// 2: adds `checksum`. Format 1 (no checksum) still reads; its tensors cannot be verified.
// 3: the trainer's state rides inside the checkpoint (`trainer_state`, covered by the checksum);
// format 2 and older kept it in a .state file beside it (train/run_files.h), which still reads.
// 4: may hold the trainer's averaged weights (`model_averaged`, covered by the checksum), which
// are the ones a player loads (load_network).
inline constexpr int kCheckpointFormatVersion = 4;  // bump => teach meta_from_text the old one

struct CheckpointMeta {
  int format_version = kCheckpointFormatVersion;
  net::Architecture arch;
  std::vector<std::string> profiles;  // rule profiles of the training data
  int64_t step = 0;                   // training steps taken
  std::string optimizer;              // "sgd", "adamw", or empty without optimiser state
  // "fnv1a64:<16 hex digits>": the sum of the FNV-1a hashes of every tensor and value of the
  // weights and the optimiser state as stored, and of the trainer's state (models/checkpoint.cpp),
  // so that a damaged file is refused on load. Formats 2 and 3 require it; empty in format 1.
  std::string checksum;
  // The state of the program that trained the weights (the trainer's, train/run_files.h), opaque
  // here; stored beside the weights, not in these "key: value" lines. "" when there is none
  // (a checkpoint written by anything but the trainer, or of format 2 and older).
  std::string trainer_state;
};

std::string meta_to_text(const CheckpointMeta& meta);
// `source` names the checkpoint in error messages. Unknown keys and newer formats are errors.
Result<CheckpointMeta> meta_from_text(std::string_view text, std::string_view source);

// The metadata of the checkpoint at `path`; throws sz::Error if it is not a readable checkpoint.
CheckpointMeta read_checkpoint_meta(const std::string& path);

// Throws sz::Error naming every difference when a checkpoint made for `found` cannot serve as
// `want` (another architecture, another game, another encoder or action-space version).
void check_compatible(const net::Architecture& want, const CheckpointMeta& found, std::string_view path);

// Throws sz::Error unless the checkpoint's encoding is the one `spec` (the game as built now)
// reads and writes: a network trained on encoder 1 must not read encoder 2's planes.
void check_encoding(const game::GameSpec& spec, const CheckpointMeta& found, std::string_view path);

}  // namespace sz::models
