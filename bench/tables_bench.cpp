// `sittuyin-zero bench tables`: nanoseconds per endgame-table probe (docs/TABLES.md, "Speed"), on
// random positions spread over every table of a tables directory, so that most probes miss the
// CPU caches as a search's would; through the game seam (EndgameTables::probe on a GameState, the
// search's call) and on the rules core's Position, hits and misses; and best_actions.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/benches.h"
#include "core/error.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/state.h"
#include "games/chaturanga/tables/chaturanga_tables.h"
#include "games/chaturanga/tables/generator.h"
#include "games/chaturanga/tables/probe.h"
#include "games/chaturanga/tables/table_dir.h"

namespace sz::bench {

namespace {

using namespace chaturanga;

constexpr const char* kAbout =
    R"(Nanoseconds per endgame-table probe on N random positions drawn from every table of PROFILE's
ending rules in DIR, the best of --repeat passes. The positions have the clocks a game gives them
(a count running against a bare king). Rows: a hit through the game seam
(EndgameTables::probe on a GameState, as the search calls it), a hit on a Position (an array of
them), a miss (a position with more men), and best_actions (every legal move probed).
)";

// A position with the clocks a game gives it: where a side is bare, its count runs (do_move starts
// it whenever the bare side is to move; only a FEN can leave it unstarted).
Position as_in_a_game(const Position& placed) {
  const RuleProfile& rules = placed.rules();
  int limit = 0;
  for (Color strong : {White, Black})
    if (placed.pieces(~strong) == placed.pieces(~strong, King) && placed.pieces(strong) != placed.pieces(strong, King))
      limit = 2 * placed.count_limit(strong);
  if (rules.counting != CountingRule::Asean || limit == 0) return placed;
  const std::string fen = placed.fen();
  const std::string board = fen.substr(0, fen.find(" - ") + 3);
  return Position::from_fen(board + std::to_string(limit) + " 0 1", rules).take_or_throw(board);
}

// Random positions of the set's tables, as game states.
std::vector<std::unique_ptr<State>> random_states(const tables::TableSet& set, const RuleProfile& rules, int count) {
  std::vector<std::unique_ptr<State>> out;
  const std::vector<const tables::Table*> all = set.tables();
  std::mt19937_64 rng(1);
  while (int(out.size()) < count) {
    const tables::Table& t = *all[rng() % all.size()];
    Square sq[tables::kMaxMen];
    Color stm;
    if (!t.layout().decode(rng() % t.layout().size(), sq, stm)) continue;
    Piece pieces[tables::kMaxMen];
    for (int s = 0; s < t.layout().men(); ++s) pieces[s] = t.layout().piece(s);
    const Position pos = Position::from_men(rules, stm, pieces, sq, t.layout().men());
    if (pos.pos_is_ok()) out.push_back(std::make_unique<State>(as_in_a_game(pos)));
  }
  return out;
}

// The best of `repeat` passes of `probe_all`, in nanoseconds per call; `calls` per pass.
template <typename F>
double best_ns(int repeat, size_t calls, F probe_all) {
  double best = 1e18;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    probe_all();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ns / double(calls));
  }
  return best;
}

struct Options {
  std::string dir, rules = "sittuyin";
  int positions = 100000, repeat = 5;
};

cli::Flags options_flags(Options& o) {
  cli::Flags f("sittuyin-zero bench tables [--dir DIR] [--rules PROFILE] [--positions N] [--repeat N]", kAbout);
  f.text("--dir", "DIR", o.dir,
         "the tables directory (default: the three-men tables, built into a temporary folder first)");
  f.text("--rules", "PROFILE", o.rules, "the rule profile whose ending rules' tables are probed (default sittuyin)");
  f.number("--positions", "N", o.positions, 1, 10'000'000, "random positions (default 100000)");
  f.number("--repeat", "N", o.repeat, 1, 100, "passes; the best counts (default 5)");
  return f;
}

void run(const tables::TableSet& set, const RuleProfile& rules, const Options& o) {
  const auto states = random_states(set, rules, o.positions);
  const tables::ChaturangaTables seam(std::shared_ptr<const tables::TableSet>(&set, [](const tables::TableSet*) {}));
  long sink = 0;
  const double seam_ns = best_ns(o.repeat, states.size(), [&] {
    for (const auto& s : states) sink += seam.probe(*s).has_value();
  });
  std::vector<Position> positions;
  for (const auto& s : states) positions.push_back(s->position());
  const double position_ns = best_ns(o.repeat, positions.size(), [&] {
    for (const Position& p : positions) sink += tables::probe(set, p).has_value();
  });
  const State start(Position::start(rules));
  const double miss_ns = best_ns(o.repeat, states.size(), [&] {
    for (size_t i = 0; i < states.size(); ++i) sink += seam.probe(start).has_value();
  });
  std::array<game::ActionId, game::kMaxActions> best{};
  const size_t few = std::min<size_t>(states.size(), 10000);
  const double best_actions_ns = best_ns(o.repeat, few, [&] {
    for (size_t i = 0; i < few; ++i) sink += seam.best_actions(*states[i], best);
  });
  std::printf("%zu positions over %zu tables (%s), best of %d passes\n", states.size(), set.tables().size(),
              tables::rules_folder(set.rules()).c_str(), o.repeat);
  std::printf("| probe | ns per call |\n|---|---|\n");
  std::printf("| hit, EndgameTables::probe(GameState) | %.0f |\n", seam_ns);
  std::printf("| hit, tables::probe(Position) | %.0f |\n", position_ns);
  std::printf("| miss (the start position) | %.0f |\n", miss_ns);
  std::printf("| best_actions (every move probed) | %.0f |\n", best_actions_ns);
  if (sink == 42) std::printf(" \n");  // keeps the calls
}

}  // namespace

int bench_tables(Args args) {
  Options o;
  if (!options_flags(o).parse(args)) return 0;
  const RuleProfile& rules = *rule_profile(o.rules).take_or_throw("--rules");
  std::string dir = o.dir;
  std::string temporary;
  if (dir.empty()) {
    temporary = "/tmp/sz-bench-tables-" + std::to_string(std::random_device{}());
    tables::BuildRequest request;
    request.profiles = {&rules};
    request.materials = tables::all_materials(rules.game, 3);
    request.out = dir = temporary;
    tables::build_tables(request, [](const std::string&) {});
  }
  const auto set = tables::load_table_set(dir, tables::ending_rules(rules));
  if (!set) throw Error("no tables of " + o.rules + "'s ending rules in " + dir);
  run(*set, rules, o);
  if (!temporary.empty()) std::filesystem::remove_all(temporary);
  return 0;
}

}  // namespace sz::bench
