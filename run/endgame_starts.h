#pragma once
// The loop's endgame curriculum (a reverse curriculum: Florensa et al. 2017; Salimans and Chen
// 2018 started Montezuma's Revenge near a demonstration's end and moved back): a share of a
// generation's self-play games starts shortly before the end of one of the run's own decisive
// games, farther back generation by generation. Networks of a drawish game that cannot yet mate
// learn to finish won positions there, and the results of those games make the men count.
#include <cstdint>
#include <string>
#include <vector>

namespace sz::run {

struct EndgamePick {
  int64_t decisive_games = 0;       // decisive games found in the generations looked at
  std::vector<std::string> starts;  // FENs, one per picked game
};

// Up to `count` decisive games (won or lost, by any end: mate, resignation, ...) of the shards of
// `games_dir` written by generations before `generation`, picked uniformly (reservoir sampling,
// from `seed`); from each, the position 1 to `max_plies` plies before its end (uniform, from
// `seed`), but never in the placement phase. Damaged shards are skipped with a warning on stderr.
EndgamePick pick_endgame_starts(const std::string& games_dir, int64_t generation, int max_plies, int count,
                                uint64_t seed);

// The farthest a start of loop generation `generation` (1: the bootstrap's) lies before the end of
// its game: `first_plies` in the second generation and `step` more in each one after it.
int endgame_max_plies(int64_t generation, int first_plies, int step);

}  // namespace sz::run
