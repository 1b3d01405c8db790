// Endgame tables: probing with a position's clocks (the counting rule, the n-move rule, a count
// about to start), the game seam (games::endgame_tables, EndgameTables), best moves that win on
// the board, and a probe that allocates nothing.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "games/chaturanga/state.h"
#include "games/chaturanga/tables/probe.h"
#include "games/registry.h"
#include "tables_fixture.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace sz::chaturanga::tables {
namespace {

using game::TableVerdict;

game::TableResult probe_fen(const std::string& profile, const std::string& fen) {
  const RuleProfile& rules = *rule_profile(profile).take_or_throw(profile);
  const Position pos = Position::from_fen(fen, rules).take_or_throw(fen);
  const auto set = testing::shared_set(profile);
  const auto r = probe(*set, pos);
  EXPECT_TRUE(r.has_value()) << fen;
  return r.value_or(game::TableResult{});
}

// White: king e1, rook a1; Black: king e5. Mate in 14 (27 plies; an independent KRK solver agrees).
constexpr const char* kKrk = "8/8/8/4k3/8/8/8/R3K3[] w";

TEST(TablesProbe, RookMatesAsInChess) {
  const auto r = probe_fen("sittuyin", std::string(kKrk) + " - - 0 1");
  EXPECT_EQ(r.verdict, TableVerdict::Win);
  EXPECT_EQ(r.plies_to_end, 27);
  EXPECT_TRUE(r.plies_exact);
  EXPECT_EQ(r.clock_plies, 34);  // the count (32 plies) starts at Black's turn, and one more ply mates
  const auto mate = probe_fen("sittuyin", "k7/8/1K6/8/8/8/8/7R[] w - - 0 1");
  EXPECT_EQ(mate.verdict, TableVerdict::Win);
  EXPECT_EQ(mate.plies_to_end, 1);
  const auto mated = probe_fen("sittuyin", "R1k5/8/2K5/8/8/8/8/8[] b - - 0 1");
  EXPECT_EQ(mated.verdict, TableVerdict::Loss);
  EXPECT_EQ(mated.plies_to_end, 0);
}

TEST(TablesProbe, TheCountDrawsWhatItCannotFit) {
  // A count of 32 plies at ply p allows 33 - p more plies; the mate needs 27.
  EXPECT_EQ(probe_fen("sittuyin", std::string(kKrk) + " - 32 6 20").verdict, TableVerdict::Win);
  EXPECT_EQ(probe_fen("sittuyin", std::string(kKrk) + " - 32 7 20").verdict, TableVerdict::Draw);
  // Mated on the count's last ply still counts (RULES.md 6.1); past it, a quiet position is drawn.
  EXPECT_EQ(probe_fen("sittuyin", "R1k5/8/2K5/8/8/8/8/8[] b - 32 33 20").verdict, TableVerdict::Loss);
  EXPECT_EQ(probe_fen("sittuyin", "1k6/8/2K5/8/8/8/8/R7[] w - 32 33 20").verdict, TableVerdict::Draw);
}

TEST(TablesProbe, TheMoveRuleDrawsWhereNoCountRuns) {
  // Youzai has no counting rule: 100 plies of the n-move rule.
  EXPECT_EQ(probe_fen("sittuyin-youzai", std::string(kKrk) + " - - 73 60").verdict, TableVerdict::Win);
  EXPECT_EQ(probe_fen("sittuyin-youzai", std::string(kKrk) + " - - 74 60").verdict, TableVerdict::Draw);
  EXPECT_EQ(probe_fen("sittuyin-youzai", "R1k5/8/2K5/8/8/8/8/8[] b - - 100 60").verdict, TableVerdict::Loss);
}

TEST(TablesProbe, ACountAboutToStartForTheBareSide) {
  // Black (bare) to move, no count yet (a FEN's state): it starts after White's reply.
  const auto r = probe_fen("sittuyin", "8/8/8/4k3/8/8/8/R3K3[] b - - 0 1");
  EXPECT_EQ(r.verdict, TableVerdict::Loss);
  EXPECT_EQ(r.clock_plies, 100);
  // The same position with a count running agrees.
  const auto counted = probe_fen("sittuyin", "8/8/8/4k3/8/8/8/R3K3[] b - 32 0 1");
  EXPECT_EQ(counted.verdict, TableVerdict::Loss);
  EXPECT_EQ(counted.plies_to_end, r.plies_to_end);
}

TEST(TablesProbe, InsufficientMaterialAndTheBareKing) {
  EXPECT_EQ(probe_fen("sittuyin", "8/8/8/4k3/8/8/8/N3K3[] w - - 0 1").verdict, TableVerdict::Draw);
  // Shatranj: a bare king to move that cannot take the last man loses next ply.
  const auto r = probe_fen("shatranj", "8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
  EXPECT_EQ(r.verdict, TableVerdict::Loss);
  EXPECT_EQ(r.plies_to_end, 1);
  EXPECT_EQ(probe_fen("shatranj", "8/8/8/8/8/8/2k5/3R1K2 b - - 0 1").verdict, TableVerdict::Draw);  // Kxd1
}

TEST(TablesProbe, OutsideTheTables) {
  const RuleProfile& rules = *rule_profile("sittuyin").take_or_throw();
  const auto set = testing::shared_set("sittuyin");
  for (const char* fen :
       {"8/8/8/4k3/8/8/P7/R3K3[] w - - 0 1", "8/8/8/4k3/8/8/8/RN2K3[] w - - 0 1", "8/8/8/4k3/8/8/8/4K3[R] w - - 0 1"})
    EXPECT_FALSE(probe(*set, Position::from_fen(fen, rules).take_or_throw(fen)).has_value()) << fen;
  EXPECT_TRUE(probe(*set, Position::from_fen("8/8/8/4k3/8/8/8/4K3[] w - - 0 1", rules).take_or_throw()));
}

TEST(TablesSeam, ProfilesThatShareRulesShareTables) {
  const std::string dir = testing::shared_tables();
  const auto tables = games::endgame_tables("sittuyin-chessplayx", dir).take_or_throw();
  ASSERT_TRUE(tables);
  EXPECT_EQ(tables->max_men(), 4);
  const auto state = games::new_game("sittuyin-chessplayx", std::string(kKrk) + " - - 0 1").take_or_throw();
  const auto r = tables->probe(*state);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->plies_to_end, 27);
  EXPECT_FALSE(tables->probe(*games::new_game("sittuyin-chessplayx").take_or_throw()));  // the start
  EXPECT_FALSE(tables->probe(*games::new_game("shatranj", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1").take_or_throw()));
  testing::TempDir empty("sz-tables-empty");
  EXPECT_FALSE(games::endgame_tables("sittuyin", empty.path()).take_or_throw());
}

// Both sides play the tables' best moves from random positions: every game ends as the first
// probe said, in the plies it said, under the rules core's own adjudication.
void play_out(const std::string& profile, const std::string& material, int games) {
  const auto tables = games::endgame_tables(profile, testing::shared_tables()).take_or_throw();
  const RuleProfile& rules = *rule_profile(profile).take_or_throw();
  const Layout layout(parse_material(material, rules.game).take_or_throw().canonical_form());
  std::mt19937_64 rng(11);
  int played = 0;
  while (played < games) {
    Square sq[kMaxMen];
    Color stm;
    if (!layout.decode(rng() % layout.size(), sq, stm)) continue;
    Piece pieces[kMaxMen];
    for (int s = 0; s < layout.men(); ++s) pieces[s] = layout.piece(s);
    Position pos = Position::from_men(rules, stm, pieces, sq, layout.men());
    if (!pos.pos_is_ok()) continue;
    State state(Position::from_fen(pos.fen(), rules).take_or_throw());  // clocks as a FEN has them
    const auto first = tables->probe(state);
    ASSERT_TRUE(first) << pos.fen();
    if (state.outcome().over() || first->verdict == TableVerdict::Draw) continue;
    ++played;
    int plies = 0;
    std::array<game::ActionId, game::kMaxActions> best{};
    while (!state.outcome().over()) {
      ASSERT_GT(tables->best_actions(state, best), 0) << state.to_string();
      state.apply(best[0]);
      ASSERT_LE(++plies, 300) << pos.fen();
    }
    const bool first_player_won = state.outcome().result == game::GameResult::FirstWins;
    EXPECT_EQ(first_player_won == (stm == White), first->verdict == TableVerdict::Win) << pos.fen();
    EXPECT_NE(state.outcome().result, game::GameResult::Draw) << pos.fen();
    if (first->plies_exact) {
      EXPECT_EQ(plies, first->plies_to_end) << pos.fen();
    }
  }
}

TEST(TablesSeam, BestMovesWinOnTheBoard) {
  play_out("sittuyin", "KRvK", 40);
  play_out("sittuyin-youzai", "KRvK", 20);
  play_out("shatranj", "KQvK", 20);
  play_out("sittuyin", "KRvKN", 20);
  play_out("shatranj", "KRvKN", 20);
}

TEST(TablesSeam, AProbeAllocatesNothing) {
  const auto tables = games::endgame_tables("sittuyin", testing::shared_tables()).take_or_throw();
  const auto state = games::new_game("sittuyin", std::string(kKrk) + " - - 0 1").take_or_throw();
  const auto bare_to_move = games::new_game("sittuyin", "8/8/8/4k3/8/8/8/R3K3[] b - - 0 1").take_or_throw();
  std::array<game::ActionId, game::kMaxActions> best{};
  int hits = 0;
  const long before = g_allocations.load();
  for (int i = 0; i < 100; ++i) {
    hits += tables->probe(*state).has_value();
    hits += tables->probe(*bare_to_move).has_value();
    hits += tables->best_actions(*state, best) > 0;
  }
  const long allocations = g_allocations.load() - before;
  EXPECT_EQ(hits, 300);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace sz::chaturanga::tables
