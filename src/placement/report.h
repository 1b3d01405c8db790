#pragma once
// The files of one group's placement statistics (statistics.h), written into one directory:
//
//   heat_<white|black>_<mover|board>.csv/.png  men per square and game, each man (K F S N R), in
//                                              the side's own frame and on the real board
//   order_<white|black>.csv/.png               which man the k-th drop placed, k = 1..8
//   formations_<white|black>.csv/.png          the most frequent complete formations, their
//                                              results and 95% Wilson intervals
//   features.csv, features.png                 results by formation feature and value (Wilson)
//   logistic.csv, logistic.png                 the logistic fit of the result on the features
//
// CSV files are comma separated with a header line; PNGs are drawn by gnuplot (plot/gnuplot.h).
#include <array>
#include <map>
#include <string>
#include <vector>

#include "placement/statistics.h"

namespace sz::placement {

struct ReportOptions {
  int top = 20;                     // formations listed per colour
  std::string gnuplot = "gnuplot";  // empty: CSV files only
};

// The network's value of a formation (placements.h, --model), from the placing side's view.
struct FormationValue {
  double games_value = 0;  // mean W - L after both placements over the games that used it
  double reply_value = 0;  // W - L after the network's own reply formation
  std::string reply;       // that reply, in the opponent's frame
};
// formation_text -> its value, per colour; empty without a model.
using FormationValues = std::array<std::map<std::string, FormationValue>, 2>;

// Writes the files; returns their paths. Throws sz::Error when a file cannot be written or
// gnuplot fails.
std::vector<std::string> write_report(const ProfileStats& stats, const std::string& dir, const ReportOptions& options,
                                      const FormationValues& values = {});

// The columns of the logistic fit: White, then the features with in_fit that vary in `stats`
// (a constant one cannot be fitted beside the intercept).
std::vector<int> fitted_features(const ProfileStats& stats);

}  // namespace sz::placement
