#include "games/slow_movegen.h"

#include <algorithm>

#include "games/chaturanga/notation.h"

namespace sz::test {

using namespace chaturanga;
using Step = std::pair<int, int>;

namespace {

bool inside(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }
int sq_of(int f, int r) { return r * 8 + f; }

const std::vector<Step> kDiagonal = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
const std::vector<Step> kOrthogonal = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

// Squares a man on `from` attacks (for a pawn: its diagonal captures).
std::vector<int> attacked_squares(const Position& pos, int from) {
  const Piece p = pos.piece_on(from);
  const int f = from % 8, r = from / 8, fwd = color_of(p) == White ? 1 : -1;
  std::vector<Step> steps;
  switch (type_of(p)) {
    case Pawn: steps = {{1, fwd}, {-1, fwd}}; break;
    case Knight: steps = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}; break;
    case Khon: steps = kDiagonal; steps.push_back({0, fwd}); break;
    case Fers: steps = kDiagonal; break;
    case Alfil: steps = {{2, 2}, {2, -2}, {-2, 2}, {-2, -2}}; break;
    case King: steps = kDiagonal; steps.insert(steps.end(), kOrthogonal.begin(), kOrthogonal.end()); break;
    case Rook: {
      std::vector<int> out;
      for (auto [df, dr] : kOrthogonal)
        for (int x = f + df, y = r + dr; inside(x, y); x += df, y += dr) {
          out.push_back(sq_of(x, y));
          if (pos.piece_on(sq_of(x, y))) break;
        }
      return out;
    }
    default: return {};
  }
  std::vector<int> out;
  for (auto [df, dr] : steps)
    if (inside(f + df, r + dr)) out.push_back(sq_of(f + df, r + dr));
  return out;
}

int count_men(const Position& pos, Color c) {
  int n = 0;
  for (int s = 0; s < 64; ++s) n += pos.piece_on(s) && color_of(pos.piece_on(s)) == c;
  return n;
}

int find_king(const Position& pos, Color c) {
  for (int s = 0; s < 64; ++s)
    if (pos.piece_on(s) == make_piece(c, King)) return s;
  return -1;
}

bool king_attacked(const Position& pos, Color c) {
  const int k = find_king(pos, c);
  return k >= 0 && slow_attacked(pos, k, ~c);
}

// Own rank index (0 = own back rank) of square s for colour c.
int own_rank(int s, Color c) { return c == White ? s / 8 : 7 - s / 8; }

bool rook_drop_screened(const Position& pos, int to, Color us) {
  const int k = find_king(pos, ~us);
  if (us != Black || !pos.rules().rook_needs_screen || k < 0 || k % 8 != to % 8) return true;
  const int lo = std::min(k, to), hi = std::max(k, to);
  for (int s = lo + 8; s < hi; s += 8)
    if (pos.piece_on(s) && type_of(pos.piece_on(s)) != Pawn) return true;
  return false;
}

std::vector<Move> drops(const Position& pos) {
  const RuleProfile& rules = pos.rules();
  const Color us = pos.side_to_move();
  std::vector<Move> out;
  for (int t = Pawn; t <= King; ++t) {
    if (!pos.in_hand(us, PieceType(t))) continue;
    const int* ranks = t == Rook ? rules.rook_ranks : rules.men_ranks;
    for (int s = 0; s < 64; ++s) {
      const int rank = own_rank(s, us) + 1;
      if (pos.piece_on(s) || rank < ranks[0] || rank > ranks[1]) continue;
      if (t == Rook && !rook_drop_screened(pos, s, us)) continue;
      out.push_back(Move::drop(PieceType(t), s));
    }
  }
  return out;
}

// Sittuyin promotions before the legality test: eligibility, empty step square, and the new
// met attacking no enemy man.
void add_sittuyin_promotions(const Position& pos, std::vector<Move>& out) {
  const RuleProfile& rules = pos.rules();
  const Color us = pos.side_to_move();
  std::vector<int> pawns;
  for (int s = 0; s < 64; ++s) {
    if (pos.piece_on(s) == make_piece(us, Fers)) return;
    if (pos.piece_on(s) == make_piece(us, Pawn)) pawns.push_back(s);
  }
  for (int from : pawns) {
    const Bitboard zone = pawns.size() > 1 ? rules.promotion_zone[us] : rules.last_pawn_zone[us];
    if (!(zone & board8::bit(from))) continue;
    std::vector<int> targets = {from};
    if (rules.promotion_diagonal_step)
      for (auto [df, dr] : kDiagonal)
        if (inside(from % 8 + df, from / 8 + dr) && !pos.piece_on(sq_of(from % 8 + df, from / 8 + dr)))
          targets.push_back(sq_of(from % 8 + df, from / 8 + dr));
    for (int to : targets) {
      bool attacks_enemy = false;
      for (auto [df, dr] : kDiagonal) {
        const int x = to % 8 + df, y = to / 8 + dr;
        attacks_enemy |= inside(x, y) && pos.piece_on(sq_of(x, y)) && color_of(pos.piece_on(sq_of(x, y))) != us;
      }
      if (!attacks_enemy) out.push_back(Move::promotion(from, to));
    }
  }
}

// An enemy man that may be taken (kings never are).
bool capturable(const Position& pos, int sq) {
  const Piece p = pos.piece_on(sq);
  return p && color_of(p) != pos.side_to_move() && type_of(p) != King;
}

std::vector<Move> board_moves(const Position& pos) {
  const Color us = pos.side_to_move();
  const bool shatranj = pos.rules().game == Game::Shatranj;
  std::vector<Move> out;
  for (int from = 0; from < 64; ++from) {
    const Piece p = pos.piece_on(from);
    if (!p || color_of(p) != us) continue;
    if (type_of(p) == Pawn) {
      const int fwd = us == White ? 8 : -8;
      auto add = [&](int to) {
        const bool last = own_rank(to, us) == 7;
        out.push_back(shatranj && last ? Move::promotion(from, to) : Move::normal(from, to));
      };
      if (inside(from % 8, from / 8 + fwd / 8) && !pos.piece_on(from + fwd)) add(from + fwd);
      for (int to : attacked_squares(pos, from))
        if (capturable(pos, to)) add(to);
      continue;
    }
    for (int to : attacked_squares(pos, from))
      if (!pos.piece_on(to) || capturable(pos, to)) out.push_back(Move::normal(from, to));
  }
  if (!shatranj) add_sittuyin_promotions(pos, out);
  return out;
}

bool legal_after(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  Position next = pos;
  next.do_move(m);
  if (king_attacked(next, us)) return false;
  // Sittuyin: a promotion may not give check (discovered included, where the profile says so).
  if (m.is_promotion() && pos.rules().game == Game::Sittuyin && pos.rules().promotion_no_discovered_check)
    return !king_attacked(next, ~us);
  return true;
}

std::vector<Move> unfiltered_legal(const Position& pos) {
  const Color us = pos.side_to_move();
  if (pos.rules().bare_king_loses) {
    const int mover = count_men(pos, ~us), to_move = count_men(pos, us);
    if ((mover == 1 && to_move >= 2) || (to_move == 1 && mover >= 3)) return {};
  }
  std::vector<Move> out;
  if (pos.hand_count(us))
    for (Move m : drops(pos))
      if (legal_after(pos, m)) out.push_back(m);
  if (!out.empty()) return out;
  for (Move m : board_moves(pos))
    if (legal_after(pos, m)) out.push_back(m);
  return out;
}

}  // namespace

bool slow_attacked(const Position& pos, int sq, Color by) {
  for (int s = 0; s < 64; ++s) {
    if (!pos.piece_on(s) || color_of(pos.piece_on(s)) != by) continue;
    const auto targets = attacked_squares(pos, s);
    if (std::find(targets.begin(), targets.end(), sq) != targets.end()) return true;
  }
  return false;
}

std::vector<std::string> slow_legal_moves(const Position& pos) {
  std::vector<Move> moves = unfiltered_legal(pos);
  if (pos.rules().stalemate == StalemateRule::IllegalToCause) {
    std::erase_if(moves, [&](Move m) {
      Position next = pos;
      next.do_move(m);
      return !king_attacked(next, next.side_to_move()) && unfiltered_legal(next).empty();
    });
  }
  std::vector<std::string> names;
  for (Move m : moves) names.push_back(to_uci(m, pos.rules().game));
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sz::test
