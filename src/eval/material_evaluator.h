#pragma once
// A classical yardstick for the arena: a uniform prior and a value from the material balance,
// read from the network input (docs/ENCODING.md, encoder 1: planes 0-5 the mover's pawns,
// knights, elephants, mets/ferses, rooks, king; 6-11 the opponent's; scalars 0-9 the men in
// hand). Between the uniform bootstrap and a trained network, it shows what a search that only
// counts men achieves at a number of simulations.
#include <span>

#include "search/evaluator.h"

namespace sz::eval {

// Material from the mover's view in pawns: P 1, N 3, elephant 2.5, met/fers 1.5, R 5; men in
// hand count as on the board. Throws sz::Error for a game encoded otherwise.
float material_balance(const game::GameState& state);

// W - L = tanh(balance / 5), the rest a draw. Thread-safe.
class MaterialEvaluator final : public search::Evaluator {
 public:
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override;
};

}  // namespace sz::eval
