#include "heuristics/heuristics.h"

#include <algorithm>

#include "games/chaturanga/state.h"
#include "heuristics/forced_win.h"
#include "heuristics/quiescence.h"

namespace sz::heuristics {
namespace {

// Sittuyin and Shatranj: one implementation over the rules core's Position, the profile saying
// which is played.
class ChaturangaHeuristics final : public game::Heuristics {
 public:
  float material(const game::GameState& state) const override { return chaturanga::material_balance(pos(state)); }
  float quiescent_material(const game::GameState& state, int full_plies, int max_plies) const override {
    return chaturanga::quiescent_balance(pos(state), full_plies, max_plies);
  }
  float king_hunt(const game::GameState& state) const override { return chaturanga::king_hunt(pos(state)); }
  bool forces_win(const game::GameState& state, int moves) const override {
    const auto& s = chaturanga_state(state);
    return chaturanga::forces_win(s.position(), s.history(), std::clamp(moves, 1, game::kMaxForcedWinMoves));
  }

 private:
  // Throws std::bad_cast for a state of another game: a caller's mix-up, never a wrong value.
  static const chaturanga::State& chaturanga_state(const game::GameState& state) {
    return dynamic_cast<const chaturanga::State&>(state);
  }
  static const chaturanga::Position& pos(const game::GameState& state) { return chaturanga_state(state).position(); }
};

}  // namespace

const game::Heuristics* of_game(std::string_view game) {
  static const ChaturangaHeuristics chaturanga;
  for (const auto g : {chaturanga::Game::Sittuyin, chaturanga::Game::Shatranj})
    if (game == chaturanga::game_name(g)) return &chaturanga;
  return nullptr;
}

}  // namespace sz::heuristics
