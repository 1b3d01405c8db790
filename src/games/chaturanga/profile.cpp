#include "games/chaturanga/profile.h"

#include "core/rng.h"

namespace sz::chaturanga {
namespace {

using namespace board8;

// Ranks `first`..`last` (1 = own back rank) as seen by colour c.
Bitboard own_ranks(Color c, int first, int last) {
  Bitboard b = 0;
  for (int r = first; r <= last; ++r) b |= rank_bb(c == White ? r - 1 : 8 - r);
  return b;
}

// The two long diagonals in the opponent's half: White a8 b7 c6 d5 e5 f6 g7 h8.
Bitboard promotion_diagonals(Color c) {
  Bitboard b = 0;
  for (int f = 0; f < 8; ++f) {
    const int r = f < 4 ? 7 - f : f;  // a8 b7 c6 d5 | e5 f6 g7 h8
    b |= bit(make_square(f, c == White ? r : 7 - r));
  }
  return b;
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char ch : s) h = (h ^ uint8_t(ch)) * 0x100000001b3ull;
  return h;
}

}  // namespace

void resolve(RuleProfile& p) {
  for (Color c : {White, Black}) {
    p.men_drop_zone[c] = own_ranks(c, p.men_ranks[0], p.men_ranks[1]);
    p.rook_drop_zone[c] = own_ranks(c, p.rook_ranks[0], p.rook_ranks[1]);
    p.promotion_zone[c] = promotion_diagonals(c);
    p.last_pawn_zone[c] = p.last_pawn_promotes_anywhere ? ~Bitboard{0} : promotion_diagonals(c);
  }
  p.promotion_steps_allowed = p.promotion_diagonal_step ? ~Bitboard{0} : 0;
  uint64_t seed = fnv1a(p.id);
  p.hash_key = splitmix64(seed);
}

std::string_view start_fen(Game game) {
  return game == Game::Sittuyin ? "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"
                                : "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1";
}

std::string_view game_name(Game game) { return game == Game::Sittuyin ? "sittuyin" : "shatranj"; }

}  // namespace sz::chaturanga
