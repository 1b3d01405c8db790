#pragma once
// What the search asks of a network: priors over the legal actions and a win/draw/loss value.
// Implemented by nn/ (LibTorch) and by the trivial evaluators below; the search never includes
// torch. Batches come from many games at once (parallelism across games, not inside a tree).
#include <cmath>
#include <functional>
#include <memory>
#include <span>

#include "game/game_state.h"

namespace sz::search {

// W - L of a material balance (game::Heuristics::material's units, pawns in chaturanga) from the side
// to move's view: tanh(material / 5), a rook up 0.76. The material yardstick's value and the leaf
// quiescence's (LeafSearchConfig::quiescence).
inline float material_value(float material) { return std::tanh(material / 5.0f); }

struct EvalQuery {
  const game::GameState* state;
  std::span<const game::ActionId> actions;  // the legal actions, as the search ordered them
};

struct EvalReply {
  std::span<float> priors;  // caller-owned, one per query action, same order; written as probabilities
  float wdl[3] = {1.0f / 3, 1.0f / 3, 1.0f / 3};  // win/draw/loss from the side to move's view
  float moves_left = 0;                           // expected plies to the end, 0 if the network has no such head
};

// What an evaluator's replies say about a position: a network knows both; the uniform bootstrap
// neither (its prior is uniform, its value a constant draw), so a search over it yields no value
// and no policy worth learning (self-play records its rows without either target).
struct Knowledge {
  bool prior = true;
  bool value = true;
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Fills replies[i] for queries[i]. Implementations state their thread-safety.
  virtual void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) = 0;
  virtual Knowledge knowledge() const { return {}; }
};

// Makes the evaluator of worker `index` (a self-play worker, an arena slot, an engine): each
// thread gets an instance of its own. May be called from several threads at once. Implemented by
// nn::evaluator_factory for networks; tests and the bootstrap return the evaluators below.
using EvaluatorFactory = std::function<std::unique_ptr<Evaluator>(int index)>;

// The bootstrap player: a uniform prior and a zero value (W - L = 0). Thread-safe.
class UniformEvaluator final : public Evaluator {
 public:
  void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      const float p = queries[i].actions.empty() ? 0.0f : 1.0f / float(queries[i].actions.size());
      for (float& prior : replies[i].priors) prior = p;
      replies[i].wdl[0] = replies[i].wdl[2] = 0.0f;
      replies[i].wdl[1] = 1.0f;
      replies[i].moves_left = 0;
    }
  }
  Knowledge knowledge() const override { return {.prior = false, .value = false}; }
};

}  // namespace sz::search
