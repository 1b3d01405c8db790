#pragma once
// The self-play driver: worker threads (TBB), each advancing many games and sending their leaves
// to its evaluator in one batch; finished games stream to HDF5 shards, one writer per worker.
// Killed at any point, a run leaves every finished shard readable; run again with the same
// output directory it plays only the games still missing.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "game/endgame_tables.h"
#include "game/game_state.h"
#include "search/evaluator.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_stats.h"

namespace sz::selfplay {

using WarningSink = std::function<void(const std::string&)>;

// A placement imposed on self-play (eval::placement_chooser: `selfplay --placement`): the drop
// for the side to move of a placing position in the game seeded `seed`, or nullopt to let the
// search choose. Called from the worker threads, so it must be thread-safe (stateless). A drop
// chosen so is recorded without a policy target (policy_target 0, no policy entries) and without
// a search value (has_search_value 0), since no search looked at the position.
using PlacementChooser = std::function<std::optional<game::ActionId>(const game::GameState& state, uint64_t seed)>;

struct SelfplayJob {
  SelfplayConfig config;
  // The position every game starts from: its game and rule profile are the ones played (e.g.
  // games::new_game("sittuyin")). Each worker plays on copies of its own.
  std::shared_ptr<const game::GameState> start;
  std::string out_dir;  // shards go here (runs/<run>/games)
  // Games the directory should hold when the job is done: this worker's games are counted by
  // index (each once, however often a killed run left it there), others as they are. Other
  // workers' shards finished meanwhile count too (the directory is counted again whenever this
  // job finishes a shard), so several workers with the same target stop near it together: the
  // directory ends with at most the games in their shards and slots still in progress more.
  // < 0: no limit, play until *stop.
  int64_t games = 0;
  // The worker's id (selfplay/worker_id.h): its shards are named "<id>-w<thread>-<seq>.h5"
  // (after selfplay.shard_prefix and '-' when that is set) and record it, and its games are
  // seeded from worker_seed(config.seed, id), so workers sharing `out_dir` never collide nor
  // play the same game. "" (the loop's own self-play): "<prefix or host>-w<thread>", seeds from
  // config.seed; then no other process may write into `out_dir` at the same time.
  std::string worker_id;
  std::string model_id;    // recorded with every game ("" for the bootstrap evaluator)
  int64_t generation = 0;  // the loop's generation, written into each shard (its place in the window)
  // One evaluator per worker (a NetEvaluator, a client of a shared inference service, or the
  // uniform bootstrap). Called once per worker, from that worker's thread.
  search::EvaluatorFactory make_evaluator;
  // Called about every `progress_seconds` from one thread with the running statistics.
  std::function<void(const SelfplayStats&)> on_progress;
  double progress_seconds = 10;
  // Following a run (`selfplay --follow`): the model to play with now, asked by each worker
  // thread at its start and then between games, at most every model_poll_seconds. When it
  // names another model, the thread begins no more games, finishes those in flight and plays on
  // with the new one (evaluators_for builds its evaluators; on_model hears of the switch), so
  // each game is played and recorded (model_id) by one model. An exception it throws is a
  // warning: the thread keeps its model. Unset: model_id and make_evaluator throughout.
  std::function<std::string()> current_model;
  std::function<search::EvaluatorFactory(const std::string& model)> evaluators_for;
  std::function<void(int thread, const std::string& model)> on_model;
  double model_poll_seconds = 2;
  // Set (e.g. by SIGINT) to finish early: no new games are begun, the games in flight may go on
  // for finish_seconds (0: they are abandoned at once), then the shards are closed.
  const std::atomic<bool>* stop = nullptr;
  double finish_seconds = 0;
  // Endgame tables (games::endgame_tables; null: none): the searches score their positions
  // exactly and a game that reaches them ends with their result ("tables", GameSlot).
  std::shared_ptr<const game::EndgameTables> tables;
  // The game's heuristics (heuristics/heuristics.h; null: none): the searches' leaf blend and win
  // search (search.leaf_*) and the material recorded with every position.
  const game::Heuristics* heuristics = nullptr;
  WarningSink on_warning;      // a damaged shard skipped; default: "warning: ..." on stderr
  PlacementChooser placement;  // empty: the search places too
};

// The base of a writer's shard names, before "-w<thread>": selfplay.shard_prefix and the worker
// id joined by '-', or the short host name when both are empty (the loop's own self-play).
std::string writer_base(const SelfplayConfig& config, const std::string& worker_id);

// Runs the job; returns the statistics of the games it played. Throws sz::Error without a start
// position, on an unwritable directory or a failing evaluator; the first failure stops every
// worker.
// Resumes by index: the games of config.seed already written are not played again, whatever
// order a killed run finished them in.
std::unique_ptr<SelfplayStats> run_selfplay(const SelfplayJob& job);

// The games in the completed shards of a directory, for a worker seeded with `run_seed` (its
// worker_seed).
struct GamesOnDisk {
  // The game index of every game (game_index_of), sorted, each once. A game of another run's
  // seed gets an index too, almost surely far beyond any a run reaches, so it is counted but
  // never taken for one of this run's games.
  std::vector<uint64_t> indices;
  int64_t duplicates = 0;           // repeats of an index (left by runs before resuming by index)
  std::vector<std::string> shards;  // the shards read
  int64_t distinct() const { return int64_t(indices.size()); }
};

// Reads the seeds of every completed shard of `dir` (nothing if it does not exist). A damaged
// shard is skipped with a warning and moved into `dir`/damaged/ (data::open_or_skip).
GamesOnDisk scan_games(const std::string& dir, uint64_t run_seed, const WarningSink& on_warning = {});

// Games in the completed shards of `dir` (0 if it does not exist); damaged shards are skipped
// as by scan_games.
int64_t count_games(const std::string& dir, const WarningSink& on_warning = {});

}  // namespace sz::selfplay
