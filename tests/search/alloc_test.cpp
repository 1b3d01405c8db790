// Steady state allocates nothing: once a game has been played through, replaying it (same seed,
// so the same trees) runs every search, re-rooting and batching without one heap allocation.
// Counts calls of the global operator new, replaced in this test binary only.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "games/registry.h"
#include "search/game_search.h"
#include "search/search_batcher.h"

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

namespace sz::search {
namespace {

// Plays `plies` moves of every game in lock step; returns the allocations made meanwhile.
long play_games(std::vector<GameSearch>& games, SearchBatcher<GameSearch>& batcher, const game::GameState& start,
                int plies) {
  std::vector<GameSearch*> pointers;
  for (auto& g : games) pointers.push_back(&g);
  const long before = g_allocations.load();
  for (size_t i = 0; i < games.size(); ++i) games[i].reset(start, /*seed=*/i);
  for (int ply = 0; ply < plies; ++ply) {
    for (auto& g : games)
      if (!g.state().outcome().over()) g.start_search();
    batcher.run(pointers);
    for (auto& g : games)
      if (!g.state().outcome().over()) g.play(g.conclude().action);
  }
  return g_allocations.load() - before;
}

TEST(SearchAllocations, NoneInSteadyState) {
  for (const char* profile : {"sittuyin", "shatranj"}) {
    for (const RootSelection root : {RootSelection::Puct, RootSelection::Gumbel}) {
      const auto start = games::new_game(profile).take_or_throw(profile);
      SearchConfig config;
      config.full_visits = 200;
      config.cheap_visits = 50;
      config.root_selection = root;
      config.reserve_nodes = 8;  // small arenas, so that the warm-up must grow them
      Tree scratch;
      std::vector<GameSearch> games;
      for (int g = 0; g < 4; ++g) games.emplace_back(config, *start, uint64_t(g), &scratch);
      UniformEvaluator uniform;
      SearchBatcher batcher(uniform, games.size());
      EXPECT_GT(play_games(games, batcher, *start, 30), 0);  // warm-up: the arenas grow
      EXPECT_EQ(play_games(games, batcher, *start, 30), 0) << profile;
    }
  }
}

}  // namespace
}  // namespace sz::search
