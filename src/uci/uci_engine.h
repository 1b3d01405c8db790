#pragma once
// `sittuyin-zero uci`: the Universal Chess Interface with Fairy-Stockfish's variant conventions,
// so that GUIs and match tools that drive FSF (cutechess-cli, pychess, our own arena) drive us.
//
// Protocol: uci, isready, setoption, ucinewgame, position startpos|fen <FEN> [moves ...], go,
// stop, quit, plus `d` (prints the FEN and legal moves as info strings). FENs carry the hand in
// brackets and moves are spelled as FSF spells them (R@a1, d5d5f, b7b8q: ../shared/RULES.md
// section 4). The search runs on a thread of its own, so `stop`, `isready` and `quit` are
// answered while it runs; `position`, `go`, `setoption` and `ucinewgame` during a search are
// errors (UCI forbids them). Anything malformed gets `info string error: ...` naming the bad
// part and changes nothing; a `position` with an illegal move keeps the moves before it (as FSF
// does) and names the move.
//
// go: `nodes N` = N new simulations; `depth D` = D new simulations (MCTS has no iteration depth);
// `movetime MS`; `wtime/btime/winc/binc/movestogo` (allot_time_ms); `infinite` (bestmove only
// after `stop`); nothing = the Simulations option. Limits combine, the first reached ends the
// search; the tree's memory is capped by the Hash option. The tree is kept between moves when the
// new position extends the searched one (tree reuse).
//
// info lines: depth = mean depth of the tree's nodes (about the mean playout depth), seldepth =
// the deepest node, nodes = simulations of this search, score cp = q_to_centipawns(Q) with Q =
// W - L of the root from the side to move, wdl in permille, pv = most visited line.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "game/endgame_tables.h"
#include "game/game_state.h"
#include "game/heuristics.h"
#include "search/evaluator.h"
#include "search/game_search.h"
#include "search/search_config.h"

namespace sz::uci {

// The Strength option: level kMaxStrength plays at full strength (the Simulations budget, the
// most visited move). Each level below halves the visits (at least 1) and adds 0.1 to the
// move-choice temperature on visit counts (every ply): level 0 = Simulations / 1024 visits at
// temperature 1. Below the top level the level's visits also cap `go nodes` and timed searches.
inline constexpr int kMaxStrength = 10;
struct StrengthSetting {
  int simulations = 1;
  float temperature = 0;
};
StrengthSetting strength_setting(int level, int simulations);

// lc0's mapping of Q = W - L in [-1, 1] (side to move) to centipawns:
// cp = 290.680623072 * tan(1.548090806 * Q), so Q = 0.5 is about +290 cp and Q = +-1 about
// +-12680 cp (finite: 1.548 < pi / 2).
int q_to_centipawns(float q);

struct GoLimits {
  int64_t nodes = 0;                 // 0: no node limit
  int64_t movetime_ms = 0;           // 0: none
  int64_t time_ms[2] = {-1, -1};     // wtime, btime; -1: not given
  int64_t increment_ms[2] = {0, 0};  // winc, binc
  int movestogo = 0;                 // 0: sudden death
  int depth = 0;
  bool infinite = false;
};
// The arguments of a `go` command (tokens after "go"); an error names the bad token.
Result<GoLimits> parse_go(std::span<const std::string> tokens);

// The simple time manager: time_left / moves (movestogo, capped at 50, or 30 when not given)
// + 3/4 of the increment, at most half the time left (90% with movestogo 1), minus the move
// overhead; at least 1 ms.
int64_t allot_time_ms(int64_t time_left_ms, int64_t increment_ms, int movestogo, int64_t overhead_ms);

// Loads a checkpoint's evaluator with `threads` inference threads, for positions of the game
// `spec` encodes (the variant's); throws sz::Error.
using EngineModelLoader = std::function<std::unique_ptr<search::Evaluator>(const std::string& model, int threads,
                                                                           const game::GameSpec& spec)>;

// What the engine plays, given by its owner (the engine names no game): its name for `id name`,
// the variants the UCI_Variant option offers (the first is the default) and how to start one from
// its start position (`fen` empty) or a FEN. `sittuyin-zero uci` gives the rule profiles
// (games/registry.h); sittuyin-client the profiles of its bundle.
struct UciGames {
  std::string name = "sittuyin-zero";
  std::vector<std::string> variants;
  std::function<Result<std::unique_ptr<game::GameState>>(std::string_view variant, std::string_view fen)> new_game;
  // Endgame tables (docs/TABLES.md), when the owner has them: those of a variant in a directory
  // (null when it holds none). The engine offers the option TablesPath, default `tables_dir`:
  // in a position of the tables `go` answers the tables' best move at once, and every search
  // scores their positions exactly. Unset: no tables, no option.
  std::function<Result<std::shared_ptr<const game::EndgameTables>>(std::string_view variant, const std::string& dir)>
      load_tables;
  std::string tables_dir;
  // The heuristics of a game by its name (heuristics/heuristics.h: heuristics::of_game), for the
  // play settings' leaf search; unset or null: a search without them (the leaf search off).
  std::function<const game::Heuristics*(std::string_view game)> heuristics;
};

// The play settings (search/search_config.h: play_settings, declared there once) as UCI spin
// options, each "option name NAME type spin default D min A max B": the setting's value and range
// times the option's scale, the default `search`'s.
std::vector<std::string> play_option_lines(const search::SearchConfig& search);
// Their help, one entry each: the range, the config key the default comes from (`section`.KEY)
// and its value in `search` (named `defaults_name`: "the quickstart"), what the setting does.
std::string play_options_help(const search::SearchConfig& search, std::string_view section,
                              std::string_view defaults_name);

class UciEngine {
 public:
  // Lines go to `out` (flushed per line, from the reader and the search thread, serialised).
  // `load_model` runs the Model option (none: setting a Model is an error; a variant of another
  // game loads it again for that game); `search` is the base
  // MCTS configuration (the root is always PUCT, searches are cheap: no noise, no forced
  // playouts).
  // Throws sz::Error when `games` offers no variant or cannot start its first.
  UciEngine(std::ostream& out, UciGames games, EngineModelLoader load_model = {},
            const search::SearchConfig& search = {});
  ~UciEngine();  // stops a running search
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  // Handles one command line; returns false after `quit`. Never throws on bad input.
  bool handle(std::string_view line);
  // Reads commands until `quit` or the end of the input; at the end of the input a finite search
  // is allowed to finish (so `echo go | sittuyin-zero uci` prints its bestmove), an infinite
  // one is stopped.
  void run(std::istream& in);
  // Blocks until no search is running (for tests and for end of input).
  void wait();
  bool searching() const { return busy_; }

 private:
  struct SearchPlan {
    int64_t visits = 0;   // new simulations; 0: no limit
    int64_t time_ms = 0;  // 0: no limit
    bool infinite = false;
    float temperature = 0;
  };

  void emit(const std::string& line);
  void error(const std::string& message) { emit("info string error: " + message); }
  void reap();  // joins a search thread that has finished
  void stop_search();

  void cmd_uci();
  void cmd_setoption(std::span<const std::string> tokens);
  void set_option(const std::string& name, const std::string& value);
  void set_variant(const std::string& value);
  void set_model(const std::string& model, int threads);
  void set_tables(const std::string& dir);
  bool answer_from_tables();
  void cmd_position(std::span<const std::string> tokens);
  std::string set_position(std::span<const std::string> tokens);  // "" or why it is refused
  void cmd_go(std::span<const std::string> tokens);
  void cmd_display();
  void reset_position();
  SearchPlan plan_search(const GoLimits& limits) const;
  void sync_search();
  void play_over_position();

  // uci_search.cpp: the search thread.
  void search_main(SearchPlan plan);
  void run_search(const SearchPlan& plan);
  bool out_of_budget(const SearchPlan& plan, uint32_t base_visits, double elapsed_s) const;
  std::string info_line(uint32_t base_visits, double elapsed_s) const;
  game::ActionId choose_move(float temperature);

  std::ostream& out_;
  std::mutex out_mutex_;
  UciGames games_offered_;
  EngineModelLoader load_model_;
  search::SearchConfig search_config_;

  // Options.
  std::string variant_;
  std::string model_;
  std::string refused_position_;  // why the last `position` was refused; "" when it was taken
  // The engine's own spin options, each declared once (spin_options(), uci_engine.cpp): its
  // name, its default and range, and the member it sets. `uci` prints them, `setoption` sets them,
  // the constructor gives the members their defaults.
  struct SpinOption {
    const char* name;
    int default_value, lo, hi;
    int UciEngine::*field;
  };
  static std::span<const SpinOption> spin_options();
  int simulations_ = 0;
  int threads_ = 0;
  int strength_ = 0;
  int move_overhead_ms_ = 0;
  int hash_mb_ = 0;
  std::unique_ptr<search::Evaluator> evaluator_;
  std::string tables_dir_;
  std::shared_ptr<const game::EndgameTables> tables_;  // the variant's, null when none
  const game::Heuristics* heuristics_ = nullptr;       // the variant's game's, null when none

  // The position of the last `position` command.
  std::unique_ptr<game::GameState> start_;
  std::vector<game::ActionId> moves_;
  std::unique_ptr<game::GameState> current_;

  // The search, touched only by the search thread while busy_ is set.
  std::unique_ptr<search::GameSearch> search_;
  std::string search_start_;                  // FEN of the start the searched game came from
  std::vector<game::ActionId> search_moves_;  // moves from there to the search's root
  uint64_t games_ = 0;                        // ucinewgame count: seeds

  std::thread worker_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stop_{false};
  bool infinite_ = false;  // the running search is `go infinite`
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
};

}  // namespace sz::uci
