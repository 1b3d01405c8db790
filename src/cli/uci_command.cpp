#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/config_args.h"
#include "games/registry.h"
#include "nn/evaluators.h"
#include "run/run_config.h"
#include "uci/uci_engine.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp = R"(usage: sittuyin-zero uci [--config FILE] [--set KEY=VALUE ...]

Speaks UCI on standard input/output with Fairy-Stockfish's variant conventions, for GUIs and
match tools (cutechess-cli, `sittuyin-zero arena --player uci:...`). FENs carry the hand in
brackets; moves are R@a1 (drops), d5d5f / d5c6f (Sittuyin promotions), b7b8q (Shatranj).

Options (setoption name NAME value VALUE):
  UCI_Variant   sittuyin (default), shatranj, or any rule profile (`sittuyin-zero rules`)
  Model         checkpoint to evaluate with; <empty>: uniform prior and zero value
  Simulations   visits of a plain `go` (default 800)
  Threads       inference threads of the Model's evaluator (the tree search is one thread)
  Strength      0..10; 10 = full strength; each level below halves the visits and adds 0.1 to
                the move-choice temperature (level 0: Simulations/1024 visits, temperature 1)
  Move Overhead milliseconds kept back per timed move (default 30)
  Contempt      -100..100: what a draw the rules decide costs the engine, in percent of a win
                (play.contempt x 100: 20 under the quickstart config); > 0 plays on rather than
                repeat against a weaker side
  Leaf Quiescence  0..100: each leaf's value blended with this percent of its capture-resolved
                material (play.leaf_quiescence x 100: 100 under the quickstart config)
  Full Plies    0..3: with Leaf Quiescence, plies of every legal move searched before the
                captures, so that a fork counts (play.leaf_full_plies: 3 under the quickstart)
  King Hunt     0..100: with Leaf Quiescence, this percent of a bonus for driving the losing
                king to a corner added to that material (play.leaf_king_hunt x 100: 100 under
                the quickstart)
  Win Search    0..4: a leaf whose mover forces a win within this many moves (the first ones
                checks; 1: a mate in one) is scored as won without the network
                (play.leaf_win_moves: 3 under the quickstart)
  Hash          MiB the search tree may use (default 1024)
go: nodes N, depth D (= N visits), movetime MS, wtime/btime/winc/binc/movestogo, infinite.
info: depth = mean tree depth, seldepth = deepest node, score cp = 290.68 tan(1.548 Q) with Q =
W - L of the side to move (lc0's mapping), wdl in permille, pv = most visited line.

  --config FILE     run config whose play-time search tunes the MCTS (its `search` section with
                    the `play` section's keys on top; default: quickstart, whose `play` adds the
                    leaf search above) and whose `inference` section runs the Model
  --set KEY=VALUE   override a config value (repeatable)
)";

}  // namespace

int uci_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  const run::RunConfig config = run_config_from_args(args);
  auto load_model = [config](const std::string& model, int threads, const game::GameSpec& spec) {
    nn::InferenceConfig inference = config.inference;
    inference.threads = threads;
    return nn::evaluator_factory(model, spec, inference)(/*worker=*/0);
  };
  std::ios::sync_with_stdio(false);
  // The run config's endgame tables (tables.dir, which `loop` fills), TablesPath by default.
  const std::string tables_dir = config.tables.men > 0 ? config.tables.dir : "";
  uci::UciEngine engine(std::cout,
                        {"sittuyin-zero", games::profile_names(), games::new_game, games::endgame_tables, tables_dir},
                        load_model, config.play);
  engine.run(std::cin);
  return 0;
}

}  // namespace sz::cli
