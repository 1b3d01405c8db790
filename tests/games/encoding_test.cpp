// The encoding behind the game seam: every legal move has exactly one action id and back, and a
// position encodes exactly as its colour-mirrored twin (Sittuyin: the board rotated by 180
// degrees; Shatranj: flipped vertically), with the same legal action ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/rng.h"
#include "games/chaturanga/action_space.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/encoder.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/state.h"
#include "games/registry.h"
#include "games/vector_files.h"

namespace sz::chaturanga {
namespace {

std::string swap_case(std::string s) {
  for (char& c : s) c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
  return s;
}

// The FEN of the colour-mirrored twin: colours swapped, board rotated (Sittuyin) or flipped.
std::string mirrored_fen(const std::string& fen, Game game) {
  const auto fields = test::split_words(fen);
  std::string board = fields[0], hand;
  if (const size_t open = board.find('['); open != std::string::npos) {
    hand = board.substr(open);
    board = board.substr(0, open);
  }
  std::vector<std::string> ranks;
  for (size_t start = 0, end; start <= board.size(); start = end + 1) {
    end = std::min(board.find('/', start), board.size());
    std::string rank = board.substr(start, end - start);
    if (game == Game::Sittuyin) std::reverse(rank.begin(), rank.end());  // digits are symmetric
    ranks.push_back(swap_case(rank));
  }
  std::reverse(ranks.begin(), ranks.end());
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) out += (i ? "/" : "") + ranks[i];
  out += swap_case(hand) + (fields[1] == "w" ? " b" : " w");
  for (size_t i = 2; i < fields.size(); ++i) out += " " + fields[i];
  return out;
}

// The FEN of the board mirrored a <-> h: each rank read backwards, the rest as it is.
std::string file_mirrored_fen(const std::string& fen) {
  const size_t end = fen.find_first_of("[ ");
  std::string board = fen.substr(0, end);
  for (size_t start = 0, stop; start < board.size(); start = stop + 1) {
    stop = std::min(board.find('/', start), board.size());
    std::reverse(board.begin() + long(start), board.begin() + long(stop));
  }
  return board + fen.substr(end);
}

uint64_t mirror_files(uint64_t b) {
  uint64_t out = 0;
  for (int sq = 0; sq < 64; ++sq)
    if (b >> sq & 1) out |= uint64_t{1} << board8::mirror_files(sq);
  return out;
}

struct Encoded {
  uint64_t planes[kBinaryPlanes];
  float scalars[kScalarFeatures];
  bool operator==(const Encoded& o) const {
    return std::equal(planes, planes + kBinaryPlanes, o.planes) &&
           std::equal(scalars, scalars + kScalarFeatures, o.scalars);
  }
};

Encoded encoded(const Position& pos) {
  Encoded e{};
  encode(pos, /*repetitions=*/0, e.planes, e.scalars);
  return e;
}

std::set<int32_t> legal_ids(const Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::set<int32_t> ids;
  for (Move m : list) ids.insert(action_of(pos, m));
  return ids;
}

void expect_actions_round_trip(const Position& pos, const std::string& where) {
  MoveList list;
  generate_legal(pos, list);
  std::set<int32_t> ids;
  for (Move m : list) {
    const int32_t id = action_of(pos, m);
    ASSERT_GE(id, 0) << where;
    ASSERT_LT(id, action_space_size(pos.rules().game)) << where;
    EXPECT_TRUE(ids.insert(id).second) << where << ": two moves share id " << id;
    EXPECT_EQ(move_of(pos, id), m) << where << ": id " << id;
  }
}

void expect_mirror_symmetry(const Position& played, const std::string& where) {
  // Both sides of the comparison come from a FEN, which drops the n-move clock during a count.
  const Position pos = Position::from_fen(played.fen(), played.rules()).value();
  const auto twin = Position::from_fen(mirrored_fen(pos.fen(), pos.rules().game), pos.rules());
  ASSERT_TRUE(twin.ok()) << where << ": " << twin.error();
  EXPECT_TRUE(encoded(pos) == encoded(*twin)) << where << " vs " << twin->fen();
  if (pos.rules().id == "sittuyin" || pos.rules().id == "shatranj") {  // no colour-specific rules
    EXPECT_EQ(legal_ids(pos), legal_ids(*twin)) << where << " vs " << twin->fen();
  }
}

// The trainer's mirror (GameSpec::mirror_actions): the board mirrored a <-> h encodes to the same
// scalars and to mirrored planes, and its legal actions are the twins of the position's.
void expect_file_mirror_symmetry(const Position& played, const std::string& where) {
  const Position pos = Position::from_fen(played.fen(), played.rules()).value();
  const auto twin = Position::from_fen(file_mirrored_fen(pos.fen()), pos.rules());
  ASSERT_TRUE(twin.ok()) << where << ": " << twin.error();
  Encoded expected = encoded(pos);
  for (uint64_t& plane : expected.planes) plane = mirror_files(plane);
  EXPECT_TRUE(encoded(*twin) == expected) << where << " vs " << twin->fen();
  const auto mirror = mirror_actions(pos.rules().game);
  std::set<int32_t> twins;
  for (const int32_t id : legal_ids(pos)) twins.insert(mirror[size_t(id)]);
  EXPECT_EQ(legal_ids(*twin), twins) << where << " vs " << twin->fen();
  EXPECT_EQ(twin->in_check(), pos.in_check()) << where;
  const GameEnd end = adjudicate(pos, {}), twin_end = adjudicate(*twin, {});
  EXPECT_EQ(twin_end.outcome, end.outcome) << where;
  EXPECT_EQ(twin_end.reason, end.reason) << where;
}

TEST(ActionSpace, SizesMatchTheDocumentedLayout) {
  EXPECT_EQ(action_space_size(Game::Sittuyin), 1572 + 5 * 64 + 64 * 5);
  EXPECT_EQ(action_space_size(Game::Shatranj), 1572);
}

// The spatial policy map: one distinct cell per action, a board move on its from-square, a drop
// on its to-square, a promotion on its from-square; 44 displacement planes (28 rook lines, 4 met
// steps, 8 knight jumps, 4 alfil leaps), plus 5 drop and 5 promotion planes in Sittuyin.
TEST(ActionSpace, PolicyMapGivesEveryActionItsOwnCell) {
  for (const Game game : {Game::Sittuyin, Game::Shatranj}) {
    const auto map = policy_map(game);
    ASSERT_EQ(int(map.size()), action_space_size(game));
    EXPECT_EQ(policy_planes(game), game == Game::Sittuyin ? 54 : 44);
    const std::set<int32_t> cells(map.begin(), map.end());
    EXPECT_EQ(cells.size(), map.size());
    for (int32_t c : map) EXPECT_TRUE(c >= 0 && c < policy_planes(game) * 64) << c;
    const game::GameSpec spec = game_spec(game);
    EXPECT_EQ(spec.policy_planes, policy_planes(game));
    EXPECT_EQ(spec.policy_map.data(), map.data());
  }
  // h1h3 and a1a3 for White: on their from-squares (7 and 0), on one plane (+2 ranks, 0 files).
  const auto rules = chaturanga::rule_profile("sittuyin").take_or_throw("sittuyin");
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R[] w - - 0 1", *rules).take_or_throw("fen");
  const auto map = policy_map(Game::Sittuyin);
  const int32_t h1h3 = action_of(pos, Move::normal(7, 23)), a1a3 = action_of(pos, Move::normal(0, 16));
  EXPECT_EQ(map[size_t(h1h3)] % 64, 7);
  EXPECT_EQ(map[size_t(a1a3)] % 64, 0);
  EXPECT_EQ(map[size_t(h1h3)] / 64, map[size_t(a1a3)] / 64);
  const int32_t drop = 1572 + 4 * 64 + 7;  // R@h1
  EXPECT_EQ(map[size_t(drop)] % 64, 7);
}

TEST(ActionSpace, ReferencePositionsRoundTripAndMirror) {
  for (const char* file : {"moves-sittuyin.txt", "moves-shatranj.txt"}) {
    for (const auto& line : test::read_vector_file(file)) {
      const std::string where = std::string(file) + ":" + std::to_string(line.number);
      const auto pos = Position::from_fen(line.fields[1], **chaturanga::rule_profile(line.fields[0]));
      ASSERT_TRUE(pos.ok()) << where;
      expect_actions_round_trip(*pos, where);
      expect_mirror_symmetry(*pos, where);
      expect_file_mirror_symmetry(*pos, where);
    }
  }
}

// The twin table itself: a permutation that is its own inverse, drops and promotions kept apart.
TEST(ActionSpace, MirrorTwinsArePairedOnce) {
  for (const Game game : {Game::Sittuyin, Game::Shatranj}) {
    const auto twin = mirror_actions(game);
    ASSERT_EQ(int(twin.size()), action_space_size(game));
    EXPECT_EQ(game_spec(game).mirror_actions.data(), twin.data());
    for (int32_t a = 0; a < int32_t(twin.size()); ++a) {
      ASSERT_GE(twin[size_t(a)], 0);
      EXPECT_EQ(twin[size_t(twin[size_t(a)])], a);
      EXPECT_EQ(a < kBoardMoves, twin[size_t(a)] < kBoardMoves) << a;
    }
  }
  // a1a3 <-> h1h3; R@a1 <-> R@h1; d5's north-east promotion (to e6) <-> e5's north-west (to d6).
  const auto rules = chaturanga::rule_profile("sittuyin").take_or_throw("sittuyin");
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R[] w - - 0 1", *rules).take_or_throw("fen");
  const auto twin = mirror_actions(Game::Sittuyin);
  EXPECT_EQ(twin[size_t(action_of(pos, Move::normal(0, 16)))], action_of(pos, Move::normal(7, 23)));
  EXPECT_EQ(twin[size_t(kBoardMoves + 4 * 64 + 0)], kBoardMoves + 4 * 64 + 7);
  EXPECT_EQ(action_text(Game::Sittuyin, twin[size_t(kBoardMoves + kDropTypes * 64 + 35 * 5 + 1)]), "e5d6f");
}

TEST(ActionSpace, RandomGamesUnderEveryProfileRoundTripAndMirror) {
  Rng rng(/*seed=*/7);
  for (const auto& name : chaturanga::builtin_rule_profiles()) {
    const RuleProfile& rules = **chaturanga::rule_profile(name);
    for (int game = 0; game < 40; ++game) {
      Position pos = Position::start(rules);
      for (int ply = 0; ply < 300; ++ply) {
        const std::string where = name + " game " + std::to_string(game) + " " + pos.fen();
        expect_actions_round_trip(pos, where);
        expect_mirror_symmetry(pos, where);
        expect_file_mirror_symmetry(pos, where);
        MoveList list;
        generate_legal(pos, list);
        if (list.size == 0) break;
        pos.do_move(list.moves[rng.below(uint32_t(list.size))]);
      }
    }
  }
}

// The bundle's action table (action_text) with the mapping docs/CLIENTS.md gives clients: the
// squares of the mover-frame text mapped back for Black, and "q" added to a Shatranj pawn's move
// to the last rank, spell every legal move as the rules do.
std::string played_text(const Position& pos, int32_t action) {
  std::string text = action_text(pos.rules().game, action);
  const Color us = pos.side_to_move();
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] < 'a' || text[i] > 'h' || text[i + 1] < '1' || text[i + 1] > '8') continue;
    const int sq = view_square(pos.rules().game, us, (text[i + 1] - '1') * 8 + (text[i] - 'a'));
    text[i] = char('a' + sq % 8);
    text[i + 1] = char('1' + sq / 8);
    ++i;
  }
  if (pos.rules().game == Game::Shatranj && move_of(pos, action).is_promotion()) text += 'q';
  return text;
}

TEST(ActionSpace, TheActionTableSpellsEveryLegalMoveForEitherSide) {
  Rng rng(/*seed=*/11);
  int checked = 0;
  for (const char* name : {"sittuyin", "shatranj"}) {
    const RuleProfile& rules = **chaturanga::rule_profile(name);
    for (int game = 0; game < 10; ++game) {
      Position pos = Position::start(rules);
      for (int ply = 0; ply < 200; ++ply) {
        MoveList list;
        generate_legal(pos, list);
        if (list.size == 0) break;
        for (int i = 0; i < list.size; ++i, ++checked)
          ASSERT_EQ(played_text(pos, action_of(pos, list.moves[i])), to_uci(list.moves[i], rules.game)) << pos.fen();
        pos.do_move(list.moves[rng.below(uint32_t(list.size))]);
      }
    }
  }
  EXPECT_GT(checked, 10000);
  EXPECT_EQ(action_text(Game::Sittuyin, kSittuyinActions), "");
  EXPECT_EQ(action_text(Game::Sittuyin, kBoardMoves + kDropTypes * 64 + 0 * 5 + 3), "");  // a1, a south-east step
  EXPECT_EQ(scalar_meanings().size(), size_t(kScalarFeatures));
  EXPECT_EQ(plane_meanings(Game::Shatranj).size(), size_t(kBinaryPlanes));
}

TEST(Encoder, PlanesAreFromTheMoversView) {
  const RuleProfile& rules = **chaturanga::rule_profile("sittuyin");
  const Position start = Position::start(rules);
  const Encoded e = encoded(start);
  EXPECT_EQ(e.planes[0], start.pieces(White, Pawn));  // own pawns, White to move: as they stand
  EXPECT_EQ(e.scalars[0], 0.5f);                      // own king in hand: 1 of at most 2
  EXPECT_EQ(e.scalars[10], 1.0f);                     // placement phase
  Position after = start;
  MoveList list;
  generate_legal(after, list);
  after.do_move(list.moves[0]);  // now Black to move: its pawns appear where White's stood
  EXPECT_EQ(encoded(after).planes[0], start.pieces(White, Pawn));
}

TEST(GameSeam, PlaysAGameThroughTheRegistry) {
  auto made = games::new_game("sittuyin");
  ASSERT_TRUE(made.ok()) << made.error();
  game::GameState& g = **made;
  EXPECT_EQ(g.spec().action_space, kSittuyinActions);
  EXPECT_EQ(g.phase(), game::Phase::Placement);
  game::ActionId actions[game::kMaxActions];
  EXPECT_EQ(g.legal_actions(actions), 88);
  const auto drop = g.parse_action("R@a1");
  ASSERT_TRUE(drop.ok()) << drop.error();
  EXPECT_EQ(g.action_to_string(*drop), "R@a1");
  g.apply(*drop);
  EXPECT_EQ(g.to_move(), game::Player::Second);
  EXPECT_EQ(g.to_string(), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7[KSSFRNNkssfrrnn] b - - 0 1");
  auto copy = games::new_game("sittuyin").value();
  copy->copy_from(g);
  EXPECT_EQ(copy->hash(), g.hash());
  EXPECT_FALSE(g.parse_action("R@a2").ok());  // a black rook cannot go to a2
  EXPECT_FALSE(games::new_game("nosuch").ok());
  EXPECT_FALSE(games::new_game("shatranj", "not a fen").ok());
}

TEST(GameSeam, OutcomeCarriesTheReason) {
  auto g = games::new_game("shatranj", "4k3/8/8/R2n4/8/8/8/3NK3 w - - 0 1").value();
  g->apply(g->parse_action("a5d5").value());
  EXPECT_EQ(g->outcome().result, game::GameResult::FirstWins);
  EXPECT_EQ(g->outcome().reason, "bare-king");
}

}  // namespace
}  // namespace sz::chaturanga
