#include "eval/material_evaluator.h"

#include "heuristics/heuristics.h"
#include "search/leaf_blend.h"

namespace sz::eval {

void MaterialEvaluator::evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) {
  for (size_t i = 0; i < queries.size(); ++i) {
    search::EvalReply& r = replies[i];
    const float p = queries[i].actions.empty() ? 0.0f : 1.0f / float(queries[i].actions.size());
    for (float& prior : r.priors) prior = p;
    const game::GameState& state = *queries[i].state;
    const game::Heuristics* heuristics = heuristics::of_game(state.spec().game);
    search::blend_value(r.wdl, 1.0f, search::material_value(heuristics ? heuristics->material(state) : 0.0f));
    r.moves_left = 0;
  }
}

}  // namespace sz::eval
