#pragma once
// From a network output row (NetRunner's layout) to what the search wants. Torch-free.
#include <cstdint>
#include <span>

#include "game/game_state.h"
#include "search/evaluator.h"

namespace sz::net {

// priors[i] = exp(logits[actions[i]]) / sum_j exp(logits[actions[j]]): the softmax over the
// legal actions only, so an illegal action gets exactly zero prior however large its logit.
// No legal actions: nothing to write.
void legal_softmax(const float* logits, std::span<const game::ActionId> actions, std::span<float> priors);

// Whether all `count` floats at `values` are finite (no NaN, no infinity). One pass that the
// compiler vectorises; for checking a whole batch of network outputs at once.
bool all_finite(const float* values, size_t count);

// Fills `reply` for `query` from `row`: legal-action priors, WDL softmax, moves left in plies.
void decode_row(const float* row, int action_space, const search::EvalQuery& query, search::EvalReply& reply);

// Writes `state`'s encoding into row `i` of planes/scalars arrays laid out as NetRunner's
// staging rows. Throws sz::Error when the state's encoding is not the network's (another game,
// encoder or action-space version).
void encode_row(const game::GameState& state, const game::GameSpec& net_spec, uint64_t* planes, float* scalars, int i);

}  // namespace sz::net
