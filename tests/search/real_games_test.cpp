// The search on real games through the registry, with the uniform evaluator: it finds a mate in
// one and avoids allowing one, in Sittuyin and in Shatranj, and Gumbel finds the mate with few
// simulations. Positions were checked with `sittuyin-zero rules --rules R --fen F`.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "search/game_search.h"

namespace sz::search {
namespace {

struct Position {
  std::string profile;
  std::string fen;
  std::string move;  // the mate (empty: none)
};

std::unique_ptr<game::GameState> load(const Position& p) {
  return games::new_game(p.profile, p.fen).take_or_throw(p.profile + " " + p.fen);
}

game::ActionId action(const game::GameState& s, const std::string& uci) {
  return game::ActionId(s.parse_action(uci).take_or_throw(uci));
}

// White mates with h1h8 (the black pawn keeps Shatranj's bare-king rule out of the way).
const Position kMateInOne[] = {
    {"sittuyin", "k7/8/1K6/8/8/8/8/7R[] w - - 0 1", "h1h8"},
    {"sittuyin", "k7/8/1K6/8/4p3/8/8/7R[] w - - 0 1", "h1h8"},
    {"shatranj", "k7/8/1K6/8/4p3/8/8/7R w - - 0 1", "h1h8"},
};

SearchConfig greedy_config(int visits) {
  SearchConfig c;
  c.full_visits = c.cheap_visits = visits;
  c.placement_temperature = c.play_temperature = 0.0f;
  c.play_temperature_floor = 0.0f;
  return c;
}

TEST(RealGames, FindsMateInOne) {
  UniformEvaluator uniform;
  for (const Position& p : kMateInOne) {
    const auto start = load(p);
    for (uint64_t seed = 0; seed < 3; ++seed) {
      for (const SearchKind kind : {SearchKind::Full, SearchKind::Cheap}) {
        SearchConfig config = greedy_config(300);
        config.play_proven_wins = false;  // the visits alone must find it
        GameSearch search(config, *start, seed);
        const SearchResult& r = search.run(uniform, kind);
        EXPECT_EQ(r.action, action(*start, p.move)) << p.profile << " " << p.fen << " seed " << seed;
        EXPECT_GT(r.wdl[0], 0.5f);
      }
    }
  }
}

// Moves after which the opponent has a mate in one.
std::set<game::ActionId> moves_allowing_mate(const game::GameState& s) {
  std::set<game::ActionId> losing;
  std::array<game::ActionId, game::kMaxActions> moves{}, replies{};
  const int n = s.legal_actions(moves);
  auto after = s.clone(), reply = s.clone();
  for (int i = 0; i < n; ++i) {
    after->copy_from(s);
    after->apply(moves[size_t(i)]);
    if (after->outcome().over()) continue;
    const int m = after->legal_actions(replies);
    for (int j = 0; j < m; ++j) {
      reply->copy_from(*after);
      reply->apply(replies[size_t(j)]);
      const game::Outcome o = reply->outcome();
      const bool mover_lost = (o.result == game::GameResult::FirstWins && s.to_move() == game::Player::Second) ||
                              (o.result == game::GameResult::SecondWins && s.to_move() == game::Player::First);
      if (mover_lost) losing.insert(moves[size_t(i)]);
    }
  }
  return losing;
}

// Black to move; White threatens Rh8#. Only the knight's c6 and e6 (which can interpose on b8 /
// d8 / f8) hold; the king, the pawn and the other knight moves lose at once.
const Position kAvoidMate[] = {
    {"sittuyin", "k7/8/1K6/4p3/3n4/8/8/7R[] b - - 0 1", ""},
    {"shatranj", "k7/8/1K6/4p3/3n4/8/8/7R b - - 0 1", ""},
};

TEST(RealGames, AvoidsAllowingMateInOne) {
  UniformEvaluator uniform;
  const game::Heuristics* heuristics = heuristics::of_game("sittuyin");
  ASSERT_NE(heuristics, nullptr);
  for (const Position& p : kAvoidMate) {
    const auto start = load(p);
    std::array<game::ActionId, game::kMaxActions> moves{};
    const int n = start->legal_actions(moves);
    const std::set<game::ActionId> losing = moves_allowing_mate(*start);
    ASSERT_GE(int(losing.size()) * 2, n) << p.fen;  // most moves lose
    ASSERT_LT(int(losing.size()), n);
    for (uint64_t seed = 0; seed < 3; ++seed) {
      GameSearch search(greedy_config(1600), *start, seed);
      const SearchResult& r = search.run(uniform, SearchKind::Full);
      EXPECT_EQ(losing.count(r.action), 0u)
          << p.profile << " seed " << seed << " played " << start->action_to_string(r.action);
    }
  }
}

// search.leaf_win_moves = 1: a move that allows a mate in one is refuted on its first visit
// (the reply's position is a terminal, its mover's win), so a budget of a few visits a move
// holds where the plain search above needs 1,600. Heuristics::forces_win(1) agrees with the rules.
TEST(RealGames, LeafWinSearchRefutesMovesAllowingMateOnTheirFirstVisit) {
  UniformEvaluator uniform;
  const game::Heuristics* heuristics = heuristics::of_game("sittuyin");
  ASSERT_NE(heuristics, nullptr);
  for (const Position& p : kAvoidMate) {
    const auto start = load(p);
    std::array<game::ActionId, game::kMaxActions> moves{};
    const int n = start->legal_actions(moves);
    const std::set<game::ActionId> losing = moves_allowing_mate(*start);
    auto after = start->clone();
    for (int i = 0; i < n; ++i) {
      after->copy_from(*start);
      after->apply(moves[size_t(i)]);
      EXPECT_EQ(heuristics->forces_win(*after, 1), losing.count(moves[size_t(i)]) == 1)
          << p.profile << " after " << start->action_to_string(moves[size_t(i)]);
    }
    for (uint64_t seed = 0; seed < 3; ++seed) {
      SearchConfig config = greedy_config(3 * n);
      config.leaf.win_moves = 1;
      GameSearch search(config, *start, seed);
      search.set_heuristics(heuristics);
      const SearchResult& r = search.run(uniform, SearchKind::Cheap);
      EXPECT_EQ(losing.count(r.action), 0u)
          << p.profile << " seed " << seed << " played " << start->action_to_string(r.action);
      for (int i = 0; i < search.root_child_count(); ++i) {
        const ChildStats c = search.root_child(i);
        if (losing.count(c.action) && c.visits > 0) {
          EXPECT_FLOAT_EQ(c.q, -1.0f) << start->action_to_string(c.action);
        }
      }
    }
  }
}

// White to move with 16 legal moves; e1e8 mates (the black pawns box their own king in).
const Position kGumbelMate[] = {
    {"sittuyin", "6k1/5ppp/8/8/8/8/6PP/4R2K[] w - - 0 1", "e1e8"},
    {"shatranj", "6k1/5ppp/8/8/8/8/6PP/4R2K w - - 0 1", "e1e8"},
};

// With n simulations Gumbel visits min(n, 16) sampled moves first; from 2 simulations on it
// plays the mate whenever the mate was among them, and always once n covers all 16 moves.
TEST(RealGames, GumbelFindsMateWithFewSimulations) {
  UniformEvaluator uniform;
  for (const Position& p : kGumbelMate) {
    const auto start = load(p);
    const game::ActionId mate = action(*start, p.move);
    std::array<game::ActionId, game::kMaxActions> moves{};
    ASSERT_EQ(start->legal_actions(moves), 16);
    for (int sims = 2; sims <= 16; ++sims) {
      for (uint64_t seed = 0; seed < 4; ++seed) {
        SearchConfig config = greedy_config(sims);
        config.root_selection = RootSelection::Gumbel;
        GameSearch search(config, *start, seed);
        const SearchResult& r = search.run(uniform, SearchKind::Full);
        bool mate_visited = false;
        for (int i = 0; i < search.root_child_count(); ++i)
          mate_visited |= search.root_child(i).action == mate && search.root_child(i).visits > 0;
        if (sims == 16) {
          EXPECT_TRUE(mate_visited);
        }
        EXPECT_EQ(r.action == mate, mate_visited) << p.profile << " " << sims << " simulations, seed " << seed;
        // The improved policy ranks a visited mate first.
        if (mate_visited) {
          const PolicyEntry* top = &r.policy[0];
          for (const PolicyEntry& e : r.policy) {
            if (e.prob > top->prob) top = &e;
          }
          EXPECT_EQ(top->action, mate);
        }
      }
    }
  }
}

// A network that predicts a draw everywhere and puts `favourite_prior` on one move wherever
// that move is legal (the rest share what is left), like a net trained on shuffling self-play.
class FavouringEvaluator final : public Evaluator {
 public:
  FavouringEvaluator(game::ActionId favourite, float favourite_prior)
      : favourite_(favourite), favourite_prior_(favourite_prior) {}
  void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      const auto actions = queries[i].actions;
      const bool has = std::find(actions.begin(), actions.end(), favourite_) != actions.end();
      const float rest = has ? (1 - favourite_prior_) / float(actions.size() - 1) : 1.0f / float(actions.size());
      for (size_t a = 0; a < actions.size(); ++a)
        replies[i].priors[a] = actions[a] == favourite_ ? favourite_prior_ : rest;
      replies[i].wdl[0] = replies[i].wdl[2] = 0.0f;
      replies[i].wdl[1] = 1.0f;
    }
  }

 private:
  game::ActionId favourite_;
  float favourite_prior_;
};

// Black can repeat the position a third time with e8d8... d8e8. A draw-predicting net that
// loves the repeating move plays it; with contempt the search plays on instead.
TEST(RealGames, ContemptAvoidsARepetitionTheNetworkLoves) {
  auto start = games::new_game("sittuyin", "4k3/p7/8/8/8/8/P7/R3K3[] w - - 0 1").take_or_throw("fen");
  for (const char* m : {"a1b1", "e8d8", "b1a1", "d8e8", "a1b1", "e8d8", "b1a1"}) start->apply(action(*start, m));
  const game::ActionId repeat = action(*start, "d8e8");
  for (const float contempt : {0.0f, 0.2f}) {
    for (uint64_t seed = 0; seed < 3; ++seed) {
      SearchConfig config = greedy_config(64);
      config.contempt = contempt;
      GameSearch search(config, *start, seed);
      FavouringEvaluator net(repeat, 0.9f);
      const SearchResult& r = search.run(net, SearchKind::Full);
      EXPECT_EQ(r.action == repeat, contempt == 0) << "contempt " << contempt << " seed " << seed;
    }
  }
}

// Favours a few actions (prior `share` split among those legal), uniform over the rest; zero value.
class FavouringManyEvaluator final : public Evaluator {
 public:
  FavouringManyEvaluator(std::vector<game::ActionId> favourites, float share)
      : favourites_(std::move(favourites)), share_(share) {}
  void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      const auto actions = queries[i].actions;
      auto favoured = [&](game::ActionId a) {
        return std::find(favourites_.begin(), favourites_.end(), a) != favourites_.end();
      };
      const size_t k = size_t(std::count_if(actions.begin(), actions.end(), favoured));
      for (size_t a = 0; a < actions.size(); ++a) {
        replies[i].priors[a] = k == 0                 ? 1.0f / float(actions.size())
                               : favoured(actions[a]) ? share_ / float(k)
                                                      : (1 - share_) / float(actions.size() - k);
      }
      replies[i].wdl[0] = replies[i].wdl[2] = 0.0f;
      replies[i].wdl[1] = 1.0f;
    }
  }

 private:
  std::vector<game::ActionId> favourites_;
  float share_;
};

// Contempt read after tree reuse: White's search visits b1a1 and Black's repeating reply d8e8
// (a draw the rules decide), worth +contempt to Black while White is the root's mover. Once
// White plays b1a1 and the subtree is kept, Black is the mover and the same draw must cost it
// contempt; read with White's sign, Black would play the repetition it was meant to avoid.
TEST(RealGames, ContemptKeepsItsSignAfterTreeReuse) {
  auto start = games::new_game("sittuyin", "4k3/p7/8/8/8/8/P7/R3K3[] w - - 0 1").take_or_throw("fen");
  for (const char* m : {"a1b1", "e8d8", "b1a1", "d8e8", "a1b1", "e8d8"}) start->apply(action(*start, m));
  const game::ActionId white_move = action(*start, "b1a1");
  auto after = start->clone();
  after->apply(white_move);
  const game::ActionId repeat = action(*after, "d8e8");
  for (uint64_t seed = 0; seed < 3; ++seed) {
    SearchConfig config = greedy_config(200);
    config.contempt = 0.2f;
    GameSearch search(config, *start, seed);
    FavouringManyEvaluator net({white_move, repeat}, 0.9f);
    search.run(net, SearchKind::Cheap);
    search.play(white_move);
    bool seen = false;
    for (int i = 0; i < search.root_child_count(); ++i) {
      const ChildStats c = search.root_child(i);
      if (c.action != repeat) continue;
      seen = c.visits > 0;
      EXPECT_NEAR(c.q, -0.2f, 1e-6f) << "seed " << seed << ": the kept draw, for Black";
    }
    ASSERT_TRUE(seen) << "seed " << seed << ": White's search did not visit Black's repetition";
    const SearchResult& r = search.run(net, SearchKind::Cheap, /*visits=*/64);
    EXPECT_NE(r.action, repeat) << "seed " << seed;
  }
}

// Ties go to a random edge: with a uniform prior and a zero value every first placement of
// Sittuyin is as good as any other, so over many seeds each is chosen about equally often
// (chi-square against the uniform distribution). Ties to the first edge chose one move always.
TEST(RealGames, TiedMovesAreChosenUniformlyOverSeeds) {
  const auto start = games::new_game("sittuyin").take_or_throw("sittuyin");
  std::array<game::ActionId, game::kMaxActions> legal{};
  const int k = start->legal_actions(legal);
  ASSERT_GT(k, 10);
  std::map<game::ActionId, int> chosen;
  const int seeds = 40 * k;
  UniformEvaluator uniform;
  SearchConfig config = greedy_config(16);
  for (int seed = 0; seed < seeds; ++seed) {
    GameSearch search(config, *start, uint64_t(seed));
    ++chosen[search.run(uniform, SearchKind::Cheap).action];
  }
  double chi2 = 0;
  const double expected = double(seeds) / k;
  for (int i = 0; i < k; ++i) {
    const double o = chosen.count(legal[size_t(i)]) ? chosen[legal[size_t(i)]] : 0;
    chi2 += (o - expected) * (o - expected) / expected;
  }
  // k - 1 degrees of freedom; mean k - 1, standard deviation sqrt(2 (k - 1)): 5 deviations above.
  EXPECT_LT(chi2, (k - 1) + 5 * std::sqrt(2.0 * (k - 1))) << k << " moves, " << chosen.size() << " ever chosen";
  EXPECT_EQ(int(chosen.size()), k);
}

// A few moves of self-play from the start position (placement, then play) keep the tree sound.
TEST(RealGames, SelfPlayFromTheStartKeepsTheTreeConsistent) {
  UniformEvaluator uniform;
  for (const char* profile : {"sittuyin", "shatranj"}) {
    const auto start = games::new_game(profile).take_or_throw(profile);
    SearchConfig config;
    config.full_visits = 64;
    config.cheap_visits = 16;
    GameSearch search(config, *start, /*seed=*/17);
    for (int ply = 0; ply < 40 && !search.state().outcome().over(); ++ply) {
      const SearchResult& r = search.run(uniform);
      ASSERT_TRUE(search.tree().is_consistent()) << profile << " ply " << ply;
      double sum = 0;
      for (const PolicyEntry& e : r.policy) sum += e.prob;
      ASSERT_NEAR(sum, 1.0, 1e-4);
      search.play(r.action);
    }
  }
}

}  // namespace
}  // namespace sz::search
