#include "games/chaturanga/encoder.h"

#include <algorithm>
#include <cassert>

#include "games/chaturanga/action_space.h"

namespace sz::chaturanga {

using namespace board8;

namespace {

constexpr PieceType kPlaneTypes[6] = {Pawn, Knight, NoPieceType /* elephant */, Fers, Rook, King};
constexpr PieceType kHandTypes[5] = {King, Fers, Khon, Knight, Rook};

// Reverses the bit order: rotating the board by 180 degrees.
Bitboard rotate(Bitboard b) {
  b = ((b >> 1) & 0x5555555555555555ull) | ((b & 0x5555555555555555ull) << 1);
  b = ((b >> 2) & 0x3333333333333333ull) | ((b & 0x3333333333333333ull) << 2);
  b = ((b >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((b & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(b);
}

Bitboard view(Game game, Color us, Bitboard b) {
  if (us == White) return b;
  return game == Game::Sittuyin ? rotate(b) : __builtin_bswap64(b);  // bswap = vertical flip
}

bool may_promote(const Position& pos, Color c) {
  return pos.rules().game == Game::Sittuyin && pos.pieces(c, Pawn) && !pos.pieces(c, Fers);
}

// The rule profile as features, so that one network can serve several profiles.
float* write_rule_features(const RuleProfile& r, float* out) {
  *out++ = r.placement_order == PlacementOrder::WhiteThenBlack;
  *out++ = float(r.men_ranks[0] - 1);
  *out++ = float(r.men_ranks[1] - 3);
  *out++ = r.rook_needs_screen;
  *out++ = r.promotion_diagonal_step;
  *out++ = r.last_pawn_promotes_anywhere;
  *out++ = r.promotion_no_discovered_check;
  *out++ = r.stalemate == StalemateRule::IllegalToCause;
  *out++ = r.stalemate == StalemateRule::Loss;
  *out++ = r.promotion_only_draw;
  *out++ = r.counting == CountingRule::Asean;
  *out++ = float(r.n_move_plies) / 100.0f;
  *out++ = r.insufficient == InsufficientMaterialRule::Pychess;
  *out++ = r.insufficient == InsufficientMaterialRule::BareKings;
  *out++ = r.bare_king_loses;
  return out;
}

}  // namespace

void encode(const Position& pos, int repetitions, std::span<uint64_t, kBinaryPlanes> planes,
            std::span<float, kScalarFeatures> scalars) {
  const Game game = pos.rules().game;
  const Color us = pos.side_to_move();
  const PieceType elephant = game == Game::Sittuyin ? Khon : Alfil;
  for (int side = 0; side < 2; ++side) {
    const Color c = side == 0 ? us : ~us;
    for (int i = 0; i < 6; ++i) {
      const PieceType t = kPlaneTypes[i] == NoPieceType ? elephant : kPlaneTypes[i];
      planes[side * 6 + i] = view(game, us, pos.pieces(c, t));
    }
  }
  float* out = scalars.data();
  for (Color c : {us, ~us})
    for (PieceType t : kHandTypes) *out++ = float(pos.in_hand(c, t)) / 2.0f;
  *out++ = pos.hand_count(White) + pos.hand_count(Black) > 0;  // placement phase
  *out++ = may_promote(pos, us);
  *out++ = may_promote(pos, ~us);
  *out++ = float(std::min(repetitions, 2)) / 2.0f;
  const int n_move = pos.rules().n_move_plies;
  *out++ = n_move ? float(std::min(pos.rule50(), n_move)) / float(n_move) : 0.0f;
  *out++ = pos.counting_limit() > 0;
  *out++ = pos.counting_limit() ? float(std::min(pos.counting_ply(), pos.counting_limit())) / float(pos.counting_limit()) : 0.0f;
  out = write_rule_features(pos.rules(), out);
  assert(out == scalars.data() + kScalarFeatures && "kScalarFeatures is out of date");
}

}  // namespace sz::chaturanga
