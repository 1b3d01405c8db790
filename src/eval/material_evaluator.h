#pragma once
// A classical yardstick for the arena: a uniform prior and a value from the material balance
// (game::Heuristics::material: chaturanga counts P 1, N 3, elephant 2.5, met/fers 1.5, R 5, men in hand
// as on the board). Between the uniform bootstrap and a trained network, it shows what a search
// that only counts men achieves at a number of simulations.
#include <span>

#include "search/evaluator.h"

namespace sz::eval {

// W - L = search::material_value(material), the rest a draw. Thread-safe.
class MaterialEvaluator final : public search::Evaluator {
 public:
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override;
  search::Knowledge knowledge() const override { return {.prior = false, .value = true}; }
};

}  // namespace sz::eval
