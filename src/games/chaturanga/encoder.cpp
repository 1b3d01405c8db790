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
  *out++ = pos.counting_limit()
               ? float(std::min(pos.counting_ply(), pos.counting_limit())) / float(pos.counting_limit())
               : 0.0f;
  out = write_rule_features(pos.rules(), out);
  assert(out == scalars.data() + kScalarFeatures && "kScalarFeatures is out of date");
}

std::vector<std::string> plane_meanings(Game game) {
  const char* elephant = game == Game::Sittuyin ? "khons" : "alfils";
  const char* fers = game == Game::Sittuyin ? "mets" : "ferses";
  std::vector<std::string> out;
  for (const char* side : {"the mover's", "the opponent's"})
    for (const char* men : {"pawns", "knights", elephant, fers, "rooks", "king"})
      out.push_back(std::string(side) + " " + men + " (bit s = square s in the mover's frame, a1 = 0)");
  return out;
}

std::vector<std::string> scalar_meanings() {
  std::vector<std::string> out;
  for (const char* side : {"the mover's", "the opponent's"})
    for (const char* man : {"kings", "mets/ferses", "khons", "knights", "rooks"})
      out.push_back(std::string(side) + " " + man + " in hand / 2");
  for (const char* s : {
           "placement phase (either side has men in hand): 0 or 1",
           "the mover may promote (Sittuyin: has pawns and no met): 0 or 1",
           "the opponent may promote: 0 or 1",
           "earlier occurrences of this position since the last irreversible move, at most 2, / 2",
           "n-move clock / the profile's n-move limit (0 without the rule)",
           "a count (Sittuyin counting rule) is running: 0 or 1",
           "counted plies / counting limit (0 when no count runs)",
           "profile: white-then-black placement",
           "profile: first own rank for men - 1",
           "profile: last own rank for men - 3",
           "profile: black-rook screen",
           "profile: diagonal-step promotion",
           "profile: last pawn promotes anywhere",
           "profile: promotion may not discover check",
           "profile: stalemating is illegal",
           "profile: stalemate loses",
           "profile: K+P promotion-only draw",
           "profile: counting rule (asean)",
           "profile: n-move limit / 100",
           "profile: pychess insufficient material",
           "profile: bare-kings-only insufficient material",
           "profile: bare king loses",
       })
    out.push_back(s);
  return out;
}

}  // namespace sz::chaturanga
