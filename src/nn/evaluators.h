#pragma once
// The evaluators that self-play, the arena, the UCI engine and the loop hand to the search.
#include <string>

#include "nn/inference_config.h"
#include "search/evaluator.h"

namespace sz::nn {

// Evaluators of the checkpoint `model`, or the uniform bootstrap (uniform prior, zero value)
// when `model` is empty. On CUDA every worker shares one InferenceService, so that the device
// sees one batch from all of them; on the CPU each worker gets a NetEvaluator of its own with
// `inference.threads` intra-op threads (measured on 2 cores: independent one-thread evaluators
// degrade gracefully where one two-thread evaluator collapsed 10-100x). The factory may be
// called from several threads at once. `spec` is the encoding of the game to be played (the
// checkpoint must read and write it). Throws sz::Error at once if `model` cannot be read or does
// not fit `spec`.
//
//
// `clients`: how many threads use the factory's evaluators at once, one position at a time (the
// arena's games in flight). More than the machine has cores, they share one InferenceService on
// the CPU too, which runs a batch as soon as all of them wait (max_batch = clients): a match then
// evaluates many games' leaves per forward pass instead of one each.
search::EvaluatorFactory evaluator_factory(const std::string& model, const game::GameSpec& spec,
                                           const InferenceConfig& inference, int clients = 1);

}  // namespace sz::nn
