#pragma once
// The placement statistics of one group of games (one rule profile of one source): where each
// man stands, in which order the men are placed, which complete formations recur and how they
// score, and the formations' features with the results of their games. Results are the placing
// side's: 1 a win, 0.5 a draw, 0 a loss.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/ratings.h"
#include "games/formation.h"
#include "placement/features.h"

namespace sz::placement {

inline constexpr size_t kPositionsPerFormation = 8;

struct SideRow {
  Features features{};
  int colour = 0;  // 0 White, 1 Black
  double score = 0.5;
};

using Heat = std::array<std::array<int64_t, 64>, kManTypes>;  // [man][square]: men seen there

struct ProfileStats {
  std::string profile;
  int64_t games = 0;
  eval::MatchScore white;  // the results from White's view
  // [colour][man][square in the side's frame]; the real board is board_square() of it.
  std::array<Heat, 2> heat{};
  // [colour][k][man]: how often the k-th drop of the side (0-based) placed that man.
  std::array<std::array<std::array<int64_t, kManTypes>, kMenPerSide>, 2> order{};
  // [colour]: formation_text -> the results of the games that used it, from the placing side.
  std::array<std::map<std::string, eval::MatchScore>, 2> formations;
  std::vector<SideRow> sides;  // two per game
  // [colour]: formation_text -> the positions after both placements of the first games that used
  // it (at most kPositionsPerFormation), for the network's values (network_values.h).
  std::array<std::map<std::string, std::vector<std::string>>, 2> fens;

  void add(const PlacedGame& game);
  Heat board_heat(int colour) const;  // heat[colour] on the real board
};

// The results of one value of one feature.
struct FeatureRow {
  int feature = 0, value = 0;
  eval::MatchScore score;
};
// Every value of every feature seen, for sides of `colour` (0, 1, or -1: both).
std::vector<FeatureRow> results_by_feature(const ProfileStats& stats, int colour);

// The `top` most frequent formations of `colour`, most frequent first (ties: by text).
std::vector<std::pair<std::string, eval::MatchScore>> top_formations(const ProfileStats& stats, int colour, int top);

// The score's 95% Wilson interval.
eval::Interval score_interval(const eval::MatchScore& score);

}  // namespace sz::placement
