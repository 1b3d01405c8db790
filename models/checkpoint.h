#pragma once
// Checkpoints (LibTorch): weights, optimiser state and metadata (checkpoint_meta.h) in one file,
// written atomically: to a temporary name beside the target, fsync, rename, fsync the directory,
// so that a reader (self-play picking up the newest net) never sees half a file.
#include <torch/torch.h>

#include <string>
#include <string_view>

#include "models/checkpoint_meta.h"
#include "models/network.h"

namespace sz::models {

// Writes `net` (and `optimizer` when given, and `averaged`: the trainer's average of net's recent
// weights, which players load instead of net's) with `meta`, whose architecture, format and
// optimizer fields are filled in here from `net` and `optimizer_kind` ("sgd", "adamw": see
// optimizer_name()), and meta.trainer_state when not empty. Throws sz::Error on failure; the
// previous file at `path` then stays.
void save_checkpoint(const std::string& path, const Network& net, const torch::optim::Optimizer* optimizer,
                     std::string_view optimizer_kind, CheckpointMeta meta, const Network* averaged = nullptr);

// Loads the weights into `net` (and the optimiser state into `optimizer` when given and stored;
// the averaged weights into averaged->net when given and stored, setting averaged->loaded).
// Throws sz::Error naming each difference when the checkpoint's architecture or encoding is not
// net's, and when an optimiser of another kind is asked for. Returns the metadata.
struct AveragedWeights {
  Network* net = nullptr;  // where to load them
  bool loaded = false;     // set: the checkpoint held them
};
CheckpointMeta load_checkpoint(const std::string& path, Network& net, torch::optim::Optimizer* optimizer = nullptr,
                               std::string_view optimizer_kind = {}, AveragedWeights* averaged = nullptr);

// A new network (on the CPU, in eval mode) with the checkpoint's own architecture and the weights
// a player uses: the averaged ones where the checkpoint holds them, else the trained ones.
// `spec` is the encoding of the game it is to play as this build has it: the checkpoint's
// encoding must be that one (check_encoding throws sz::Error naming each difference), and its
// policy map, which files do not store, comes from it.
struct LoadedNetwork {
  Network net{nullptr};
  CheckpointMeta meta;
};
LoadedNetwork load_network(const std::string& path, const game::GameSpec& spec);

}  // namespace sz::models
