#pragma once
// A match's results for people (a table, a progress line per game) and for programs (JSON, read
// by the training loop and by `levels`). JSON layout (version 1):
//   { "format": "sittuyin-zero match", "version": 1, "profile": "sittuyin",
//     "games": {"scheduled": N, "played": N, "forfeits": N, "stopped": false}, "seconds": S,
//     "players": [{"name": ..., "elo": E, "lower": L, "upper": U,         // fit, anchor 0 Elo
//                  "moves": N, "think_seconds": S}, ...],   // moves played, wall seconds on them
//     "anchor": "random",
//     "pairings": [{"a": NAME, "b": NAME, "games": N, "wins": W, "draws": D, "losses": L,
//                   "score": S, "elo": E, "lower": L, "upper": U}, ...],   // from a's view
//     "sprt": null | {"elo0", "elo1", "alpha", "beta", "llr", "lower_bound", "upper_bound",
//                     "verdict": "H0" | "H1" | "continue"} }
#include <string>

#include "eval/arena.h"

namespace sz::eval {

inline constexpr int kMatchJsonVersion = 1;

std::string format_match_table(const MatchResult& result);
std::string match_json(const MatchResult& result);

// One finished game for a progress log: "game 7/40: WHITE - BLACK 1-0 (checkmate, 83 plies)".
std::string format_game_line(const GameRecord& game, const MatchResult& tally);
// That line on stderr: the MatchSpec::on_game of `arena` and `levels`.
void print_game_line(const GameRecord& game, const MatchResult& tally);

}  // namespace sz::eval
