#pragma once
// Endgame tables behind the game seam (docs/TABLES.md): exact values of the positions with few men,
// for the search (a hit is an exact terminal value), self-play (adjudication, rescoring), `uci` and
// the clients. Interfaces only: games/registry.h loads a game's tables by profile.
//
// Exact means: under the profile's rules, with the position's own clocks (the n-move clock and, in
// Sittuyin, the counting rule's limit and ply, or the count that is about to start), from the side
// to move's view. The tables know no history: a threefold repetition with positions played before
// the probe is not foreseen (their own best play never repeats a position). docs/TABLES.md lists
// the one clock state, unreachable from a game's start, where a verdict may be inexact.
#include <cstdint>
#include <optional>
#include <span>

#include "game/game_state.h"

namespace sz::game {

enum class TableVerdict : int8_t { Loss = -1, Draw = 0, Win = 1 };  // for the side to move

struct TableResult {
  TableVerdict verdict = TableVerdict::Draw;
  // Win or loss: plies until the game is over (checkmate; in Shatranj also a bared king or a
  // stalemate), both sides playing their best within the clocks; 0 for a draw, and for a position
  // the rules have already decided. Exact when `plies_exact`; otherwise a lower bound: the clocks
  // rule out the table's fastest mate, though not the win (the verdict stays exact).
  int plies_to_end = 0;
  bool plies_exact = true;
  // Win or loss: the plies the clocks must still allow for this verdict: the distance to the next
  // capture or the end, under the play that needs the fewest (a DTZ). At most `clock_plies`.
  int plies_to_reset = 0;
  // Plies the clocks still allow before a quiet position is drawn (the smaller of the n-move
  // clock's and the count's); a mate on the last of them still counts. Very large without clocks.
  int clock_plies = 0;
};

// Thread-safe after loading: probes only read (the files are mapped read-only). Probing neither
// allocates nor throws.
class EndgameTables {
 public:
  virtual ~EndgameTables() = default;

  // The most men (kings included) of a position the tables hold: a cheap pre-filter for callers.
  virtual int max_men() const = 0;
  // The exact value of `state` for its side to move, or nullopt when its material is outside the
  // tables (more men, pawns or men in hand, a table not built) or the state is not of this game.
  virtual std::optional<TableResult> probe(const GameState& state) const = 0;
  // The best legal actions of `state` (out: at least kMaxActions long): won, the moves that keep
  // the win and end it soonest; drawn, those that keep the draw; lost, those that delay the end
  // most. Returns their number, 0 outside the tables or when no move is legal.
  virtual int best_actions(const GameState& state, std::span<ActionId> out) const = 0;
};

// The game end a table result stands for, for `to_move` (reason "tables").
inline Outcome table_outcome(const TableResult& r, Player to_move) {
  if (r.verdict == TableVerdict::Draw) return {GameResult::Draw, "tables"};
  const bool first_wins = (r.verdict == TableVerdict::Win) == (to_move == Player::First);
  return {first_wins ? GameResult::FirstWins : GameResult::SecondWins, "tables"};
}

}  // namespace sz::game
