#pragma once
// Training batches from window rows (internal to train/; includes torch). The loader thread
// builds a HostBatch (compact rows: 224 bytes of input a position plus the sparse policy) and,
// on the CPU, finishes it into a LossBatch at once; on CUDA the trainer copies the compact rows
// to the device and expands them there (models::expand_input), which moves ~50x fewer bytes.
#include <torch/torch.h>

#include <cstdint>
#include <span>

#include "models/training.h"
#include "train/window.h"

namespace sz::train {

struct HostBatch {
  int64_t step = -1;           // the training step this batch is for
  torch::Tensor planes;        // [B, binary_planes] int64 (the uint64 bitboards)
  torch::Tensor scalars;       // [B, scalar_features] float
  torch::Tensor policy_index;  // [B, K] int64: sparse policy target, padded with (0, 0.0)
  torch::Tensor policy_prob;   // [B, K] float
  torch::Tensor policy_mask;   // [B] float: 1 for positions whose policy is a target
  torch::Tensor policy_legal;  // [B, K] float: 1 where the entry is a legal action of a row that lists them all
  torch::Tensor lists_legal;   // [B] bool: the row's policy entries are its legal actions
  torch::Tensor wdl;           // [B, 3] float: win, draw, loss from the side to move's view (BatchSpec)
  torch::Tensor moves_left;    // [B] float: plies to the end of the game
};

// What a batch is drawn from and trained towards.
struct BatchSpec {
  uint64_t seed = 0;
  int batch_size = 256;
  Sampling sampling;
  // The WDL target: (1 - w) * the result (one-hot) + w * the search's value (TrainConfig), the
  // result alone for rows whose search had no value.
  double value_target_search = 0;
  // Non-empty: each row is mirrored a <-> h with probability 1/2 (GameSpec::mirror_actions, the
  // twin of every action; TrainConfig::mirror), by a stream of its own from the batch's seed.
  std::span<const int32_t> mirror_actions{};
};

// Batch `step`: spec.batch_size rows sampled from `window` (sample_rows), about half of them
// mirrored where spec.mirror_actions is given. `pinned`: page-locked host memory, for an
// asynchronous copy to a GPU.
HostBatch make_host_batch(const Window& window, const BatchSpec& spec, int64_t step, bool pinned);

// The same for the given window rows, in order and never mirrored (the held-out check).
HostBatch host_batch_of_rows(const Window& window, const std::vector<int64_t>& rows, const BatchSpec& spec,
                             bool pinned);

// Mirrors row j of `batch` (a <-> h): each plane's ranks reversed bit by bit, each policy entry's
// action replaced by its twin. Its own inverse.
void mirror_row(HostBatch& batch, int64_t j, std::span<const int32_t> mirror_actions);

// The LossBatch on `device`: the input expanded, the policy target dense over action_space.
// moves_left stays undefined unless `with_moves_left`.
models::LossBatch to_loss_batch(const HostBatch& batch, const torch::Device& device, int action_space,
                                bool with_moves_left);

}  // namespace sz::train
