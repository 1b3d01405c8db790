// Simulations per second with the uniform evaluator on one thread: the search's own cost (tree,
// selection, replay from the root, move generation) without a network. Prints, asserts little.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "games/registry.h"
#include "search/game_search.h"
#include "search/search_batcher.h"

namespace sz::search {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Self-play moves of `games` games in lock step through one SearchBatcher.
void measure(const char* profile, const char* fen, int games, int moves) {
  const auto start = games::new_game(profile, fen).take_or_throw(profile);
  SearchConfig config;
  config.full_visits = 800;
  config.cheap_visits = 800;
  Tree scratch;
  std::vector<GameSearch> searches;
  for (int g = 0; g < games; ++g) searches.emplace_back(config, *start, uint64_t(g), &scratch);
  std::vector<GameSearch*> pointers;
  for (auto& s : searches) pointers.push_back(&s);
  UniformEvaluator uniform;
  SearchBatcher batcher(uniform, size_t(games));
  uint64_t simulations = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int m = 0; m < moves; ++m) {
    for (auto& s : searches)
      if (!s.state().outcome().over()) s.start_search(SearchKind::Full);
    batcher.run(pointers);
    for (auto& s : searches) {
      if (s.searching() || s.state().outcome().over()) continue;
      const SearchResult& r = s.conclude();
      simulations += uint64_t(r.new_visits);
      s.play(r.action);
    }
  }
  const double t = seconds_since(t0);
  std::printf("%-9s %s games %3d: %9.0f simulations/s (%llu in %.2f s), batch %.1f\n", profile, fen, games,
              double(simulations) / t, static_cast<unsigned long long>(simulations), t, batcher.average_batch());
  EXPECT_GT(simulations, 0u);
}

TEST(SearchSpeed, UniformEvaluatorOneThread) {
  // Sittuyin: 16 placement plies (up to 88 drops each), then play.
  measure("sittuyin", "", 1, 40);
  measure("sittuyin", "", 32, 40);
  measure("shatranj", "", 1, 40);
  measure("shatranj", "", 32, 40);
}

}  // namespace
}  // namespace sz::search
