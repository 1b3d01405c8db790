#pragma once
// The held-out check (internal to train/; includes torch): before the trainer trains on games
// that arrived since its last training, the network as it stands is scored on them, positions it
// has never trained on (lc0's test set comes from the newest games the same way). Losses per
// head, and the value's calibration by material edge: the mean predicted W - L against the mean
// result, positions grouped by the mover's material edge (pawns, rounded, -6..+6), which says
// whether the value has learned that men matter.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/network.h"
#include "train/batch.h"
#include "train/window.h"

namespace sz::train {

inline constexpr int kMaxEdge = 6;  // material edges beyond +-6 pawns count as +-6

struct HeldoutReport {
  int64_t step = 0;       // the network's step: trained on none of these positions
  int64_t positions = 0;  // scored
  int64_t policy_positions = 0;
  double policy = 0;      // mean cross-entropy over the positions with a policy target
  double wdl = 0;         // mean cross-entropy against the training's value target
  double wdl_result = 0;  // ... against the game's result alone
  struct Bin {
    int64_t n = 0;
    double predicted = 0, actual = 0;  // mean W - L: the network's, the game result's (mover's view)
  };
  std::array<Bin, 2 * kMaxEdge + 1> by_edge{};  // index edge + kMaxEdge
};

// Scores `net` (put in eval mode for the pass, then back in train mode) on `rows` of `window`,
// in batches of `batch_size`, on `device`. The value target mixes as `spec` says.
HeldoutReport score_heldout(models::Network& net, const Window& window, const std::vector<int64_t>& rows,
                            const BatchSpec& spec, const torch::Device& device, int action_space, int64_t step);

// The window rows of shards after `trained_newest` (the newest shard the network trained with, a
// file name; "" for none, when nothing is held out), at most `limit` of them, the newest.
std::vector<int64_t> fresh_rows(const Window& window, const std::string& trained_newest, int64_t limit);

std::string heldout_json(const HeldoutReport& report, double unix_time);  // one JSON object, no newline
// "held out: 12000 positions of newer games at step 3600: policy 2.31, wdl 0.81 (result 0.77);
//  W - L by material edge, predicted/actual: -3 -0.05/-0.12 (410) ..."
std::string heldout_line(const HeldoutReport& report);

}  // namespace sz::train
