#pragma once
// `placements --model`: the network's own value of the most frequent formations (report.h's
// FormationValue), from the placing side's view as W - L in [-1, 1]:
//   - over the games that used the formation: the value of the position after both placements
//     (up to kPositionsPerFormation of them, the first ones read), averaged;
//   - against the network's reply: the formation placed man by man in its order
//     (formation_play.h) while the other side places the drop of highest prior each turn, then the
//     value of the position reached. NaN when the formation cannot be completed against it.
#include <functional>
#include <string>

#include "placement/report.h"
#include "placement/statistics.h"
#include "search/evaluator.h"

namespace sz::placement {

FormationValues formation_values(const ProfileStats& stats, search::Evaluator& net, int top,
                                 const std::function<void(const std::string&)>& progress = {});

}  // namespace sz::placement
