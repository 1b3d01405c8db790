#include "eval/material_evaluator.h"

#include <algorithm>
#include <cmath>

namespace sz::eval {

void MaterialEvaluator::evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) {
  for (size_t i = 0; i < queries.size(); ++i) {
    search::EvalReply& r = replies[i];
    const float p = queries[i].actions.empty() ? 0.0f : 1.0f / float(queries[i].actions.size());
    for (float& prior : r.priors) prior = p;
    const float q = search::material_value(queries[i].state->material());
    r.wdl[0] = std::max(q, 0.0f);
    r.wdl[2] = std::max(-q, 0.0f);
    r.wdl[1] = 1.0f - std::fabs(q);
    r.moves_left = 0;
  }
}

}  // namespace sz::eval
