#pragma once
// The play settings: the search settings a player may change at play time, each declared once
// (search_config.h: play_settings), with its config key, its player-spec key, its UCI option and
// its help. From that one declaration come the keys of the `search` and `play` sections
// (SearchConfig's fields()), the player specs' settings (eval/player_spec.h), the UCI options
// (uci/uci_engine.h) and the lines of their help texts, so that none of them can disagree about
// a name or a range. Most of them tune the leaf search, LeafSearchConfig below.
//
// A visitor of play settings has one member template,
//
//   template <typename T, typename N>
//   void setting(const PlaySetting& s, T& field, N lo, N hi);  // T: int or float, maybe const
//
// Adding a leaf-search setting: a field of LeafSearchConfig and its line in leaf_settings()
// here, its use in the leaf blend (leaf_blend.h) or the search (game_search.cpp), its row in
// docs/EVALUATION.md.
#include "game/heuristics.h"

namespace sz::search {

// How one play setting is named outside its struct.
struct PlaySetting {
  const char* key;   // in the config's `search` and `play` sections: "leaf_quiescence"
  const char* spec;  // in a player spec (`model:M,qs=1`): "qs"
  const char* uci;   // the UCI spin option: "Leaf Quiescence"
  int uci_scale;     // the option's value is the setting's times this (100: percent), its range too
  const char* help;  // what it does, for help texts (the range and the default are added there)
};

// The leaf search: what the search adds to the evaluator's value at a leaf. Off by default
// (quiescence and win_moves 0); the quickstart's `play` section turns it on for the shipped
// engine, and self-play searches without it.
struct LeafSearchConfig {
  // A leaf's W/D/L blended with this weight of a capture-resolved material value (leaf_blend.h):
  // W - L = material_value(Heuristics::quiescent_material), the captures pending played out to
  // quiescence_plies plies, as classical engines resolve captures before they evaluate. A small
  // network's value hardly counts men (docs/BENCHMARKS.md); 1 searches on resolved material
  // alone (the network gives the priors).
  float quiescence = 0.0f;
  int quiescence_plies = 8;
  // With quiescence: plies of every legal move searched before the captures. One sees a fork or
  // a man attacked twice, which standing pat cannot (Fairy-Stockfish at one node searches one
  // such ply); docs/BENCHMARKS.md (E17, E18) has what two and three are worth.
  int full_plies = 0;
  // With quiescence: this weight of Heuristics::king_hunt added to the resolved material, so that
  // a won ending has quiet moves that score better than others (Stockfish's mop-up).
  float king_hunt = 0.0f;
  // With the king hunt: a share of the leaf's W - L given to the hunt itself, outside the
  // material's squash (material_value, a tanh), scaled by how saturated that squash is (the
  // square of the material's value). Far ahead, tanh leaves a hunt of 0.9 pawns a few thousandths
  // of value and every quiet move of a won ending scores alike; this share keeps their order.
  float hunt_share = 0.0f;
  // A leaf whose mover forces a win within this many of its moves (Heuristics::forces_win: 1 a
  // mate in one, 2 a check after which every reply allows one, ...) is scored as the win it is,
  // a terminal, without the evaluator: a move that walks into a mate is refuted on its first
  // visit, not when the search happens to try the mating line.
  int win_moves = 0;
};

// The leaf search's settings, declared once (see the top of this file). C: LeafSearchConfig,
// const or not.
template <typename V, typename C>
void leaf_settings(V& v, C& c) {
  v.setting({.key = "leaf_quiescence",
             .spec = "qs",
             .uci = "Leaf Quiescence",
             .uci_scale = 100,
             .help = "each leaf's value blended with this weight of its capture-resolved material"},
            c.quiescence, 0.0f, 1.0f);
  v.setting({.key = "quiescence_plies",
             .spec = "qplies",
             .uci = "Quiescence Plies",
             .uci_scale = 1,
             .help = "with the leaf quiescence, the capture search's depth in plies"},
            c.quiescence_plies, 0, 64);
  v.setting({.key = "leaf_full_plies",
             .spec = "full",
             .uci = "Full Plies",
             .uci_scale = 1,
             .help = "with the leaf quiescence, plies of every legal move searched before the captures, so that a "
                     "fork counts"},
            c.full_plies, 0, 3);
  v.setting({.key = "leaf_king_hunt",
             .spec = "hunt",
             .uci = "King Hunt",
             .uci_scale = 100,
             .help = "with the leaf quiescence, this weight of a bonus for driving the losing king to a corner "
                     "added to the resolved material"},
            c.king_hunt, 0.0f, 10.0f);
  v.setting({.key = "leaf_hunt_share",
             .spec = "hshare",
             .uci = "Hunt Share",
             .uci_scale = 100,
             .help = "with the king hunt, this share of a leaf's value given to the hunt outside the material's "
                     "squash, as far as the squash saturates, so that a large lead still presses its won ending"},
            c.hunt_share, 0.0f, 0.5f);
  v.setting({.key = "leaf_win_moves",
             .spec = "win",
             .uci = "Win Search",
             .uci_scale = 1,
             .help = "a leaf whose mover forces a win within this many of its moves (the first ones checks; 1: a "
                     "mate in one) is scored as won without the evaluator"},
            c.win_moves, 0, game::kMaxForcedWinMoves);
}

// The play settings as the config keys they are: a field-list visitor (config/section.h) sees
// each as a plain number.
template <typename V>
class ConfigKeys {
 public:
  explicit ConfigKeys(V& v) : v_(v) {}
  template <typename T, typename N>
  void setting(const PlaySetting& s, T& field, N lo, N hi) {
    v_.num(s.key, field, lo, hi);
  }

 private:
  V& v_;
};

}  // namespace sz::search
