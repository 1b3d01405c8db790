// sittuyin-client BUNDLE: the UCI engine (uci/uci_engine.h, the same as `sittuyin-zero uci`)
// over a bundle, so that cutechess-cli and our arena can play what a game ships: the bundle's
// rule profiles are the UCI_Variant choices, its network evaluates through the Eigen forward
// pass, and its `search` settings (the exporting run's) drive the MCTS. No LibTorch, no YAML.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "client/bundle.h"
#include "client/eigen_evaluator.h"
#include "games/chaturanga/state.h"
#include "heuristics/heuristics.h"
#include "uci/uci_engine.h"

namespace {

constexpr const char* kHelp = R"(usage: sittuyin-client BUNDLE_DIR

Speaks UCI on standard input/output with Fairy-Stockfish's variant conventions (as
`sittuyin-zero uci` does: its options and commands, docs/CLIENTS.md), playing the bundle that
`sittuyin-zero export` wrote into BUNDLE_DIR: UCI_Variant chooses among its rule profiles, Model is
the bundle (set at start), the search settings are the bundle's. In a position of the bundle's
endgame tables (exported with --tables) `go` is answered at once with the tables' best move
(`info ... string endgame tables: ...`).
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kHelp, argc == 2 ? stdout : stderr);
    return argc == 2 ? 0 : 2;
  }
  const std::string dir = argv[1];
  auto opened = sz::client::open_bundle(dir);
  if (!opened) {
    std::fprintf(stderr, "sittuyin-client: %s\n", opened.error().c_str());
    return 1;
  }
  std::shared_ptr<const sz::client::Bundle> bundle = std::move(opened).value();
  sz::uci::UciGames games;
  games.name = "sittuyin-client";
  for (const auto& p : bundle->profiles) games.variants.push_back(p->id);
  games.new_game = [bundle](std::string_view variant,
                            std::string_view fen) -> sz::Result<std::unique_ptr<sz::game::GameState>> {
    const sz::chaturanga::RuleProfile* rules = bundle->profile(variant);
    if (!rules) return sz::fail("the bundle has no rule profile '" + std::string(variant) + "'");
    if (fen.empty())
      return std::unique_ptr<sz::game::GameState>(
          std::make_unique<sz::chaturanga::State>(sz::chaturanga::Position::start(*rules)));
    auto pos = sz::chaturanga::Position::from_fen(fen, *rules);
    if (!pos) return sz::fail(pos.error());
    return std::unique_ptr<sz::game::GameState>(std::make_unique<sz::chaturanga::State>(*pos));
  };
  auto load_model = [bundle, dir](const std::string& model, int,
                                  const sz::game::GameSpec& spec) -> std::unique_ptr<sz::search::Evaluator> {
    if (model != dir) throw sz::Error("sittuyin-client plays the network of its bundle " + dir + ", not " + model);
    if (spec.game != bundle->arch.spec.game) throw sz::Error("the bundle's network plays " + bundle->arch.spec.game);
    return std::make_unique<sz::client::EigenEvaluator>(bundle->net, 1);
  };
  // The bundle's endgame tables (exported with --tables), its own: TablesPath names the bundle
  // (the default) or nothing ("<empty>": play without them).
  games.heuristics = sz::heuristics::of_game;
  games.tables_dir = dir;
  games.load_tables = [bundle, dir](
                          std::string_view variant,
                          const std::string& path) -> sz::Result<std::shared_ptr<const sz::game::EndgameTables>> {
    if (path != dir) return sz::fail("sittuyin-client plays the tables of its bundle " + dir + ", not " + path);
    const sz::game::EndgameTables* tables = bundle->tables_for(bundle->profile(variant));
    return std::shared_ptr<const sz::game::EndgameTables>(bundle, tables);  // alive with the bundle
  };
  try {
    std::ios::sync_with_stdio(false);
    sz::uci::UciEngine engine(std::cout, games, load_model, bundle->search);
    engine.handle("setoption name Model value " + dir);
    engine.run(std::cin);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sittuyin-client: %s\n", e.what());
    return 1;
  }
  return 0;
}
