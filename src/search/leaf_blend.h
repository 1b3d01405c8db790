#pragma once
// The leaf search's value (LeafSearchConfig::quiescence, king_hunt, hunt_share): an evaluator around another
// that blends each reply's W/D/L with the material its position holds once the captures pending
// are played out (game::Heuristics), from the side to move's view. The search never sees it: whoever
// owns a search's evaluator wraps it (self-play, the arena's players, `uci`, the clients' C API),
// and a better network makes a stronger engine wherever the blend leaves the value a weight.
#include <span>

#include "game/heuristics.h"
#include "search/evaluator.h"
#include "search/play_settings.h"

namespace sz::search {

// Thread-safety as the inner evaluator's. The blend of two W/D/L values is one: W + D + L = 1.
class LeafBlend final : public Evaluator {
 public:
  // Off (a plain pass-through) where `leaf.quiescence` is 0 or `heuristics` null (a game without
  // them). `inner` and `heuristics` must outlive this.
  LeafBlend(Evaluator& inner, const LeafSearchConfig& leaf, const game::Heuristics* heuristics)
      : inner_(inner), leaf_(leaf), heuristics_(leaf.quiescence > 0 ? heuristics : nullptr) {}

  void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) override;
  Knowledge knowledge() const override { return inner_.knowledge(); }
  bool on() const { return heuristics_ != nullptr; }

 private:
  Evaluator& inner_;
  LeafSearchConfig leaf_;
  const game::Heuristics* heuristics_;
};

// The leaf's W - L for its resolved `material` and its king hunt `hunt` (game::Heuristics, both
// from the side to move's view): material_value of the material with `leaf.king_hunt` times the
// hunt, and `leaf.hunt_share` of the hunt itself as far as the material's value is saturated.
float hunted_material_value(float material, float hunt, const LeafSearchConfig& leaf);

// `wdl`, from the side to move's view, blended with `weight` of a value whose W - L is `q` and
// whose D is 1 - |q| (no loss where it wins): the leaf blend's arithmetic, and with weight 1 the
// material yardstick's value (eval/material_evaluator.h). A non-finite `wdl` counts as a draw.
void blend_value(float (&wdl)[3], float weight, float q);

}  // namespace sz::search
