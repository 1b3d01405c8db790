#include <cstdio>
#include <iostream>
#include <string>

#include "bundle/checkpoint_runtime.h"
#include "cli/command.h"
#include "cli/config_args.h"
#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "nn/evaluators.h"
#include "nn/net_runner.h"
#include "run/run_config.h"
#include "uci/uci_engine.h"

namespace sz::cli {

namespace {

constexpr const char* kAboutTop =
    R"(Speaks UCI on standard input/output with Fairy-Stockfish's variant conventions, for GUIs and
match tools (cutechess-cli, `sittuyin-zero arena --player uci:...`). FENs carry the hand in
brackets; moves are R@a1 (drops), d5d5f / d5c6f (Sittuyin promotions), b7b8q (Shatranj).

Options (setoption name NAME value VALUE):
  UCI_Variant       sittuyin (default), shatranj, or any rule profile (`sittuyin-zero rules`)
  Model             checkpoint to evaluate with; <empty>: uniform prior and zero value
  Simulations       visits of a plain `go` (default 800)
  Threads           inference threads of the Model's evaluator (the tree search is one thread);
                    with --runtime auto, 1 runs the clients' Eigen forward pass, more LibTorch's
  Strength          0..10; 10 = full strength; each level below halves the visits and adds 0.1
                    to the move-choice temperature (level 0: Simulations/1024 visits,
                    temperature 1)
  Move Overhead     milliseconds kept back per timed move (default 30)
)";

constexpr const char* kAboutBottom = R"(  Hash              MiB the search tree may use (default 1024)
  TablesPath        endgame tables' directory (default: the config's tables.dir); <empty>: none
go: nodes N, depth D (= N visits), movetime MS, wtime/btime/winc/binc/movestogo, infinite.
info: depth = mean tree depth, seldepth = deepest node, score cp = 290.68 tan(1.548 Q) with Q =
W - L of the side to move (lc0's mapping), wdl in permille, pv = most visited line.

)";

// The play settings' options come from their one declaration (search::play_settings), their
// defaults shown as the quickstart sets them.
std::string about() {
  const run::RunConfig quickstart = run::load_run_config("quickstart").take_or_throw("configs/quickstart.yaml");
  return kAboutTop + uci::play_options_help(quickstart.play, "play", "the quickstart") + kAboutBottom;
}

// Which forward pass evaluates the Model. The engine evaluates one position at a time, where
// LibTorch's per-call overhead dominates a small network: the clients' Eigen forward pass (the one
// game clients ship) played the same moves at 800 visits in 0.61-0.68 of LibTorch's CPU time
// (docs/BENCHMARKS.md, "The engine's forward pass").
enum class Runtime { Auto, Eigen, LibTorch };

// Auto: Eigen where LibTorch would run float32 on one CPU thread; LibTorch on CUDA, in bfloat16
// and with more threads, which Eigen does not offer.
bool uses_eigen(Runtime runtime, const nn::InferenceConfig& inference) {
  if (runtime != Runtime::Auto) return runtime == Runtime::Eigen;
  return inference.threads == 1 && !nn::resolve_device(inference.device).starts_with("cuda") &&
         nn::resolve_precision(inference.precision, /*cuda=*/false) == nn::Precision::Float32;
}

}  // namespace

int uci_command(Args args) {
  ConfigFlags flags;
  Flags f("sittuyin-zero uci [--config FILE] [--set KEY=VALUE ...] [--runtime auto|eigen|libtorch]", about());
  f.config(flags,
           "run config whose play-time search tunes the MCTS (its `search` section with the `play` section's keys on "
           "top; default: quickstart, whose `play` adds the leaf search above) and whose `inference` section runs "
           "the Model");
  Runtime runtime = Runtime::Auto;
  f.choice("--runtime", "R", runtime,
           {{"auto", Runtime::Auto}, {"eigen", Runtime::Eigen}, {"libtorch", Runtime::LibTorch}},
           "the Model's forward pass: eigen (the game clients' runtime, one CPU thread), libtorch (the "
           "config's inference device, precision and Threads) or auto (default: eigen with Threads 1 on a CPU at "
           "float32, libtorch otherwise)");
  if (!f.parse(args)) return 0;
  const run::RunConfig config = run_config_of(flags);
  auto load_model = [config, runtime](const std::string& model, int threads,
                                      const game::GameSpec& spec) -> std::unique_ptr<search::Evaluator> {
    nn::InferenceConfig inference = config.inference;
    inference.threads = threads;
    if (!model.empty()) {  // empty: the uniform evaluator, no network
      const bool eigen = uses_eigen(runtime, inference);
      // On stderr, which GUIs log and do not parse: what runs the network, for a user comparing speeds.
      std::fprintf(stderr, "sittuyin-zero uci: %s runs on %s\n", model.c_str(),
                   eigen ? "the Eigen forward pass (one CPU thread)" : "LibTorch");
      if (eigen) return bundle::checkpoint_on_client_runtime(model, spec);
    }
    return nn::evaluator_factory(model, spec, inference)(/*worker=*/0);
  };
  std::ios::sync_with_stdio(false);
  // The run config's endgame tables (tables.dir, which `loop` fills), TablesPath by default.
  const std::string tables_dir = config.tables.men > 0 ? config.tables.dir : "";
  uci::UciEngine engine(std::cout,
                        {"sittuyin-zero", games::profile_names(), games::new_game, games::endgame_tables, tables_dir,
                         heuristics::of_game},
                        load_model, config.play);
  engine.run(std::cin);
  return 0;
}

}  // namespace sz::cli
