#include "search/leaf_blend.h"

#include <algorithm>
#include <cmath>

namespace sz::search {

void blend_value(float (&wdl)[3], float weight, float q) {
  if (!std::isfinite(wdl[0]) || !std::isfinite(wdl[1]) || !std::isfinite(wdl[2])) wdl[0] = wdl[1] = wdl[2] = 0;
  const float keep = 1 - weight;
  wdl[0] = keep * wdl[0] + weight * std::max(q, 0.0f);
  wdl[1] = keep * wdl[1] + weight * (1 - std::fabs(q));
  wdl[2] = keep * wdl[2] + weight * std::max(-q, 0.0f);
}

void LeafBlend::evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) {
  inner_.evaluate(queries, replies);
  if (!heuristics_) return;
  for (size_t i = 0; i < queries.size(); ++i) {
    const game::GameState& state = *queries[i].state;
    const float material = heuristics_->quiescent_material(state, leaf_.full_plies, leaf_.quiescence_plies);
    const float hunt = leaf_.king_hunt > 0 ? heuristics_->king_hunt(state) : 0.0f;
    blend_value(replies[i].wdl, leaf_.quiescence, hunted_material_value(material, hunt, leaf_));
  }
}

float hunted_material_value(float material, float hunt, const LeafSearchConfig& leaf) {
  const float q = material_value(material + leaf.king_hunt * hunt);
  if (hunt == 0 || leaf.hunt_share <= 0) return q;
  const float alone = material_value(material);  // how saturated the squash is: alone^2
  const float share = leaf.hunt_share * alone * alone;
  // |hunt| <= 1 (game::Heuristics): a mix of two values; the clamp only catches rounding.
  return std::clamp((1 - share) * q + share * hunt, -1.0f, 1.0f);
}

}  // namespace sz::search
