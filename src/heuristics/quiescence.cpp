#include "heuristics/quiescence.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "games/chaturanga/movegen.h"

namespace sz::chaturanga {
namespace {

constexpr float kValue[kPieceTypes] = {0, 1, 3, 2.5f, 1.5f, 2.5f, 5, 0};  // by PieceType

// A fail-hard alpha-beta over material: every legal move while `full_plies` remain (no standing
// pat, as the mover must move), then captures (every evasion in check) with standing pat for at
// most `capture_plies` plies; most valuable victim first.
float search(const Position& pos, float alpha, float beta, int full_plies, int capture_plies) {
  MoveList moves;
  generate_legal(pos, moves);
  const bool check = pos.in_check();
  // Stalemate and a Shatranj bare-king end count as even here: a heuristic, not the rules.
  if (moves.size == 0) return check ? -kMatedMaterial : 0.0f;
  const bool full = full_plies > 0;
  if (!full) {
    const float stand = material_balance(pos);
    if (!check) {
      if (stand >= beta || capture_plies == 0) return stand;
      alpha = std::max(alpha, stand);
    } else if (capture_plies == 0) {
      return stand;
    }
  }
  // The moves searched, with a sort key each: captures by their victim, the rest last.
  float keys[kMaxMoves];
  Move order[kMaxMoves];
  int n = 0;
  for (const Move m : moves) {
    const bool capture = pos.is_capture(m);
    if (!capture && !check && !full) continue;
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
    const float score = full ? -search(next, -beta, -alpha, full_plies - 1, capture_plies)
                             : -search(next, -beta, -alpha, 0, capture_plies - 1);
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
  return search(pos, -2 * kMatedMaterial, 2 * kMatedMaterial, full_plies, max_plies);
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
