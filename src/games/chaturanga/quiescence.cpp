#include "games/chaturanga/quiescence.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "games/chaturanga/movegen.h"

namespace sz::chaturanga {
namespace {

constexpr float kValue[kPieceTypes] = {0, 1, 3, 2.5f, 1.5f, 2.5f, 5, 0};  // by PieceType

float search(const Position& pos, float alpha, float beta, int plies_left) {
  MoveList moves;
  generate_legal(pos, moves);
  const bool check = pos.in_check();
  // Stalemate and a Shatranj bare-king end count as even here: a heuristic, not the rules.
  if (moves.size == 0) return check ? -kMatedMaterial : 0.0f;
  const float stand = material_balance(pos);
  if (!check) {
    if (stand >= beta || plies_left == 0) return stand;
    alpha = std::max(alpha, stand);
  } else if (plies_left == 0) {
    return stand;
  }
  // Captures (all moves in check), most valuable victim first; a sort key per move.
  float keys[kMaxMoves];
  Move order[kMaxMoves];
  int n = 0;
  for (const Move m : moves) {
    const bool capture = pos.is_capture(m);
    if (!capture && !check) continue;
    order[n] = m;
    keys[n] = capture ? kValue[type_of(pos.piece_on(m.to()))] : -1.0f;
    ++n;
  }
  for (int i = 0; i < n; ++i) {
    const int best = int(std::max_element(keys + i, keys + n) - keys);
    std::swap(keys[i], keys[best]);
    std::swap(order[i], order[best]);
    Position next = pos;
    next.do_move(order[i]);
    const float score = -search(next, -beta, -alpha, plies_left - 1);
    if (score >= beta) return beta;
    alpha = std::max(alpha, score);
  }
  return alpha;
}

// Every legal move for `depth` plies (captures first, most valuable victim first), then search():
// no standing pat, as the mover must move.
float full_width(const Position& pos, float alpha, float beta, int depth, int capture_plies) {
  if (depth == 0) return search(pos, alpha, beta, capture_plies);
  MoveList moves;
  generate_legal(pos, moves);
  if (moves.size == 0) return pos.in_check() ? -kMatedMaterial : 0.0f;
  float keys[kMaxMoves];
  Move order[kMaxMoves];
  int n = 0;
  for (const Move m : moves) {
    order[n] = m;
    keys[n] = pos.is_capture(m) ? kValue[type_of(pos.piece_on(m.to()))] : -1.0f;
    ++n;
  }
  for (int i = 0; i < n; ++i) {
    const int best = int(std::max_element(keys + i, keys + n) - keys);
    std::swap(keys[i], keys[best]);
    std::swap(order[i], order[best]);
    Position next = pos;
    next.do_move(order[i]);
    const float score = -full_width(next, -beta, -alpha, depth - 1, capture_plies);
    if (score >= beta) return beta;
    alpha = std::max(alpha, score);
  }
  return alpha;
}

}  // namespace

float material_balance(const Position& pos) {
  const Color us = pos.side_to_move(), them = ~us;
  float balance = 0;
  for (int t = Pawn; t < King; ++t) {
    const auto type = PieceType(t);
    const int own = std::popcount(pos.pieces(us, type)) + pos.in_hand(us, type);
    const int other = std::popcount(pos.pieces(them, type)) + pos.in_hand(them, type);
    balance += kValue[t] * float(own - other);
  }
  return balance;
}

float quiescent_balance(const Position& pos, int full_plies, int max_plies) {
  if (pos.hand_count(White) + pos.hand_count(Black)) return material_balance(pos);
  return full_width(pos, -2 * kMatedMaterial, 2 * kMatedMaterial, full_plies, max_plies);
}

float king_hunt(const Position& pos) {
  if (pos.hand_count(White) + pos.hand_count(Black)) return 0;
  const float balance = material_balance(pos);
  if (std::fabs(balance) < kValue[Knight]) return 0;
  const Color leader = balance > 0 ? pos.side_to_move() : ~pos.side_to_move();
  const int hunted = pos.king_square(~leader), hunter = pos.king_square(leader);
  if (hunted == board8::kNoSquare || hunter == board8::kNoSquare) return 0;
  const int f = board8::file_of(hunted), r = board8::rank_of(hunted);
  const int to_corner = (3 - std::min(f, 7 - f)) + (3 - std::min(r, 7 - r));  // 0 centre .. 6 corner
  const int apart = std::max(std::abs(f - board8::file_of(hunter)), std::abs(r - board8::rank_of(hunter)));
  const float hunt = 0.1f * float(to_corner) + 0.06f * float(7 - std::max(apart, 2));  // kings never touch
  return balance > 0 ? hunt : -hunt;
}

}  // namespace sz::chaturanga
