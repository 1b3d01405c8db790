#pragma once
// A checkpoint on the game clients' runtime (client/eigen_evaluator.h): its playing weights (the
// averaged ones where it has them, as a bundle of it carries) in the Eigen forward pass, for
// `sittuyin-zero uci`, which evaluates one position at a time. Includes neither torch nor Eigen.
#include <memory>
#include <string>

#include "game/game_state.h"
#include "search/evaluator.h"

namespace sz::bundle {

// An evaluator of `checkpoint`'s network for positions of the game `spec` encodes, `max_batch`
// positions a forward pass. Not thread-safe: one per thread. Throws sz::Error naming the
// checkpoint (unreadable, another encoding, an architecture the runtime cannot run).
std::unique_ptr<search::Evaluator> checkpoint_on_client_runtime(const std::string& checkpoint,
                                                                const game::GameSpec& spec, int max_batch = 1);

}  // namespace sz::bundle
