#pragma once
// One self-play game in flight: its search, the record of its positions, and its resignation
// bookkeeping. A worker drives many slots and evaluates their leaves in one batch.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/records.h"
#include "search/game_search.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_stats.h"

namespace sz::selfplay {

// The seed of game number `index` of a run seeded with `run_seed` (a bijection of the index for
// a given run seed), and its inverse: the index of the game that `seed` seeds, which may be any
// 64-bit number for a seed of another run. Shards record each game's seed, so the games a
// directory holds are known by index (resuming plays exactly the missing ones).
uint64_t game_seed(uint64_t run_seed, int64_t index);
uint64_t game_index_of(uint64_t run_seed, uint64_t seed);

// The seed of worker `worker`'s games (its `run_seed` for game_seed): `run_seed` itself for no
// worker (""; the loop's own self-play), else a mix of the run seed and the id, so that workers of
// one run play disjoint games (their seeds coincide with a chance of about n^2 / 2^64 in n games).
uint64_t worker_seed(uint64_t run_seed, std::string_view worker);

// Not thread-safe: owned by one worker.
class GameSlot {
 public:
  // `placement`, if not null and not empty, chooses the drops it wants instead of the search
  // (selfplay.h: PlacementChooser); it must outlive the slot.
  // `knowledge`: what the evaluator driving this slot knows (search/evaluator.h); it picks the
  // slot's search (SelfplayConfig::search_for), and a search with neither prior nor value records
  // no value and no policy target.
  // `tables` (null: none): the search scores their positions exactly, and a game that reaches
  // them ends there with their result ("tables"), so that every earlier position is trained on
  // the result perfect play gives (lc0's adjudication and rescoring in one).
  // `heuristics` (null: none): the search's win search, and each row's material.
  GameSlot(const SelfplayConfig& config, const game::GameState& start, search::Tree* scratch_tree,
           const std::function<std::optional<game::ActionId>(const game::GameState&, uint64_t)>* placement = nullptr,
           search::Knowledge knowledge = {}, const game::EndgameTables* tables = nullptr,
           const game::Heuristics* heuristics = nullptr);

  // Starts game number `index` from `start` with its own seed (derived from the config's seed
  // and the index, so a game does not depend on which worker plays it).
  void begin(int64_t index, const game::GameState& start, const std::string& model_id);
  bool active() const { return active_; }

  // Plays on until the search needs a network evaluation (fills the query and reply buffers and
  // returns true) or the game ends (returns false; record() then holds it).
  bool next_leaf(search::EvalQuery& query, search::EvalReply& reply, SelfplayStats& stats);
  void deliver(const search::EvalReply& reply) { search_.deliver(reply); }

  bool finished() const { return finished_; }
  const data::GameRecord& record() const { return record_; }
  game::GameResult result() const { return result_; }
  int plies() const { return int(players_.size()); }
  void release() { active_ = false; }

 private:
  // `searched`: a search chose the move (not an imposed drop).
  void record_position(const search::SearchResult& r, bool searched = true);
  // Plays the imposed drop, if the chooser has one for this position; true if it did.
  bool imposed_drop(SelfplayStats& stats);
  void play(game::ActionId action, SelfplayStats& stats);
  bool resigns(const search::SearchResult& r);
  bool adjudicated_draw(const search::SearchResult& r);
  game::ActionId fresh_move(game::ActionId chosen);
  void finish(game::GameResult result, std::string_view reason, SelfplayStats& stats);

  const SelfplayConfig& config_;
  const std::function<std::optional<game::ActionId>(const game::GameState&, uint64_t)>* placement_;
  const search::Knowledge knowledge_;
  const game::EndgameTables* tables_;
  const game::Heuristics* heuristics_;
  uint64_t seed_ = 0;
  search::GameSearch search_;
  data::GameRecord record_;
  std::vector<uint8_t> players_;  // the mover of each recorded position
  std::vector<uint64_t> planes_;
  std::vector<float> scalars_;
  std::string moves_;
  std::vector<uint64_t> seen_;                // hashes of the game's positions so far
  std::unique_ptr<game::GameState> scratch_;  // for looking one move ahead
  bool active_ = false;
  bool finished_ = false;
  bool resign_allowed_ = true;
  int resign_streak_[2] = {0, 0};
  bool would_have_resigned_[2] = {false, false};
  bool adjudication_allowed_ = true;
  search::FlatPlies flat_plies_;  // toward a draw adjudication
  bool would_have_drawn_ = false;
  game::GameResult result_ = game::GameResult::Ongoing;
};

}  // namespace sz::selfplay
