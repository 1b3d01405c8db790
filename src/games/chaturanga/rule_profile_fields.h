#pragma once
// The fields of a rule profile file, listed once (the visitor interface of config/section.h),
// for every reader and writer of profiles: the YAML reader (rule_profiles.cpp, which adds the
// top-level `id`, `source` and `game`), and the game clients' bundle, which carries the profiles
// a network was trained on as JSON (bundle/, client/). Yaml-free: the rules core and the client
// runtime include it without linking yaml-cpp.
#include "games/chaturanga/profile.h"

namespace sz::chaturanga {

// The `placement` section (Sittuyin only).
template <typename V>
void placement_fields(V& v, RuleProfile& p) {
  v.choice("order", p.placement_order,
           {{"alternate", PlacementOrder::Alternate}, {"white-then-black", PlacementOrder::WhiteThenBlack}});
  v.range("men_ranks", p.men_ranks, 1, 4);
  v.range("rook_ranks", p.rook_ranks, 1, 4);
  v.flag("rook_needs_screen", p.rook_needs_screen);
}

// The `promotion` section (Sittuyin only).
template <typename V>
void promotion_fields(V& v, RuleProfile& p) {
  v.flag("diagonal_step", p.promotion_diagonal_step);
  v.flag("last_pawn_anywhere", p.last_pawn_promotes_anywhere);
  v.flag("no_discovered_check", p.promotion_no_discovered_check);
}

// The `end` section.
template <typename V>
void end_fields(V& v, RuleProfile& p) {
  v.choice("stalemate", p.stalemate,
           {{"draw", StalemateRule::Draw},
            {"illegal-to-cause", StalemateRule::IllegalToCause},
            {"loss", StalemateRule::Loss}});
  v.flag("promotion_only_draw", p.promotion_only_draw);
  v.choice("counting", p.counting, {{"asean", CountingRule::Asean}, {"none", CountingRule::None}});
  v.num("n_move_plies", p.n_move_plies, 0, 1000);
  v.num("repetitions", p.repetitions, 0, 10);
  v.choice("insufficient_material", p.insufficient,
           {{"pychess", InsufficientMaterialRule::Pychess},
            {"bare-kings", InsufficientMaterialRule::BareKings},
            {"none", InsufficientMaterialRule::None}});
  v.flag("bare_king_loses", p.bare_king_loses);
}

}  // namespace sz::chaturanga
