#pragma once
// The learning curve of a loop run: every adopted network plays the networks adopted before it
// and a fixed external anchor (Fairy-Stockfish at one node by default), and one Bradley-Terry
// fit of all those games rates every network over the anchor, with 95% intervals, plus the
// trend of rating over generations (eval::fit_trend). Torch-free.
//
// Files, in runs/<run>/eval/:
//   networks.jsonl the adopted networks in order, one line each: {"step": 3000, "generation": 1}
//   ladder.jsonl   one line per match played, appended as it ends (a resumed run keeps them):
//                  {"a_step": 4200, "a_generation": 3, "b_step": -1, "b_generation": 0,
//                   "wins": 7, "draws": 9, "losses": 4, "simulations": 64,
//                   "conditions": 3922147512331507}
//                  from a's view; a network is named by its training step (its checkpoint
//                  models/model-<step>.pt), the anchor by step -1; "conditions" is the
//                  run's rating_conditions (run/run_config.h) when it was played. Only the
//                  matches played under the present conditions count (a line without the key,
//                  written before it existed, counts under any): a run resumed with another
//                  search, visit count or anchor rates its networks again rather than fitting
//                  two kinds of games as one. The loop's final matches carry "final": 1, so
//                  that a rerun finds them played and plays them once. Read back strictly: a line
//                  whose values are out of range (negative or huge counts, a self-match, a network
//                  not in networks.jsonl) is an error naming the file and line; a line that is not
//                  JSON at all (a killed writer's unfinished one) is skipped.
//   ladder.json    the latest fit: per network its generation, step, Elo over the anchor and
//                  interval; the trend (slope per generation with its interval)
//   elo.jsonl      the same ratings, one line per network (step, generation, elo, lower,
//                  upper), for `plot` (plots/elo.png)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/ratings.h"
#include "rundir/run_paths.h"

namespace sz::run {

inline constexpr int64_t kAnchorStep = -1;

struct LadderMatch {
  int64_t a_step = 0, b_step = 0;  // kAnchorStep: the anchor
  int a_generation = 0, b_generation = 0;
  eval::MatchScore score;  // a's view
  int simulations = 0;
  uint64_t conditions = 0;  // run/run_config.h rating_conditions; 0: not recorded
  bool final = false;       // one of the loop's final matches
};

struct LadderNetwork {
  int64_t step = 0;
  int generation = 0;
};

struct LadderRating {
  int64_t step = 0;
  int generation = 0;
  eval::Rating rating;  // Elo over the anchor (or over the first network without one)
};

struct LadderFit {
  std::vector<LadderRating> networks;  // by generation
  eval::Trend trend;                   // Elo per generation
  bool anchored = false;               // the anchor played: ratings are over it
  int games = 0;
};

class Ladder {
 public:
  // Reads eval/networks.jsonl and eval/ladder.jsonl of `run_dir` if they exist (a line being
  // written when a run was killed is skipped), keeping the matches played under `conditions`.
  // Throws sz::Error naming the file and line of a line whose values are out of range.
  // `anchor` names the anchor in reports ("" when there is none).
  Ladder(std::string run_dir, std::string anchor, uint64_t conditions);
  // The same from the two files' text, named in errors as `run_dir`'s files; reads no file (the
  // fuzzer's way in, tests/fuzz/ladder_fuzz.cpp).
  Ladder(std::string run_dir, std::string anchor, uint64_t conditions, std::string_view networks_text,
         std::string_view matches_text);

  // The adopted networks, oldest first; add_network appends one (once per step).
  const std::vector<LadderNetwork>& networks() const { return networks_; }
  void add_network(const LadderNetwork& network);
  // The matches played under this ladder's conditions.
  const std::vector<LadderMatch>& matches() const { return matches_; }
  // How many matches on file were played under other conditions (left out of everything here).
  int set_aside() const { return set_aside_; }
  const std::string& anchor() const { return anchor_; }
  // Whether a match between these two (either order) is on record.
  bool played(int64_t a_step, int64_t b_step) const;
  // The final match of a_step against b_step on record (a's view), if one is.
  std::optional<LadderMatch> final_match(int64_t a_step, int64_t b_step) const;
  // Records a match, stamped with this ladder's conditions, and appends it to ladder.jsonl.
  void record(const LadderMatch& match);

  LadderFit fit() const;
  // Writes ladder.json and elo.jsonl from `fit` (each file atomically).
  void write(const LadderFit& fit) const;

 private:
  void append(const std::string& path, const std::string& line) const;
  bool known_network(int64_t step) const;

  rundir::RunPaths paths_;
  std::string anchor_;
  uint64_t conditions_ = 0;
  int set_aside_ = 0;
  std::vector<LadderNetwork> networks_;
  std::vector<LadderMatch> matches_;
};

// "model-00004200.pt (generation 3): -153 Elo [-230, -85] over fsf:nodes=1"
std::string describe_rating(const LadderRating& r, const std::string& anchor);

}  // namespace sz::run
