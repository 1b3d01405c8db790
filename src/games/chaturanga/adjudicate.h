#pragma once
// Game-end adjudication, separate from move generation: what the rules say about a position
// given the game's earlier positions. Claimable draws (n-move rule, repetition, counting rule,
// K+P promotion-only) count as ends: self-play and matches apply them automatically.
#include <cstdint>
#include <span>
#include <string_view>

#include "game/game_state.h"
#include "games/chaturanga/position.h"

namespace sz::chaturanga {

enum class Outcome : uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

enum class EndReason : uint8_t {
  None,
  Checkmate,
  Stalemate,        // a draw or, in Shatranj, a loss for the stalemated side
  BareKing,         // Shatranj: a side bared of all men but its king
  NoLegalMoveDraw,  // stalemating is illegal and every move would stalemate: a draw
  NMove,            // n-move rule (50 or 70 moves without capture or pawn move)
  Repetition,
  Counting,       // Sittuyin counting rule (16/44/64 moves)
  PromotionOnly,  // Sittuyin K+P whose every legal move is a promotion
  Insufficient,   // neither side can mate
};

struct GameEnd {
  Outcome outcome = Outcome::Ongoing;
  EndReason reason = EndReason::None;
  bool over() const { return outcome != Outcome::Ongoing; }
};

// `history` holds the keys of the game's earlier positions, oldest first, not `pos` itself.
// How often `pos` occurred in `history` since the last irreversible move (the repetition count).
int earlier_occurrences(const Position& pos, std::span<const uint64_t> history);

GameEnd adjudicate(const Position& pos, std::span<const uint64_t> history);

// Whether colour c can no longer mate under the profile's insufficient-material rule.
bool cannot_mate(const Position& pos, Color c);

std::string_view to_string(EndReason reason);
std::string_view to_string(Outcome outcome);  // "1-0", "0-1", "1/2-1/2", "*" (game::pgn_result)
game::GameResult game_result(Outcome outcome);  // the seam's result: White is the first player

}  // namespace sz::chaturanga
