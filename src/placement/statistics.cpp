#include "placement/statistics.h"

#include <algorithm>

namespace sz::placement {

namespace {

void add_result(eval::MatchScore& score, double points) {
  if (points > 0.75)
    ++score.wins;
  else if (points < 0.25)
    ++score.losses;
  else
    ++score.draws;
}

}  // namespace

void ProfileStats::add(const PlacedGame& game) {
  ++games;
  add_result(white, (game.result + 1) / 2.0);
  for (int c = 0; c < 2; ++c) {
    const SidePlacement& side = game.side[size_t(c)];
    const double points = (c == 0 ? game.result + 1 : 1 - game.result) / 2.0;
    for (const Drop& d : side.formation.men) ++heat[size_t(c)][size_t(d.man)][size_t(d.square)];
    for (size_t k = 0; k < side.order.size() && k < size_t(kMenPerSide); ++k)
      ++order[size_t(c)][k][size_t(side.order[k].man)];
    const std::string text = formation_text(side.formation);
    add_result(formations[size_t(c)][text], points);
    std::vector<std::string>& positions = fens[size_t(c)][text];
    if (positions.size() < kPositionsPerFormation) positions.push_back(game.fen);
    sides.push_back({formation_features(side.formation, side.pawns), c, points});
  }
}

Heat ProfileStats::board_heat(int colour) const {
  Heat board{};
  for (size_t m = 0; m < size_t(kManTypes); ++m)
    for (int s = 0; s < 64; ++s) board[m][size_t(board_square(colour, s))] = heat[size_t(colour)][m][size_t(s)];
  return board;
}

std::vector<FeatureRow> results_by_feature(const ProfileStats& stats, int colour) {
  std::map<std::pair<int, int>, eval::MatchScore> table;
  for (const SideRow& row : stats.sides) {
    if (colour >= 0 && row.colour != colour) continue;
    for (int f = 0; f < kFeatures; ++f) add_result(table[{f, row.features[size_t(f)]}], row.score);
  }
  std::vector<FeatureRow> rows;
  for (const auto& [key, score] : table) rows.push_back({key.first, key.second, score});
  return rows;
}

std::vector<std::pair<std::string, eval::MatchScore>> top_formations(const ProfileStats& stats, int colour, int top) {
  std::vector<std::pair<std::string, eval::MatchScore>> all(stats.formations[size_t(colour)].begin(),
                                                            stats.formations[size_t(colour)].end());
  const auto more_frequent = [](const auto& a, const auto& b) {
    return a.second.games() != b.second.games() ? a.second.games() > b.second.games() : a.first < b.first;
  };
  const size_t n = std::min(all.size(), size_t(std::max(top, 0)));
  std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(n), all.end(), more_frequent);
  all.resize(n);
  return all;
}

eval::Interval score_interval(const eval::MatchScore& score) {
  return eval::wilson_interval(score.wins + 0.5 * score.draws, score.games());
}

}  // namespace sz::placement
