// A broken evaluator must not poison the tree: NaN or infinite values and priors are refused by
// nn/ with an error before they reach a search, and the search itself stays sound (indices in
// range, finite statistics) if one ever does.
#include <gtest/gtest.h>

#include <cmath>

#include "search/game_search.h"
#include "toy_games.h"

namespace sz::search {
namespace {

// Replies with NaN (or infinite) WDL and priors for every position.
class PoisonEvaluator final : public Evaluator {
 public:
  explicit PoisonEvaluator(float poison) : poison_(poison) {}
  void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      for (float& p : replies[i].priors) p = poison_;
      replies[i].wdl[0] = poison_;
      replies[i].wdl[1] = poison_;
      replies[i].wdl[2] = -poison_;
    }
  }

 private:
  float poison_;
};

TEST(GameSearch, NonFiniteEvaluationsDoNotPoisonTheTree) {
  for (const float poison : {NAN, INFINITY}) {
    for (const RootSelection root : {RootSelection::Puct, RootSelection::Gumbel}) {
      SearchConfig config;
      config.full_visits = 200;
      config.cheap_visits = 50;
      config.root_selection = root;
      GameSearch search(config, test::TicTacToe(), /*seed=*/5);
      PoisonEvaluator poisoned(poison);
      while (!search.state().outcome().over()) {
        const SearchResult& r = search.run(poisoned);
        ASSERT_TRUE(search.tree().is_consistent());
        for (const float x : r.wdl) ASSERT_TRUE(std::isfinite(x)) << poison;
        for (int i = 0; i < search.root_child_count(); ++i) {
          ASSERT_TRUE(std::isfinite(search.root_child(i).q));
          ASSERT_TRUE(std::isfinite(search.root_child(i).prior));
        }
        search.play(r.action);
      }
    }
  }
}

}  // namespace
}  // namespace sz::search
