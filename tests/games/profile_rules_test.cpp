// Each rule point on which a profile differs from `sittuyin` (../shared/RULES.md, sections 0 and
// 2), tested on a small position built for it: the profile's behaviour and, on the same
// position, the contrasting `sittuyin` behaviour. The FSF vectors cover `sittuyin` itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/position.h"
#include "games/chaturanga/rule_profiles.h"

namespace sz::chaturanga {
namespace {

using Moves = std::vector<std::string>;

const RuleProfile& rules(std::string_view id) {
  return *chaturanga::rule_profile(id).take_or_throw("profile " + std::string(id));
}

Position from_fen(std::string_view fen, std::string_view profile) {
  return Position::from_fen(fen, rules(profile)).take_or_throw(std::string(profile));
}

// Sorted UCI strings of the legal moves of `pos` that pass `keep`.
template <typename Keep>
Moves legal_moves(const Position& pos, Keep keep) {
  MoveList list;
  generate_legal(pos, list);
  Moves out;
  for (Move m : list)
    if (keep(m)) out.push_back(to_uci(m, pos.rules().game));
  std::sort(out.begin(), out.end());
  return out;
}
Moves legal_moves(const Position& pos) {
  return legal_moves(pos, [](Move) { return true; });
}
Moves promotions(const Position& pos) {
  return legal_moves(pos, [](Move m) { return m.is_promotion(); });
}
Moves drops(const Position& pos) {
  return legal_moves(pos, [](Move m) { return m.is_drop(); });
}
bool contains(const Moves& moves, std::string_view m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

Position play(Position pos, std::initializer_list<std::string_view> moves) {
  for (std::string_view text : moves) pos.do_move(parse_move(text, pos).take_or_throw(pos.fen()));
  return pos;
}

GameEnd end_of(const Position& pos) { return adjudicate(pos, {}); }

// Every drop `<letter>@<sq>` of the given letters onto the empty squares of the given ranks.
Moves expected_drops(const Position& pos, std::string_view letters, std::vector<int> ranks) {
  Moves out;
  for (char letter : letters)
    for (int rank : ranks)
      for (int file = 0; file < 8; ++file) {
        const int sq = rank * 8 - 8 + file;  // a1 = 0
        if (!pos.piece_on(sq)) out.push_back(std::string(1, letter) + "@" + square_name(sq));
      }
  std::sort(out.begin(), out.end());
  return out;
}

Moves without_rooks(const Moves& moves) {
  Moves out;
  for (const std::string& m : moves)
    if (m[0] != 'R') out.push_back(m);
  return out;
}

// Plays the 16 placements from the start position, always the first legal move, and returns
// the side that dropped each man ("W"/"B"), checking that every move offered is a drop of a
// man the side to move still holds and that the dropped man lands in its colour.
std::string placement_sides(std::string_view profile) {
  Position pos = Position::start(rules(profile));
  std::string sides;
  for (int i = 0; i < 16; ++i) {
    MoveList list;
    generate_legal(pos, list);
    if (list.size == 0) {
      ADD_FAILURE() << profile << ": no legal move during placement at " << pos.fen();
      return sides;
    }
    const Color us = pos.side_to_move();
    for (Move m : list) {
      EXPECT_TRUE(m.is_drop()) << profile << ": " << to_uci(m, Game::Sittuyin) << " in " << pos.fen();
      EXPECT_GT(pos.in_hand(us, m.dropped()), 0) << profile << ": " << to_uci(m, Game::Sittuyin);
    }
    const Move m = list.moves[0];
    pos.do_move(m);
    EXPECT_EQ(color_of(pos.piece_on(m.to())), us) << profile;
    std::string why;
    EXPECT_TRUE(pos.pos_is_ok(&why)) << profile << ": " << why;
    sides += us == White ? 'W' : 'B';
  }
  // Placement over: White makes the first board move.
  EXPECT_EQ(pos.side_to_move(), White) << profile << ": " << pos.fen();
  EXPECT_EQ(pos.hand_count(White) + pos.hand_count(Black), 0) << profile;
  const Moves board_moves = legal_moves(pos);
  EXPECT_FALSE(board_moves.empty()) << profile;
  EXPECT_TRUE(drops(pos).empty()) << profile;
  return sides;
}

// ---------------------------------------------------------------------------------------------
// Placement

// Placement order (RULES.md sec. 0 / sec. 2 "placement order"): Ply Yard and traditional: White
// places all 8, then Black all 8, then White's first board move; sittuyin alternates.
TEST(ProfileRules, PlacementOrderWhiteThenBlack) {
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin-traditional"})
    EXPECT_EQ(placement_sides(profile), "WWWWWWWWBBBBBBBB") << profile;
  for (std::string_view profile : {"sittuyin", "sittuyin-chessplayx", "sittuyin-youzai"})
    EXPECT_EQ(placement_sides(profile), "WBWBWBWBWBWBWBWB") << profile;
}

// Placement order after one White drop (sec. 2 "placement order"): White keeps the move while it
// holds men; under sittuyin Black answers with a drop of its own.
TEST(ProfileRules, PlacementOrderAfterFirstDrop) {
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin-traditional", "sittuyin"}) {
    const bool sequential = profile != std::string_view("sittuyin");
    const Position pos = play(Position::start(rules(profile)), {"R@a1"});
    EXPECT_EQ(pos.side_to_move(), sequential ? White : Black) << profile;
    EXPECT_EQ(pos.in_hand(White, Rook), 1) << profile;
    const Moves next = drops(pos);
    EXPECT_EQ(next.size(), legal_moves(pos).size()) << profile << ": only drops while placing";
    // White's second rook may go to rank 1; Black's rooks go to rank 8.
    EXPECT_EQ(contains(next, "R@b1"), sequential) << profile;
    EXPECT_EQ(contains(next, "R@b8"), !sequential) << profile;
  }
}

// Placement order when White is placed and Black still holds all its men (sec. 1.3 last bullets,
// sec. 9.8): traditional: Black keeps placing; sittuyin (FSF): Black drops, then White moves.
TEST(ProfileRules, PlacementOrderBlackPlacesAllAfterWhite) {
  const std::string_view fen = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[kssfrrnn] b - - 0 1";
  const Position trad = play(from_fen(fen, "sittuyin-traditional"), {"N@a6"});
  EXPECT_EQ(trad.side_to_move(), Black);
  EXPECT_EQ(drops(trad).size(), legal_moves(trad).size());
  EXPECT_FALSE(drops(trad).empty());

  const Position fsf = play(from_fen(fen, "sittuyin"), {"N@a6"});
  EXPECT_EQ(fsf.side_to_move(), White);
  EXPECT_TRUE(drops(fsf).empty());
  EXPECT_TRUE(contains(legal_moves(fsf), "a3a4"));
}

// Placement squares for White (sec. 0 "placement squares", "rooks"; sec. 2 "region", "other men
// on the first rank"): Ply Yard: non-rook men on ranks 2-4, never rank 1; rooks only on rank 1.
// The king may not be placed in check, so not on a4-d4, which the black pawns a5-d5 attack.
TEST(ProfileRules, PlyYardWhiteDropZones) {
  const Position ply = Position::start(rules("sittuyin-plyyard"));
  Moves want = expected_drops(ply, "SFN", {2, 3, 4});
  const Moves kings = expected_drops(ply, "K", {2, 3});
  const Moves rooks = expected_drops(ply, "R", {1});
  want.insert(want.end(), kings.begin(), kings.end());
  want.insert(want.end(), rooks.begin(), rooks.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(drops(ply), want);
  EXPECT_EQ(want.size(), 3u * 16 + 12 + 8);  // 16 empty squares on ranks 2-4: rank 2, e3-h3, a4-d4
  EXPECT_FALSE(contains(drops(ply), "K@e1"));
  EXPECT_FALSE(contains(drops(ply), "N@a1"));
  EXPECT_TRUE(contains(drops(ply), "N@a4"));
  EXPECT_FALSE(contains(drops(ply), "K@a4"));
  EXPECT_EQ(perft(ply, 1), 68u);

  const Position fsf = Position::start(rules("sittuyin"));
  Moves fsf_want = expected_drops(fsf, "KSFN", {1, 2, 3});
  fsf_want.insert(fsf_want.end(), rooks.begin(), rooks.end());
  std::sort(fsf_want.begin(), fsf_want.end());
  EXPECT_EQ(drops(fsf), fsf_want);
  EXPECT_TRUE(contains(drops(fsf), "K@e1"));
  EXPECT_FALSE(contains(drops(fsf), "N@a4"));
  EXPECT_EQ(perft(fsf, 1), 88u);
}

// Placement squares for Black (sec. 0 "placement squares"): Ply Yard: Black's non-rook men on
// ranks 5-7 (its own ranks 2-4), never rank 8; sittuyin: ranks 6-8.
TEST(ProfileRules, PlyYardBlackDropZones) {
  const std::string_view fen = "8/8/4pppp/pppp4/4PPPP/PPPP4/NSKFS1N1/R6R[kssfrrnn] b - - 0 1";
  const Position ply = from_fen(fen, "sittuyin-plyyard");
  // The king not on e5-h5, which the white pawns e4-h4 attack.
  Moves want = expected_drops(ply, "SFN", {5, 6, 7});
  const Moves kings = expected_drops(ply, "K", {6, 7});
  want.insert(want.end(), kings.begin(), kings.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(without_rooks(drops(ply)), want);
  EXPECT_TRUE(contains(drops(ply), "N@e5"));
  EXPECT_FALSE(contains(drops(ply), "K@e5"));
  EXPECT_FALSE(contains(drops(ply), "K@e8"));
  for (const std::string& m : drops(ply)) EXPECT_TRUE(m[0] != 'R' || m[3] == '8') << m;

  const Position fsf = from_fen(fen, "sittuyin");
  EXPECT_EQ(without_rooks(drops(fsf)), expected_drops(fsf, "KSFN", {6, 7, 8}));
  EXPECT_TRUE(contains(drops(fsf), "K@e8"));
  EXPECT_FALSE(contains(drops(fsf), "N@e5"));
}

// Rook facing the king (sec. 0 / sec. 2 "black rook on the white king's file"): Ply Yard: no
// black rook drop on the white king's file unless a non-pawn man stands between; pawns do not
// screen. sittuyin: no restriction.
TEST(ProfileRules, PlyYardRookScreenPawnsDoNotScreen) {
  // White king d2; on the d-file only the pawns d3 and d5 stand between d8 and d2.
  const std::string_view fen = "7k/8/4pppp/pppp4/4PPPP/PPPP4/3K4/8[r] b - - 0 1";
  EXPECT_EQ(drops(from_fen(fen, "sittuyin-plyyard")), (Moves{"R@a8", "R@b8", "R@c8", "R@e8", "R@f8", "R@g8"}));
  EXPECT_EQ(drops(from_fen(fen, "sittuyin")), (Moves{"R@a8", "R@b8", "R@c8", "R@d8", "R@e8", "R@f8", "R@g8"}));
}

// Rook facing the king (sec. 2 "rook facing the king"): a knight of either colour screens.
TEST(ProfileRules, PlyYardRookScreenKnightScreens) {
  for (std::string_view fen :
       {"7k/3n4/4pppp/pppp4/4PPPP/PPPP4/3K4/8[r] b - - 0 1", "7k/8/4pppp/pppp4/3NPPPP/PPPP4/3K4/8[r] b - - 0 1"}) {
    for (std::string_view profile : {"sittuyin-plyyard", "sittuyin"}) {
      const Moves d = drops(from_fen(fen, profile));
      EXPECT_TRUE(contains(d, "R@d8")) << profile << " " << fen;
      EXPECT_EQ(d.size(), 7u) << profile << " " << fen;
    }
  }
}

// Rook facing the king (sec. 2: "checked at placement"): a rook already on the board may move
// onto the white king's file with only pawns between.
TEST(ProfileRules, PlyYardRookScreenOnlyAtPlacement) {
  const std::string_view fen = "r6k/8/4pppp/pppp4/4PPPP/PPPP4/3K4/8[] b - - 0 1";
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin"})
    EXPECT_TRUE(contains(legal_moves(from_fen(fen, profile)), "a8d8")) << profile;
}

// Rook facing the king (sec. 0 / sec. 2 name only the black rook and the white king): a white
// rook may be dropped on the black king's file under Ply Yard. (Unreachable from the start,
// where White places first, but a FEN can set it up.)
TEST(ProfileRules, PlyYardRookScreenBindsOnlyBlackRooks) {
  const std::string_view fen = "3k4/8/4pppp/pppp4/4PPPP/PPPP4/7K/8[R] w - - 0 1";
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin"})
    EXPECT_TRUE(contains(drops(from_fen(fen, profile)), "R@d1")) << profile;
}

// ---------------------------------------------------------------------------------------------
// Promotion

// Promotion forms (sec. 0 / sec. 2 "promotion move forms"): Ply Yard: in place only; sittuyin:
// in place or one diagonal step in any direction (sec. 4 perft-1 list).
TEST(ProfileRules, PlyYardPromotionInPlaceOnly) {
  const std::string_view fen = "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1";
  EXPECT_EQ(promotions(from_fen(fen, "sittuyin-plyyard")), (Moves{"d5d5f"}));
  EXPECT_EQ(promotions(from_fen(fen, "sittuyin")), (Moves{"d5c4f", "d5c6f", "d5d5f", "d5e4f", "d5e6f"}));
  // The pawn's ordinary moves are the same under both.
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin"}) {
    const Moves all = legal_moves(from_fen(fen, profile));
    EXPECT_TRUE(contains(all, "d5d6") && contains(all, "a2a3")) << profile;
  }
}

// Promotion forms in check (sec. 1.4 item 7, sec. 0 "promotion forms"): only a diagonal step can
// block a check, so under Ply Yard a promotion never answers one.
TEST(ProfileRules, PlyYardPromotionCannotBlockCheck) {
  // Black king h5 checked by Ra5 along rank 5; the pawn d4 (on Black's diagonal; a7 makes it not
  // the last pawn) could block on c5 or e5 by a diagonal step.
  const std::string_view fen = "8/p7/8/R6k/3p4/8/8/K7[] b - - 0 1";
  EXPECT_EQ(legal_moves(from_fen(fen, "sittuyin")), (Moves{"d4c5f", "d4e5f", "h5g4", "h5g6", "h5h4", "h5h6"}));
  EXPECT_EQ(legal_moves(from_fen(fen, "sittuyin-plyyard")), (Moves{"h5g4", "h5g6", "h5h4", "h5h6"}));
}

// Last pawn promotes anywhere (sec. 0 / sec. 2): Ply Yard: no, only on the promotion diagonals;
// sittuyin: yes, even in its own half (sec. 1.4 item 3).
TEST(ProfileRules, PlyYardLastPawnOnlyOnDiagonals) {
  const std::string_view own_half = "7k/8/8/8/8/8/P7/4K3[] w - - 0 1";
  EXPECT_TRUE(promotions(from_fen(own_half, "sittuyin-plyyard")).empty());
  EXPECT_EQ(promotions(from_fen(own_half, "sittuyin")), (Moves{"a2a2f", "a2b1f", "a2b3f"}));

  // A single pawn on a promotion square promotes under both, in place only under Ply Yard.
  const std::string_view diagonal = "7k/8/8/3P4/8/8/8/4K3[] w - - 0 1";
  EXPECT_EQ(promotions(from_fen(diagonal, "sittuyin-plyyard")), (Moves{"d5d5f"}));
  EXPECT_EQ(promotions(from_fen(diagonal, "sittuyin")), (Moves{"d5c4f", "d5c6f", "d5d5f", "d5e4f", "d5e6f"}));
}

// Promotion may not give check (sec. 0 / sec. 2, sec. 5.2): ChessPlayX and Youzai test only the
// direct check, so a diagonal step may uncover Rd1-d8; sittuyin allows only d5d5f.
TEST(ProfileRules, DiscoveredCheckPromotionAllowedChessPlayXYouzai) {
  const std::string_view fen = "3k4/8/8/3P4/8/8/P7/3RK3[] w - - 0 1";
  EXPECT_EQ(promotions(from_fen(fen, "sittuyin")), (Moves{"d5d5f"}));
  for (std::string_view profile : {"sittuyin-chessplayx", "sittuyin-youzai"}) {
    const Position pos = from_fen(fen, profile);
    EXPECT_EQ(promotions(pos), (Moves{"d5c4f", "d5c6f", "d5d5f", "d5e4f", "d5e6f"})) << profile;
    const Position after = play(pos, {"d5c6f"});
    EXPECT_TRUE(after.in_check()) << profile;
    EXPECT_EQ(after.checkers(), pos.pieces(White, Rook)) << profile;
    EXPECT_EQ(type_of(after.piece_on(42)), Fers) << profile;  // c6
    EXPECT_FALSE(end_of(after).over()) << profile;
  }
}

// New met may not attack an enemy man (sec. 0 / sec. 2, sec. 5.1): still enforced under
// ChessPlayX and Youzai: with a black knight on b7, d5c6f is gone.
TEST(ProfileRules, NewMetMayNotAttackUnderChessPlayXYouzai) {
  const std::string_view fen = "3k4/1n6/8/3P4/8/8/P7/3RK3[] w - - 0 1";
  EXPECT_EQ(promotions(from_fen(fen, "sittuyin")), (Moves{"d5d5f"}));
  for (std::string_view profile : {"sittuyin-chessplayx", "sittuyin-youzai"})
    EXPECT_EQ(promotions(from_fen(fen, profile)), (Moves{"d5c4f", "d5d5f", "d5e4f", "d5e6f"})) << profile;
}

// Promotion and pins (sec. 1.4 item 7): without the discovered-check test a pinned pawn still
// may not step off the pin line: only d5d5f under every profile.
TEST(ProfileRules, PinnedPawnPromotesInPlaceUnderChessPlayXYouzai) {
  const std::string_view fen = "3r3k/8/8/3P4/8/8/P7/3K4[] w - - 0 1";
  for (std::string_view profile : {"sittuyin", "sittuyin-chessplayx", "sittuyin-youzai"})
    EXPECT_EQ(promotions(from_fen(fen, profile)), (Moves{"d5d5f"})) << profile;
}

// ---------------------------------------------------------------------------------------------
// Stalemate

// Stalemate (sec. 0 / sec. 2 "stalemate"): Ply Yard and traditional: a stalemating move is
// illegal; sittuyin: legal, and the result is a stalemate draw (sec. 6.1 vector).
TEST(ProfileRules, StalematingMoveIllegalPlyYardTraditional) {
  const std::string_view fen = "8/8/8/8/8/8/8/k1K1R3[] w - - 0 1";
  const Position fsf = from_fen(fen, "sittuyin");
  const Moves fsf_moves = legal_moves(fsf);
  ASSERT_TRUE(contains(fsf_moves, "e1e2"));
  const GameEnd fsf_end = end_of(play(fsf, {"e1e2"}));
  EXPECT_EQ(fsf_end.outcome, Outcome::Draw);
  EXPECT_EQ(fsf_end.reason, EndReason::Stalemate);

  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin-traditional"}) {
    const Position pos = from_fen(fen, profile);
    Moves want = fsf_moves;
    want.erase(std::find(want.begin(), want.end(), "e1e2"));  // the only stalemating move
    EXPECT_EQ(legal_moves(pos), want) << profile;
    EXPECT_FALSE(parse_move("e1e2", pos).ok()) << profile;
    MoveList unfiltered;
    generate_legal_unfiltered(pos, unfiltered);
    EXPECT_EQ(size_t(unfiltered.size), fsf_moves.size()) << profile;
    EXPECT_FALSE(end_of(pos).over()) << profile;
  }
}

// Stalemate (sec. 0 "a side whose every move would stalemate has drawn"): White's only moves
// Kd7 and Kd8 both stalemate Black (a7, h7 blocked; b7/b8 held by the pawns a6 and c7). Black has
// two pawns off its diagonals, so it has no promotion either (sec. 1.4 item 3).
TEST(ProfileRules, EveryMoveStalematesIsDrawPlyYardTraditional) {
  const std::string_view fen = "k1K5/p1P4p/P6P/8/8/8/8/8[] w - - 0 1";
  const Position fsf = from_fen(fen, "sittuyin");
  EXPECT_EQ(legal_moves(fsf), (Moves{"c8d7", "c8d8"}));
  EXPECT_FALSE(end_of(fsf).over());
  for (std::string_view m : {"c8d7", "c8d8"}) {
    const GameEnd e = end_of(play(fsf, {m}));
    EXPECT_EQ(e.outcome, Outcome::Draw) << m;
    EXPECT_EQ(e.reason, EndReason::Stalemate) << m;
  }
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin-traditional"}) {
    const Position pos = from_fen(fen, profile);
    EXPECT_TRUE(legal_moves(pos).empty()) << profile;
    EXPECT_EQ(perft(pos, 1), 0u) << profile;
    const GameEnd e = end_of(pos);
    EXPECT_EQ(e.outcome, Outcome::Draw) << profile;
    EXPECT_EQ(e.reason, EndReason::NoLegalMoveDraw) << profile;
  }
}

// Stalemate rule vs checkmate (sec. 0 "stalemate", sec. 1.5): the filter removes only moves that
// leave the opponent without moves and out of check; a mating move stays legal.
TEST(ProfileRules, MatingMoveStaysLegalPlyYardTraditional) {
  const std::string_view fen = "k7/8/1K6/8/8/8/8/7R[] w - - 0 1";
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin-traditional", "sittuyin"}) {
    const Position pos = from_fen(fen, profile);
    ASSERT_TRUE(contains(legal_moves(pos), "h1h8")) << profile;
    const GameEnd e = end_of(play(pos, {"h1h8"}));
    EXPECT_EQ(e.outcome, Outcome::WhiteWins) << profile;
    EXPECT_EQ(e.reason, EndReason::Checkmate) << profile;
  }
}

// A position already stalemated (sec. 0 "stalemate"): if the side to move has no move at all it
// is an ordinary stalemate draw under every sittuyin profile, not NoLegalMoveDraw.
TEST(ProfileRules, StalematedPositionIsStalemateDraw) {
  const std::string_view fen = "8/8/8/8/8/8/4R3/k1K5[] b - - 0 1";
  for (std::string_view profile : {"sittuyin-plyyard", "sittuyin-traditional", "sittuyin"}) {
    const GameEnd e = end_of(from_fen(fen, profile));
    EXPECT_EQ(e.outcome, Outcome::Draw) << profile;
    EXPECT_EQ(e.reason, EndReason::Stalemate) << profile;
  }
}

// ---------------------------------------------------------------------------------------------
// Youzai: counting and insufficient material

// Counting rule (sec. 0 / sec. 2 "counting rule"): Youzai has none: baring the king starts no
// count; sittuyin starts a 16-move (32-ply) count (sec. 6.1 "counting: start").
TEST(ProfileRules, YouzaiNoCountingAfterBareKing) {
  const std::string_view fen = "4k3/8/8/3n4/8/8/8/3RK3[] w - - 0 1";
  const Position fsf = play(from_fen(fen, "sittuyin"), {"d1d5"});
  EXPECT_EQ(fsf.counting_limit(), 32);
  EXPECT_EQ(fsf.fen(), "4k3/8/8/3R4/8/8/8/4K3[] b - 32 0 1");

  Position yz = play(from_fen(fen, "sittuyin-youzai"), {"d1d5"});
  EXPECT_EQ(yz.counting_limit(), 0);
  EXPECT_EQ(yz.fen(), "4k3/8/8/3R4/8/8/8/4K3[] b - - 0 1");
  // 34 moves later (68 plies, past the rook's 32, short of the 100-ply rule; no history, so no
  // repetition): sittuyin has drawn by counting, Youzai plays on.
  Position played = fsf;
  for (int i = 0; i < 17; ++i) {
    yz = play(yz, {"e8f8", "d5d6", "f8e8", "d6d5"});
    played = play(played, {"e8f8", "d5d6", "f8e8", "d6d5"});
  }
  EXPECT_EQ(yz.counting_limit(), 0);
  EXPECT_FALSE(end_of(yz).over());
  EXPECT_EQ(end_of(played).reason, EndReason::Counting);
}

// Counting rule in the FEN (sec. 4 "counting state", sec. 9.6): Youzai has no count, so a number
// in the en-passant slot is an error; sittuyin reads it as the counting limit.
TEST(ProfileRules, YouzaiRejectsCountingFen) {
  const std::string_view fen = "8/8/8/8/8/3k4/3R4/6K1[] b - 32 5 40";
  const auto yz = Position::from_fen(fen, rules("sittuyin-youzai"));
  ASSERT_FALSE(yz.ok());
  EXPECT_NE(yz.error().find("en-passant"), std::string::npos) << yz.error();
  const Position fsf = from_fen(fen, "sittuyin");
  EXPECT_EQ(fsf.counting_limit(), 32);
  EXPECT_EQ(fsf.counting_ply(), 5);
  // Past the limit sittuyin draws by counting (sec. 6.1 "counting: increment and end").
  const GameEnd e = end_of(from_fen("8/8/8/8/8/8/4R3/k1K5[] w - 32 33 1", "sittuyin"));
  EXPECT_EQ(e.reason, EndReason::Counting);
}

// Insufficient material (sec. 0 / sec. 2): Youzai draws only bare kings; K+N vs K and K+F vs K
// play on, while sittuyin (pychess) draws them as Insufficient.
TEST(ProfileRules, YouzaiInsufficientOnlyBareKings) {
  for (std::string_view fen : {"4k3/8/8/8/8/8/8/3NK3[] w - - 0 1", "4k3/8/8/8/8/8/8/3FK3[] w - - 0 1"}) {
    const Position fsf = from_fen(fen, "sittuyin");
    EXPECT_TRUE(cannot_mate(fsf, White)) << fen;
    EXPECT_EQ(end_of(fsf).outcome, Outcome::Draw) << fen;
    EXPECT_EQ(end_of(fsf).reason, EndReason::Insufficient) << fen;
    const Position yz = from_fen(fen, "sittuyin-youzai");
    EXPECT_FALSE(cannot_mate(yz, White)) << fen;
    EXPECT_FALSE(end_of(yz).over()) << fen;
    EXPECT_EQ(end_of(yz).reason, EndReason::None) << fen;
  }
}

// Insufficient material, bare kings (sec. 0 / sec. 2 "bare king"): K vs K is a draw under both.
TEST(ProfileRules, BareKingsDrawUnderYouzaiAndSittuyin) {
  const std::string_view fen = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1";
  for (std::string_view profile : {"sittuyin-youzai", "sittuyin"}) {
    const GameEnd e = end_of(from_fen(fen, profile));
    EXPECT_EQ(e.outcome, Outcome::Draw) << profile;
    EXPECT_EQ(e.reason, EndReason::Insufficient) << profile;
  }
  // Bare kings reached by a capture: Youzai draws at once (no count to wait for).
  const Position yz = play(from_fen("4k3/8/8/8/8/8/3n4/4K3[] w - - 0 1", "sittuyin-youzai"), {"e1d2"});
  EXPECT_EQ(end_of(yz).reason, EndReason::Insufficient);
}

// ---------------------------------------------------------------------------------------------
// Shatranj against sittuyin (sec. 0 last paragraph, sec. 3.2, sec. 6.2)

// Stalemate (sec. 3.2 "stalemate", sec. 6.2 vector with a second blocked pawn pair, so that the
// Sittuyin last-pawn promotion cannot move): the stalemated side loses in Shatranj, draws in
// Sittuyin. Q is the Shatranj fers, F the Sittuyin met: the same man on f7.
TEST(ProfileRules, ShatranjStalemateLosesSittuyinDraws) {
  const GameEnd sh = end_of(from_fen("7k/5Q2/6K1/p1p5/P1P5/8/8/8 b - - 0 1", "shatranj"));
  EXPECT_EQ(sh.outcome, Outcome::WhiteWins);
  EXPECT_EQ(sh.reason, EndReason::Stalemate);
  const GameEnd sit = end_of(from_fen("7k/5F2/6K1/p1p5/P1P5/8/8/8[] b - - 0 1", "sittuyin"));
  EXPECT_EQ(sit.outcome, Outcome::Draw);
  EXPECT_EQ(sit.reason, EndReason::Stalemate);
}

// Bare king and insufficient material (sec. 3.2, sec. 6.2): K+P+R vs K wins at once in Shatranj
// and plays on in Sittuyin; K vs K plays on in Shatranj and is Insufficient in Sittuyin.
TEST(ProfileRules, ShatranjBareKingAndNoInsufficientMaterial) {
  const GameEnd sh = end_of(from_fen("4k3/1P6/8/8/8/8/8/R3K3 w - - 0 1", "shatranj"));
  EXPECT_EQ(sh.outcome, Outcome::WhiteWins);
  EXPECT_EQ(sh.reason, EndReason::BareKing);
  EXPECT_FALSE(end_of(from_fen("4k3/1P6/8/8/8/8/8/R3K3[] w - - 0 1", "sittuyin")).over());

  EXPECT_FALSE(end_of(from_fen("8/8/8/8/3k4/8/8/4K3 w - - 0 1", "shatranj")).over());
  EXPECT_EQ(end_of(from_fen("8/8/8/8/3k4/8/8/4K3[] w - - 0 1", "sittuyin")).reason, EndReason::Insufficient);
}

}  // namespace
}  // namespace sz::chaturanga
