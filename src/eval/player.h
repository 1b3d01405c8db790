#pragma once
// The players of the arena: anything that chooses a move for a position, given the game so far.
// Three kinds ship here: MCTS over any Evaluator (a network, or the uniform bootstrap), a seeded
// random mover (the rating anchor), and an external UCI engine in a child process (e.g.
// Fairy-Stockfish). A player is made by a PlayerFactory, once per concurrent game slot, so that
// no instance is ever shared between threads.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "game/endgame_tables.h"
#include "game/game_state.h"
#include "search/evaluator.h"
#include "search/search_config.h"

namespace sz::eval {

// The game as a player sees it when asked for a move.
struct GameView {
  const game::GameState& start;            // the position the game started from
  std::span<const game::ActionId> moves;   // every move since `start`, in order
  std::span<const std::string> uci_moves;  // the same moves in UCI spelling (FSF's)
  const game::GameState& current;          // start + moves: not over, has a legal move
};

// One side of one game at a time. Not thread-safe: the arena gives every concurrent game slot its
// own instances.
class Player {
 public:
  virtual ~Player() = default;
  // Called before every game. `seed` differs per game and seeds every random choice in it.
  // Throws sz::Error when the player cannot play at all (an engine that does not start): that
  // ends the match, since every later game would fail the same way.
  virtual void new_game(const game::GameState& start, uint64_t seed) = 0;
  // The move for view.current. An error (an engine that crashed, timed out or answered an
  // illegal move) forfeits the game; its message names the player and the move.
  virtual Result<game::ActionId> choose_move(const GameView& view) = 0;
  // False once this instance cannot play again (a dead engine): the arena makes a new one.
  virtual bool usable() const { return true; }
  // W - L for the mover of the position of its last choose_move, as its search valued it; nullopt
  // for a player without a value (an engine, the random mover) or a move it did not search.
  virtual std::optional<float> last_value() const { return std::nullopt; }
};

// Makes a fresh instance for arena slot `slot` (0 .. concurrency-1); a factory may be called from
// several threads at once.
using PlayerFactory = std::function<std::unique_ptr<Player>(int slot)>;
// Evaluators for a checkpoint path (nn::evaluator_factory): throws sz::Error if it cannot load.
using ModelLoader = std::function<search::EvaluatorFactory(const std::string& model)>;

// A player of a match: its name (in tables, PGN and JSON) and how to make instances of it.
struct MatchPlayer {
  std::string name;
  PlayerFactory make;
};

// MCTS with SearchConfig `search`: `simulations` visits per move (a cheap search: no root noise,
// no forced playouts; tree reuse counts kept visits, as in self-play) and visit-count move choice
// at `temperature` on every ply (0: the most visited move).
struct MctsPlayerOptions {
  search::SearchConfig search;
  int simulations = 100;
  float temperature = 0;
  // Endgame tables (null: none): the search scores their positions exactly, and in a position of
  // the tables the player plays their best move without searching.
  std::shared_ptr<const game::EndgameTables> tables;
};
PlayerFactory mcts_player_factory(const MctsPlayerOptions& options, search::EvaluatorFactory evaluators);

// Uniformly random legal moves, seeded per game.
PlayerFactory random_player_factory();

// An external UCI engine, one process per instance. After `uci` it gets `setoption name
// UCI_Variant value V` when it offers UCI_Variant (V: the rule profile if the engine lists it,
// else the game, "sittuyin" or "shatranj"; an explicit option UCI_Variant wins), then `options`
// in order. Each move: `position fen <start> moves ...` and `go nodes N` / `go movetime MS` /
// `go depth D` (the first that is set; none set: nodes 1000).
struct UciPlayerOptions {
  std::string command;  // run with /bin/sh -c
  std::string name;     // names the player in errors
  std::vector<std::pair<std::string, std::string>> options;
  int nodes = 0;
  int movetime_ms = 0;
  int depth = 0;
  double start_timeout_s = 60;  // for `uciok` and `readyok`
  double move_timeout_s = 120;  // for `bestmove`, beyond movetime
};
PlayerFactory uci_player_factory(const UciPlayerOptions& options);

}  // namespace sz::eval
