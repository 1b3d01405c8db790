#pragma once
// Draw adjudication by the searches' values (KataGo cuts its search in decided positions; match
// referees such as cutechess adjudicate a draw when both engines' scores stay near zero): a game
// whose move-count rules have run `progress` of their way (GameState::draw_rule_progress: the
// n-move clock or the count) and whose movers' root values W - L have stayed within +-`value`
// for `plies` plies in a row is scored a draw ("adjudicated-draw") instead of played out to the
// rules' end. Self-play (selfplay/game_slot.h) and the loop's matches (eval/arena.h) use it; in
// self-play `control_fraction` of the games never apply it and measure how often it would have
// been wrong (the progress line's "draw FP"). The `adjudicate` section of a run config.
#include "game/game_state.h"

namespace sz::search {

struct DrawAdjudication {
  bool draws = true;
  float progress = 0.5f;          // (0, 1]
  float value = 0.1f;             // |W - L| of the mover's root, [0, 1]
  int plies = 10;                 // plies in a row, both sides' moves
  double control_fraction = 0.1;  // self-play's share of games that never adjudicate, [0, 1]
};

// Every key of the `adjudicate` section, with its range.
template <typename V>
void fields(V& v, DrawAdjudication& c) {
  v.flag("draws", c.draws);
  v.num("progress", c.progress, 0.01f, 1.0f);
  v.num("value", c.value, 0.0f, 1.0f);
  v.num("plies", c.plies, 1, 100'000);
  v.num("control_fraction", c.control_fraction, 0.0, 1.0);
}

// Counts the plies in a row that met the conditions, one game at a time.
class FlatPlies {
 public:
  // After a search of `state` (the mover's root value `w_minus_l`): true once the game may be
  // adjudicated a draw.
  bool add(const DrawAdjudication& a, const game::GameState& state, float w_minus_l) {
    const bool flat = a.draws && state.phase() == game::Phase::Play && state.draw_rule_progress() >= a.progress &&
                      w_minus_l <= a.value && w_minus_l >= -a.value;
    count_ = flat ? count_ + 1 : 0;
    return count_ >= a.plies;
  }
  void reset() { count_ = 0; }

 private:
  int count_ = 0;
};

}  // namespace sz::search
