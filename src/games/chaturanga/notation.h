#pragma once
// Fairy-Stockfish's spelling of men and moves. Letters: Sittuyin K F(met) S(khon) N R P;
// Shatranj K Q(fers) B(alfil) N R P. Moves: `e2e3`, drops `R@a1` (upper case for both
// colours), Sittuyin promotions `d5d5f` / `d5c6f`, Shatranj promotions `b7b8q`.
#include <string>
#include <string_view>

#include "core/error.h"
#include "games/chaturanga/position.h"

namespace sz::chaturanga {

// Upper-case letter of a man in `game`, or 0 if the game has no such man.
char piece_letter(Game game, PieceType t);
// The type for an upper- or lower-case letter in `game`, or NoPieceType.
PieceType piece_from_letter(Game game, char letter);

std::string square_name(int sq);
// Standard algebraic notation as Fairy-Stockfish writes it (for PGN): `Nf3`, `exd5`, `R@a1`,
// Sittuyin promotions `h4=F` (in place) and `e5f6=F` (diagonal step), Shatranj `b8=Q`, with
// `+` for check and `#` for mate. `m` must be legal in `pos`.
std::string to_san(const Position& pos, Move m);
std::string to_uci(Move m, Game game);
// Strict: the text must be a legal move of `pos`, spelled exactly as Fairy-Stockfish spells it
// (only the case of a promotion letter is forgiven, as Fairy-Stockfish forgives it).
Result<Move> parse_move(std::string_view text, const Position& pos);

}  // namespace sz::chaturanga
