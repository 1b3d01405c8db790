#pragma once
// A rule profile: the rule points on which Sittuyin platforms (and Shatranj) differ, as data.
// Profiles are written in configs/rules/*.yaml and parsed by rule_profiles.h; resolve() then turns the
// points into tables (drop zones, promotion zones) so that move generation never branches on
// the profile inside its loops. The defaults are the `sittuyin` profile (Fairy-Stockfish).
#include <cstdint>
#include <string>
#include <string_view>

#include "games/chaturanga/types.h"

namespace sz::chaturanga {

enum class Game : uint8_t { Sittuyin, Shatranj };
enum class PlacementOrder : uint8_t { Alternate, WhiteThenBlack };
enum class StalemateRule : uint8_t { Draw, IllegalToCause, Loss };
enum class CountingRule : uint8_t { None, Asean };
enum class InsufficientMaterialRule : uint8_t { None, Pychess, BareKings };

struct RuleProfile {
  std::string id = "sittuyin";
  std::string source;  // where the rules come from, for humans
  Game game = Game::Sittuyin;

  // Placement (Sittuyin only). Ranks are counted from the placing side: 1 = its back rank.
  PlacementOrder placement_order = PlacementOrder::Alternate;
  int men_ranks[2] = {1, 3};  // non-rook men, inclusive range
  int rook_ranks[2] = {1, 1};
  // A black rook may not be placed on the white king's file unless a non-pawn man stands
  // between them (Ply Yard, where White has placed all its men before Black places any).
  bool rook_needs_screen = false;

  // Sittuyin promotion to a met. The new met never attacks an enemy man (all platforms).
  bool promotion_diagonal_step = true;        // else in place only
  bool last_pawn_promotes_anywhere = true;    // else only on the promotion diagonals
  bool promotion_no_discovered_check = true;  // else only the (excluded) direct check counts

  // Game end.
  StalemateRule stalemate = StalemateRule::Draw;
  bool promotion_only_draw = true;  // K+P whose every legal move is a promotion: draw
  CountingRule counting = CountingRule::Asean;
  int n_move_plies = 100;  // 0 = no n-move rule
  int repetitions = 3;     // 0 = no repetition rule
  InsufficientMaterialRule insufficient = InsufficientMaterialRule::Pychess;
  bool bare_king_loses = false;  // Shatranj: baring the enemy king wins (with the one-move exception)

  // Filled by resolve(); read by move generation.
  Bitboard men_drop_zone[2] = {};
  Bitboard rook_drop_zone[2] = {};
  Bitboard promotion_zone[2] = {};       // where a pawn may promote when its side has several pawns
  Bitboard last_pawn_zone[2] = {};       // where a side's single pawn may promote
  Bitboard promotion_steps_allowed = 0;  // all squares if diagonal steps are allowed, else 0
  uint64_t hash_key = 0;                 // mixed into every position hash
};

// Fills the derived tables of `profile` from its rule points. Call once after loading.
void resolve(RuleProfile& profile);

std::string_view start_fen(Game game);
std::string_view game_name(Game game);

}  // namespace sz::chaturanga
