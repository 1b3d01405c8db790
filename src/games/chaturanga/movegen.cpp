#include "games/chaturanga/movegen.h"

namespace sz::chaturanga {

using namespace board8;

namespace {

// What every generator needs to know about the side to move's king.
struct CheckInfo {
  Square ksq;
  Bitboard pinned;
  Bitboard target;  // squares a non-king move may go to (evasions: capture or block)
  bool double_check;
};

CheckInfo check_info(const Position& pos, Color us) {
  // Kings are never captured: under white-then-black placement a side may keep the turn with
  // the enemy king in check, and must not take it if it has to make a board move.
  CheckInfo ci{pos.king_square(us), pos.pinned(us), ~pos.pieces(us) & ~pos.pieces(~us, King), false};
  const Bitboard checkers = pos.checkers();
  if (checkers) {
    ci.double_check = more_than_one(checkers);
    const Square checker = lsb(checkers);
    ci.target &= bit(checker) | between(ci.ksq, checker);
  }
  return ci;
}

void add_moves(MoveList& list, int from, Bitboard targets) {
  while (targets) list.push(Move::normal(from, pop_lsb(targets)));
}

template <Color Us>
Bitboard pawn_forward(Bitboard b) {
  return Us == White ? b << 8 : b >> 8;
}

// Board moves of one kind of stepper or leaper.
template <PieceType T, Color Us>
void generate_piece(const Position& pos, const CheckInfo& ci, MoveList& list) {
  const AttackTables& t = attack_tables;
  Bitboard men = pos.pieces(Us, T);
  while (men) {
    const Square from = pop_lsb(men);
    Bitboard to;
    if constexpr (T == Knight) to = t.knight[from];
    else if constexpr (T == Khon) to = t.khon[Us][from];
    else if constexpr (T == Fers) to = t.fers[from];
    else if constexpr (T == Alfil) to = t.alfil[from];
    else to = rook_attacks(from, pos.pieces());
    to &= ci.target;
    if (ci.pinned & bit(from)) to &= line(ci.ksq, from);
    add_moves(list, from, to);
  }
}

// Sittuyin promotion (Fairy-Stockfish movegen.cpp:generate_pawn_moves and Position::legal):
// while the side has no met, an eligible pawn becomes a met in place or one diagonal step away
// onto an empty square; the new met may not attack an enemy man, and the move may not give a
// discovered check (where the profile says so). In check only a diagonal step can block.
template <Color Us>
void generate_sittuyin_promotions(const Position& pos, const CheckInfo& ci, MoveList& list) {
  const RuleProfile& rules = pos.rules();
  Bitboard pawns = pos.pieces(Us, Pawn);
  if (!pawns || pos.pieces(Us, Fers)) return;
  pawns &= more_than_one(pawns) ? rules.promotion_zone[Us] : rules.last_pawn_zone[Us];
  const Bitboard enemies = pos.pieces(~Us);
  const Bitboard discoverers =
      rules.promotion_no_discovered_check ? pos.discovered_check_candidates(Us) : 0;
  const Square their_king = pos.king_square(~Us);
  const bool in_check = pos.in_check();
  while (pawns) {
    const Square from = pop_lsb(pawns);
    Bitboard to = (attack_tables.fers[from] & ~pos.pieces() & rules.promotion_steps_allowed);
    if (!in_check) to |= bit(from);
    to &= ci.target | bit(from);
    if (ci.pinned & bit(from)) to &= line(ci.ksq, from);
    if (discoverers & bit(from)) to &= line(their_king, from) | bit(from);
    while (to) {
      const Square sq = pop_lsb(to);
      if (!(attack_tables.fers[sq] & enemies)) list.push(Move::promotion(from, sq));
    }
  }
}

template <Color Us>
void generate_pawns(const Position& pos, const CheckInfo& ci, MoveList& list) {
  const bool shatranj = pos.rules().game == Game::Shatranj;
  const Bitboard last_rank = rank_bb(Us == White ? 7 : 0);
  Bitboard pawns = pos.pieces(Us, Pawn);
  const Bitboard empty = ~pos.pieces(), enemies = pos.pieces(~Us);
  while (pawns) {
    const Square from = pop_lsb(pawns);
    Bitboard to = ((attack_tables.pawn_push[Us][from] & empty) |
                   (attack_tables.pawn_attacks[Us][from] & enemies)) & ci.target;
    if (ci.pinned & bit(from)) to &= line(ci.ksq, from);
    while (to) {
      const Square sq = pop_lsb(to);
      list.push(shatranj && (bit(sq) & last_rank) ? Move::promotion(from, sq) : Move::normal(from, sq));
    }
  }
  if (!shatranj) generate_sittuyin_promotions<Us>(pos, ci, list);
}

template <Color Us>
void generate_king(const Position& pos, const CheckInfo& ci, MoveList& list) {
  if (ci.ksq == kNoSquare) return;
  Bitboard to = attack_tables.king[ci.ksq] & ~pos.pieces(Us) & ~pos.pieces(~Us, King);
  const Bitboard occupied = pos.pieces() ^ bit(ci.ksq);
  while (to) {
    const Square sq = pop_lsb(to);
    if (!pos.attackers(~Us, sq, occupied)) list.push(Move::normal(ci.ksq, sq));
  }
}

// Placement: men from hand onto empty squares of the drop zones. In check, a drop can only
// block; a king may not be dropped where it would stand in check. Under Ply Yard a black rook
// may not face the white king without a non-pawn man between them.
template <Color Us>
void generate_drops(const Position& pos, const CheckInfo& ci, MoveList& list) {
  const RuleProfile& rules = pos.rules();
  if (ci.double_check) return;
  const Bitboard empty = ~pos.pieces() & (pos.in_check() ? ci.target : ~Bitboard{0});
  for (PieceType t : {Pawn, Knight, Khon, Fers, Alfil, Rook, King}) {
    if (!pos.in_hand(Us, t)) continue;
    Bitboard to = empty & (t == Rook ? rules.rook_drop_zone[Us] : rules.men_drop_zone[Us]);
    const Square their_king = pos.king_square(~Us);
    if (Us == Black && t == Rook && rules.rook_needs_screen && their_king != kNoSquare) {
      const Bitboard screens = pos.pieces() & ~pos.pieces(Pawn);
      Bitboard file = to & file_bb(file_of(their_king));
      while (file) {
        const Square sq = pop_lsb(file);
        if (!(between(sq, their_king) & screens)) to ^= bit(sq);
      }
    }
    while (to) {
      const Square sq = pop_lsb(to);
      if (t != King || !pos.attackers(~Us, sq, pos.pieces())) list.push(Move::drop(t, sq));
    }
  }
}

template <Color Us>
void generate_all(const Position& pos, MoveList& list) {
  if (pos.rules().bare_king_loses && pos.bare_king_decided()) return;
  const CheckInfo ci = check_info(pos, Us);
  if (pos.hand_count(Us)) {
    const int before = list.size;
    generate_drops<Us>(pos, ci, list);
    if (list.size > before) return;  // a side that can drop must drop
  }
  generate_king<Us>(pos, ci, list);
  if (ci.double_check) return;
  generate_pawns<Us>(pos, ci, list);
  generate_piece<Knight, Us>(pos, ci, list);
  generate_piece<Khon, Us>(pos, ci, list);
  generate_piece<Fers, Us>(pos, ci, list);
  generate_piece<Alfil, Us>(pos, ci, list);
  generate_piece<Rook, Us>(pos, ci, list);
}

bool has_legal_move(const Position& pos) {
  MoveList list;
  generate_legal_unfiltered(pos, list);
  return list.size > 0;
}

// Ply Yard: a move after which the opponent has no legal move and is not in check is illegal.
void remove_stalemating_moves(const Position& pos, MoveList& list, int first) {
  int kept = first;
  for (int i = first; i < list.size; ++i) {
    Position next = pos;
    next.do_move(list.moves[i]);
    if (next.in_check() || has_legal_move(next)) list.moves[kept++] = list.moves[i];
  }
  list.size = kept;
}

}  // namespace

void generate_legal_unfiltered(const Position& pos, MoveList& list) {
  if (pos.side_to_move() == White) generate_all<White>(pos, list);
  else generate_all<Black>(pos, list);
}

void generate_legal(const Position& pos, MoveList& list) {
  const int first = list.size;
  generate_legal_unfiltered(pos, list);
  if (pos.rules().stalemate == StalemateRule::IllegalToCause) remove_stalemating_moves(pos, list, first);
}

uint64_t perft(const Position& pos, int depth) {
  MoveList list;
  generate_legal(pos, list);
  if (depth <= 1) return depth == 1 ? uint64_t(list.size) : 1;
  uint64_t nodes = 0;
  for (Move m : list) {
    Position next = pos;
    next.do_move(m);
    nodes += perft(next, depth - 1);
  }
  return nodes;
}

}  // namespace sz::chaturanga
