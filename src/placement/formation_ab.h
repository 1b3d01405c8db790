#pragma once
// `sittuyin-zero placements ab`: formation A against formation B, everything else equal. One
// player places A in one match and B in another against the same opponent; game i of both
// matches has the same colours and the same seeds, so the opponent's placement (by default a
// seeded random one, which in Sittuyin does not depend on the other side's drops) is the same in
// both. Reported: each formation's score, the paired score difference with a 95% interval (the
// spread of the per-pair differences), and an SPRT over the pairs: a pair in which A scored more
// is A's win, less its loss, the same a draw (eval/ratings.h).
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "eval/player_spec.h"
#include "eval/ratings.h"
#include "games/formation.h"

namespace sz::placement {

struct AbOptions {
  std::string profile = "sittuyin";
  eval::PlacementControl a, b;  // each Kind::Fixed (formation_control)
  eval::PlayerSpec player;      // places A or B; plays on as it would
  eval::PlayerSpec opponent;    // the other side, with its own placement
  search::SearchConfig search;  // of MCTS players
  int simulations = 100;        // their default visits per move
  eval::ModelLoader load_model;
  int games = 100;  // per formation, even (both colours)
  int concurrency = 1;
  int max_plies = 1000;
  uint64_t seed = 1;
  eval::Sprt sprt;
  std::function<void(const std::string&)> progress;
  const std::atomic<bool>* stop = nullptr;
};

struct AbResult {
  eval::MatchScore a, b;  // each formation's games, from the placing player's view
  int pairs = 0;
  double difference = 0;  // score of A minus score of B, per game
  double lower = 0, upper = 0;
  eval::MatchScore paired;  // A's pair "wins", "draws" and "losses" (see above)
  double llr = 0;
  eval::Sprt::Verdict verdict = eval::Sprt::Verdict::Continue;
};

// A fixed placement of `text`: a formation ("K@e2 F@d2 ...") or the path of a file holding one;
// `name` (the flag) names it in errors.
Result<eval::PlacementControl> formation_control(const std::string& text, const std::string& name);

// Throws sz::Error when a formation cannot be placed under the profile (naming it), or when a
// player cannot start.
AbResult run_formation_ab(const AbOptions& options);

// The result as a short table for people.
std::string format_ab(const AbResult& r, const AbOptions& options);

}  // namespace sz::placement
