#include "games/chaturanga/adjudicate.h"

#include <algorithm>

#include "games/chaturanga/movegen.h"

namespace sz::chaturanga {

using namespace board8;

namespace {

GameEnd win_for(Color c, EndReason reason) { return {c == White ? Outcome::WhiteWins : Outcome::BlackWins, reason}; }
GameEnd draw(EndReason reason) { return {Outcome::Draw, reason}; }

bool repeated(const Position& pos, std::span<const uint64_t> history) {
  const int rule = pos.rules().repetitions;
  return rule > 1 && earlier_occurrences(pos, history) >= rule - 1;
}

// Fairy-Stockfish apiutil.h:has_insufficient_material as pychess applies it to Sittuyin: a side
// with a rook or khon (or men in hand) can mate; mets need another met on the other colour or
// any other man on the board; knights and pawns need one more non-king man of either side.
bool pychess_cannot_mate(const Position& pos, Color c) {
  if (pos.hand_count(c) || pos.pieces(c, Rook) || pos.pieces(c, Khon)) return false;
  const Bitboard men = pos.pieces() & ~pos.pieces(King);
  const Bitboard mets = pos.pieces(Fers);
  const Bitboard unbound = men & ~mets;
  if (pos.pieces(c, Fers) && (((mets & kLightSquares) && (mets & ~kLightSquares)) || unbound)) return false;
  if ((pos.pieces(c) & unbound) && more_than_one(men)) return false;
  return true;
}

}  // namespace

int earlier_occurrences(const Position& pos, std::span<const uint64_t> history) {
  const size_t window = std::min<size_t>(size_t(pos.rule50()), history.size());
  int seen = 0;
  for (size_t i = history.size() - window; i < history.size(); ++i) seen += history[i] == pos.key();
  return seen;
}

bool cannot_mate(const Position& pos, Color c) {
  switch (pos.rules().insufficient) {
    case InsufficientMaterialRule::Pychess:
      return pychess_cannot_mate(pos, c);
    case InsufficientMaterialRule::BareKings:
      return pos.pieces() == pos.pieces(King) && !pos.hand_count(White) && !pos.hand_count(Black);
    case InsufficientMaterialRule::None:
      return false;
  }
  return false;
}

GameEnd adjudicate(const Position& pos, std::span<const uint64_t> history) {
  const RuleProfile& rules = pos.rules();
  const Color us = pos.side_to_move();
  bool won = false;
  if (rules.bare_king_loses && pos.bare_king_decided(&won)) return win_for(won ? us : ~us, EndReason::BareKing);
  MoveList legal;
  generate_legal(pos, legal);
  if (legal.size == 0) {
    if (pos.in_check()) return win_for(~us, EndReason::Checkmate);
    if (rules.stalemate == StalemateRule::IllegalToCause) {
      MoveList any;
      generate_legal_unfiltered(pos, any);
      if (any.size) return draw(EndReason::NoLegalMoveDraw);
    }
    return rules.stalemate == StalemateRule::Loss ? win_for(~us, EndReason::Stalemate) : draw(EndReason::Stalemate);
  }
  if (rules.n_move_plies && pos.rule50() >= rules.n_move_plies) return draw(EndReason::NMove);
  if (repeated(pos, history)) return draw(EndReason::Repetition);
  if (pos.counting_limit() && pos.counting_ply() > pos.counting_limit()) return draw(EndReason::Counting);
  if (rules.promotion_only_draw && !pos.in_check() && popcount(pos.pieces(us)) == 2 && pos.pieces(us, Pawn) &&
      pos.pieces(us, King)) {
    bool all_promotions = true;
    for (Move m : legal) all_promotions &= m.is_promotion();
    if (all_promotions) return draw(EndReason::PromotionOnly);
  }
  if (cannot_mate(pos, White) && cannot_mate(pos, Black)) return draw(EndReason::Insufficient);
  return {};
}

std::string_view to_string(EndReason reason) {
  switch (reason) {
    case EndReason::None:
      return "none";
    case EndReason::Checkmate:
      return "checkmate";
    case EndReason::Stalemate:
      return "stalemate";
    case EndReason::BareKing:
      return "bare-king";
    case EndReason::NoLegalMoveDraw:
      return "no-legal-move-draw";
    case EndReason::NMove:
      return "n-move";
    case EndReason::Repetition:
      return "repetition";
    case EndReason::Counting:
      return "counting";
    case EndReason::PromotionOnly:
      return "promotion-only";
    case EndReason::Insufficient:
      return "insufficient";
  }
  return "?";
}

game::GameResult game_result(Outcome outcome) {
  static constexpr game::GameResult kResults[] = {game::GameResult::Ongoing, game::GameResult::FirstWins,
                                                  game::GameResult::SecondWins, game::GameResult::Draw};
  return kResults[int(outcome)];
}

std::string_view to_string(Outcome outcome) { return game::pgn_result(game_result(outcome)); }

}  // namespace sz::chaturanga
