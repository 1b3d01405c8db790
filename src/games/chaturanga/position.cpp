#include "games/chaturanga/position.h"

#include "core/rng.h"

namespace sz::chaturanga {

using namespace board8;

namespace {

constexpr ZobristKeys make_zobrist() {
  ZobristKeys z{};
  uint64_t seed = 0x5177'7579'6E5A'0001ull;
  for (auto& piece : z.piece_square)
    for (auto& key : piece) key = splitmix64(seed);
  for (auto& side : z.hand)
    for (auto& type : side)
      for (int n = 1; n < 16; ++n) type[n] = splitmix64(seed);
  z.black_to_move = splitmix64(seed);
  return z;
}

}  // namespace

constexpr ZobristKeys kZobrist = make_zobrist();

Position Position::start(const RuleProfile& rules) {
  return from_fen(start_fen(rules.game), rules).take_or_throw("start position");
}

Position Position::from_men(const RuleProfile& rules, Color stm, const Piece* men, const Square* squares, int count) {
  Position pos(rules);
  pos.stm_ = stm;
  pos.key_ = rules.hash_key ^ (stm == Black ? kZobrist.black_to_move : 0);
  for (int i = 0; i < count; ++i) pos.put_piece(men[i], squares[i]);
  const Square ksq = pos.king_square(stm);
  pos.checkers_ = ksq == kNoSquare ? 0 : pos.attackers(~stm, ksq, pos.pieces());
  return pos;
}

void Position::put_piece(Piece p, int sq) {
  board_[sq] = p;
  by_type_[type_of(p)] |= bit(sq);
  by_color_[color_of(p)] |= bit(sq);
  key_ ^= kZobrist.piece_square[p][sq];
}

void Position::remove_piece(int sq) {
  const Piece p = Piece(board_[sq]);
  board_[sq] = NoPiece;
  by_type_[type_of(p)] ^= bit(sq);
  by_color_[color_of(p)] ^= bit(sq);
  key_ ^= kZobrist.piece_square[p][sq];
}

void Position::move_piece(int from, int to) {
  const Piece p = Piece(board_[from]);
  const Bitboard from_to = bit(from) | bit(to);
  board_[from] = NoPiece;
  board_[to] = p;
  by_type_[type_of(p)] ^= from_to;
  by_color_[color_of(p)] ^= from_to;
  key_ ^= kZobrist.piece_square[p][from] ^ kZobrist.piece_square[p][to];
}

void Position::set_hand(Color c, PieceType t, int count) {
  key_ ^= kZobrist.hand[c][t][hand_[c][t]] ^ kZobrist.hand[c][t][count];
  hand_total_[c] = uint8_t(hand_total_[c] + count - hand_[c][t]);
  hand_[c][t] = uint8_t(count);
}

Bitboard Position::attackers(Color by, int sq, Bitboard occupied) const {
  const Color them = ~by;  // the pawn and khon tables are looked up from the target's side
  const AttackTables& t = attack_tables;
  return by_color_[by] & ((t.pawn_attacks[them][sq] & by_type_[Pawn]) |
                          (t.knight[sq] & by_type_[Knight]) | (t.khon[them][sq] & by_type_[Khon]) |
                          (t.fers[sq] & by_type_[Fers]) | (t.alfil[sq] & by_type_[Alfil]) |
                          (t.king[sq] & by_type_[King]) |
                          (rook_attacks(sq, occupied) & by_type_[Rook]));
}

Bitboard Position::pinned(Color c) const {
  const Square ksq = king_square(c);
  if (ksq == kNoSquare) return 0;
  Bitboard result = 0;
  Bitboard snipers = attack_tables.rook_empty[ksq] & pieces(~c, Rook);
  while (snipers) {
    const Bitboard b = between(ksq, pop_lsb(snipers)) & pieces();
    if (b && !more_than_one(b)) result |= b & by_color_[c];
  }
  return result;
}

Bitboard Position::discovered_check_candidates(Color c) const {
  const Square ksq = king_square(~c);
  if (ksq == kNoSquare) return 0;
  Bitboard result = 0;
  Bitboard snipers = attack_tables.rook_empty[ksq] & pieces(c, Rook);
  while (snipers) {
    const Bitboard b = between(ksq, pop_lsb(snipers)) & pieces();
    if (b && !more_than_one(b)) result |= b & by_color_[c];
  }
  return result;
}

// Fairy-Stockfish's extinction rule for Shatranj (position.cpp:is_immediate_game_end): the
// side that just moved is bare while the side to move has another man: the side to move won;
// the side to move is bare while the opponent has two other men or more: it lost. A bare side
// facing exactly one other man gets one more move (to take it, or lose next ply).
bool Position::bare_king_decided(bool* side_to_move_won) const {
  const int mover = popcount(by_color_[~stm_]), to_move = popcount(by_color_[stm_]);
  bool won = false, decided = false;
  if (mover <= 1 && to_move >= 2) decided = won = true;
  else if (to_move <= 1 && mover >= 3) decided = true;
  if (side_to_move_won) *side_to_move_won = won;
  return decided;
}

int Position::count_limit(Color strong) const {
  if (pieces(strong, Rook)) return 16;
  if (pieces(strong, Khon)) return 44;
  if (pieces(strong, Knight)) return 64;
  return 0;
}

// ASEAN counting as Fairy-Stockfish does it (position.cpp:do_move): when no pawn is left and
// the side to move has only its king, a count of 2 x count_limit plies starts for it, unless
// one already runs (a capture or promotion restarts it). The limit is frozen once set.
void Position::update_counting(bool capture_or_promotion) {
  int limit = 0;
  if (!by_type_[Pawn] && by_color_[stm_] == pieces(stm_, King) && by_color_[stm_])
    limit = 2 * count_limit(~stm_);
  if (limit && (!counting_limit_ || capture_or_promotion)) {
    counting_limit_ = uint16_t(limit);
    counting_ply_ = 0;
  } else if (counting_limit_) {
    ++counting_ply_;
  }
}

void Position::do_move(Move m) {
  const Color us = stm_;
  const int to = m.to();
  bool capture = false;
  ++rule50_;
  ++game_ply_;
  switch (m.kind()) {
    case MoveKind::Drop:
      put_piece(make_piece(us, m.dropped()), to);
      set_hand(us, m.dropped(), hand_[us][m.dropped()] - 1);
      rule50_ = 0;
      break;
    case MoveKind::Promotion:
      if (m.from() != to && board_[to]) {
        capture = true;
        remove_piece(to);
      }
      remove_piece(m.from());
      put_piece(make_piece(us, Fers), to);
      rule50_ = 0;
      break;
    case MoveKind::Normal:
      if (board_[to]) {
        capture = true;
        remove_piece(to);
        rule50_ = 0;
      }
      if (type_of(Piece(board_[m.from()])) == Pawn) rule50_ = 0;
      move_piece(m.from(), to);
      break;
  }
  const bool keeps_turn = m.is_drop() && hand_total_[us] &&
                          rules_->placement_order == PlacementOrder::WhiteThenBlack;
  if (!keeps_turn) {
    stm_ = ~us;
    key_ ^= kZobrist.black_to_move;
  }
  if (rules_->counting == CountingRule::Asean) update_counting(capture || m.is_promotion());
  const Square ksq = king_square(stm_);
  checkers_ = ksq == kNoSquare ? 0 : attackers(~stm_, ksq, pieces());
}

uint64_t Position::compute_key() const {
  uint64_t k = rules_->hash_key ^ (stm_ == Black ? kZobrist.black_to_move : 0);
  for (int sq = 0; sq < 64; ++sq)
    if (board_[sq]) k ^= kZobrist.piece_square[board_[sq]][sq];
  for (Color c : {White, Black})
    for (int t = 0; t < kPieceTypes; ++t) k ^= kZobrist.hand[c][t][hand_[c][t]];
  return k;
}

bool Position::pos_is_ok(std::string* why) const {
  auto bad = [&](const char* what) {
    if (why) *why = what;
    return false;
  };
  if (by_color_[White] & by_color_[Black]) return bad("colours overlap");
  Bitboard all_types = 0;
  for (int t = 1; t < kPieceTypes; ++t) {
    if (all_types & by_type_[t]) return bad("piece types overlap");
    all_types |= by_type_[t];
  }
  if (all_types != pieces() || by_type_[NoPieceType]) return bad("type and colour sets differ");
  for (int sq = 0; sq < 64; ++sq) {
    const Piece p = Piece(board_[sq]);
    const bool occupied = pieces() & bit(sq);
    if (occupied != (p != NoPiece)) return bad("mailbox and bitboards differ");
    if (p && !(pieces(color_of(p), type_of(p)) & bit(sq))) return bad("mailbox man is misplaced");
  }
  for (Color c : {White, Black}) {
    int total = 0;
    for (int t = 0; t < kPieceTypes; ++t) total += hand_[c][t];
    if (total != hand_total_[c]) return bad("hand total is wrong");
    if (popcount(pieces(c, King)) > 1) return bad("two kings");
  }
  if (key_ != compute_key()) return bad("incremental hash differs from a recomputed one");
  const Square ksq = king_square(stm_);
  if (checkers_ != (ksq == kNoSquare ? 0 : attackers(~stm_, ksq, pieces())))
    return bad("checkers are stale");
  const Square other_king = king_square(~stm_);
  if (other_king != kNoSquare && attackers(stm_, other_king, pieces()) && !may_leave_opponent_in_check())
    return bad("the side not to move is in check");
  return true;
}

}  // namespace sz::chaturanga
