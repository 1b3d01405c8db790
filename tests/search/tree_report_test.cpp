// search/tree_report.h: depth, size, principal variation and move choice read off a real tree.
#include "search/tree_report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "search/game_search.h"
#include "search/toy_games.h"

namespace sz::search {
namespace {

using test::Nim;
using test::TicTacToe;

SearchConfig cheap_config(int visits) {
  SearchConfig c;
  c.full_visits = c.cheap_visits = visits;
  return c;
}

// The root child with the most visits (the first such edge).
ChildStats most_visited(const GameSearch& s) {
  ChildStats best = s.root_child(0);
  for (int i = 1; i < s.root_child_count(); ++i)
    if (s.root_child(i).visits > best.visits) best = s.root_child(i);
  return best;
}

TEST(TreeReport, DepthAndSizeOfASearchedTree) {
  UniformEvaluator uniform;
  GameSearch s(cheap_config(300), TicTacToe(), /*seed=*/5);
  s.run(uniform, SearchKind::Cheap);
  const TreeDepth depth = tree_depth(s.tree());
  EXPECT_GE(depth.mean, 1);
  EXPECT_LE(depth.mean, depth.max);
  EXPECT_LE(depth.max, 9);  // a tic-tac-toe game has 9 plies
  EXPECT_EQ(tree_bytes(s.tree()), s.tree().node_count() * sizeof(Node) + s.tree().edge_count() * sizeof(Edge));
  EXPECT_LE(tree_bytes(s.tree()), s.tree().memory_bytes());
  GameSearch fresh(cheap_config(300), TicTacToe(), /*seed=*/5);
  EXPECT_EQ(tree_depth(fresh.tree()).mean, 0);  // a lone root
}

TEST(TreeReport, PrincipalVariationFollowsTheMostVisitedChildren) {
  UniformEvaluator uniform;
  GameSearch s(cheap_config(400), TicTacToe(), /*seed=*/7);
  s.run(uniform, SearchKind::Cheap);
  const std::vector<game::ActionId> pv = principal_variation(s.tree());
  ASSERT_GE(pv.size(), 2u);
  EXPECT_EQ(pv.front(), most_visited(s).action);
  TicTacToe line;  // every step is legal where it is played
  for (const game::ActionId a : pv) {
    ASSERT_FALSE(line.outcome().over());
    std::array<game::ActionId, game::kMaxActions> legal{};
    const int n = line.legal_actions(legal);
    EXPECT_NE(std::find(legal.begin(), legal.begin() + n, a), legal.begin() + n) << a;
    line.apply(a);
  }
  EXPECT_EQ(principal_variation(s.tree(), /*max_plies=*/1).size(), 1u);
}

// Self-play's report of a full search (issue 43): what the root's children got, what the
// pruned target kept, and the most visited line, all read off the same tree.
TEST(TreeReport, RootSpreadOfAFullSearch) {
  UniformEvaluator uniform;
  GameSearch s(cheap_config(200), TicTacToe(), /*seed=*/11);
  const SearchResult& r = s.run(uniform, SearchKind::Full);
  const RootSpread spread = r.spread;
  EXPECT_EQ(spread.moves, 9);
  uint32_t visits = 0, best = 0;
  int visited = 0;
  for (int i = 0; i < s.root_child_count(); ++i) {
    visits += s.root_child(i).visits;
    best = std::max(best, s.root_child(i).visits);
    visited += s.root_child(i).visits > 0 ? 1 : 0;
  }
  EXPECT_EQ(spread.visits, visits);
  EXPECT_EQ(spread.best, best);
  EXPECT_EQ(spread.visited, visited);
  int targeted = 0;
  for (const PolicyEntry& e : r.policy) targeted += e.prob > 0 ? 1 : 0;
  EXPECT_EQ(spread.targeted, targeted);
  EXPECT_LE(spread.targeted, spread.visited);
  // Forced playouts gave every move visits the pruned target takes back.
  EXPECT_GT(spread.kept, float(best) - 1e-3f);
  EXPECT_LT(spread.kept, float(visits));
  EXPECT_EQ(spread.line, int(principal_variation(s.tree()).size()));

  SearchConfig unpruned = cheap_config(200);
  unpruned.policy_target_pruning = false;
  GameSearch raw(unpruned, TicTacToe(), /*seed=*/11);
  const RootSpread kept_all = raw.run(uniform, SearchKind::Full).spread;
  EXPECT_FLOAT_EQ(kept_all.kept, float(kept_all.visits));
  EXPECT_EQ(kept_all.targeted, kept_all.visited);

  GameSearch cheap(cheap_config(200), TicTacToe(), /*seed=*/11);
  const RootSpread unforced = cheap.run(uniform, SearchKind::Cheap).spread;  // no forced playouts, no pruning
  EXPECT_EQ(unforced.moves, 9);
  EXPECT_FLOAT_EQ(unforced.kept, float(unforced.visits));
}

// The one move choice (search/move_choice.h), through conclude as every player makes it.
TEST(MoveChoice, PlaysTheMostVisitedOrAProvenWin) {
  UniformEvaluator uniform;
  GameSearch s(cheap_config(400), TicTacToe(), /*seed=*/11);
  s.run(uniform, SearchKind::Cheap);
  EXPECT_EQ(s.conclude(/*temperature=*/0.0f).action, most_visited(s).action);
  // Nim with 3 stones, take up to 3: taking all 3 wins at once, whatever the temperature.
  GameSearch nim(cheap_config(60), Nim(3, 3), /*seed=*/3);
  nim.run(uniform, SearchKind::Cheap);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(nim.conclude(/*temperature=*/1.0f).action, 2);
}

}  // namespace
}  // namespace sz::search
