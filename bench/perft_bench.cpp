// `sittuyin-zero bench perft`: perft speed on the anchor positions of ../shared/RULES.md section 8
// ("Performance anchor"), optionally side by side with Fairy-Stockfish (FSF) over UCI.
//
// Wall times on the development VM drift by up to 30 % between runs, so a speed claim is a ratio
// measured in one run: with --fsf the two engines alternate on every repeat, so drift hits both,
// and the best of N repeats of each is compared. The steady measure is instructions per perft
// leaf under callgrind, (Ir(perft d) - Ir(perft 1)) / nodes(d), which subtracts start-up cost;
// --callgrind runs one untimed perft so that scripts/bench-perft.sh can take the two Ir counts.
// Results and commands: docs/BENCHMARKS.md.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/benches.h"
#include "core/error.h"
#include "eval/uci_process.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/rule_profiles.h"

namespace sz::bench {

namespace {

constexpr const char* kUsage =
    R"(sittuyin-zero bench perft [--quick] [--repeat N] [--position NAME [--depth D]] [--fsf COMMAND]
       sittuyin-zero bench perft --callgrind --position NAME [--depth D])";

constexpr const char* kAbout =
    R"(Perft speed (leaves per second, bulk counting at the last ply) on the anchor positions of
RULES.md section 8: sittuyin-start D4, middlegame-a D6, middlegame-b D6, shatranj-start D6.
Prints one table row per position; exit 1 if a node count is wrong.
)";

// One anchor position. Figures for FSF are quoted from RULES.md section 8 (native build,
// ARCH=x86-64-modern, one thread), not measured here.
struct Anchor {
  const char* name;
  const char* variant;  // our rule profile and FSF's UCI_Variant
  const char* fen;      // nullptr: the start position
  int depth;            // the timed anchor depth
  uint64_t nodes;
  int quick_depth;  // also the callgrind depth
  uint64_t quick_nodes;
  double fsf_native_mnps;  // RULES.md, the best of its two runs
  int fsf_ir_per_leaf;     // RULES.md
};

constexpr Anchor kAnchors[] = {
    {"sittuyin-start", "sittuyin", nullptr, 4, 43'454'464, 3, 580'096, 15.8, 805},
    {"middlegame-a", "sittuyin", "1fn3rr/4k1Nn/2s1Pppp/1pp5/1P3PPP/2PP3S/S4N2/4KRFR[] w - - 1 15", 6, 115'991'706, 4,
     208'873, 12.1, 909},
    {"middlegame-b", "sittuyin", "1rk2sr1/1n3f2/6pP/pppps3/7P/PPPP3F/6N1/1K1R1SSR[] w - - 0 14", 6, 202'314'364, 4,
     302'089, 16.1, 799},
    {"shatranj-start", "shatranj", nullptr, 6, 19'864'709, 5, 1'164'248, 15.4, 873},
};

struct Options {
  bool quick = false;
  bool callgrind = false;
  int repeat = 3;
  int depth = 0;  // 0: the anchor's own depth
  std::string position;
  std::string fsf;
};

const Anchor& find_anchor(const std::string& name) {
  for (const Anchor& a : kAnchors)
    if (name == a.name) return a;
  std::string known;
  for (const Anchor& a : kAnchors) known += std::string(known.empty() ? "" : ", ") + a.name;
  throw Error("unknown --position '" + name + "' (known: " + known + ")");
}

cli::Flags options_flags(Options& o) {
  cli::Flags f(kUsage, kAbout);
  f.set("--quick", o.quick, "the smaller callgrind depths (D3, D4, D4, D5): a run of a few seconds");
  f.number("--repeat", "N", o.repeat, 1, 100, "best of N timed runs per position, 1..100 (default 3)");
  f.text("--position", "NAME", o.position,
         "only this position (sittuyin-start, middlegame-a, middlegame-b, shatranj-start)");
  f.number("--depth", "D", o.depth, 1, 20, "with --position: this depth instead, 1..20");
  f.text("--fsf", "COMMAND", o.fsf,
         "also run COMMAND (through /bin/sh) as a UCI engine, Fairy-Stockfish with `go perft`; each repeat runs ours "
         "then FSF, and the table gives both speeds and the ratio ours/FSF, all measured in this run. Example:\n"
         "--fsf \"NODE_PATH=/tmp/fsf/node_modules node ../shared/tools/fsf-uci/fsf-uci.js\"");
  f.set("--callgrind", o.callgrind,
        "run one untimed perft of --position at --depth (default: its callgrind depth) and print `nodes N`; for "
        "`valgrind --tool=callgrind`, at depth d and at depth 1, instructions per leaf = (Ir(d) - Ir(1)) / N(d). See "
        "scripts/bench-perft.sh.");
  return f;
}

// What the flags alone do not check: the position's name, and the flags that need or exclude others.
void check_options(const Options& o) {
  if (!o.position.empty()) find_anchor(o.position);  // fail early on a bad name
  if (o.depth && o.position.empty()) throw Error("--depth needs --position NAME");
  if (o.callgrind && o.position.empty()) throw Error("--callgrind needs --position NAME");
  if (o.callgrind && (!o.fsf.empty() || o.quick)) throw Error("--callgrind does not combine with --fsf or --quick");
  if (o.fsf.find_first_not_of(" \t") == std::string::npos && !o.fsf.empty())
    throw Error("--fsf wants a command line, not blanks");
}

struct Timing {
  uint64_t nodes = 0;
  double seconds = 0;
  double mnps() const { return seconds > 0 ? double(nodes) / seconds / 1e6 : 0.0; }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

chaturanga::Position anchor_position(const Anchor& a) {
  const chaturanga::RuleProfile& rules = *chaturanga::rule_profile(a.variant).take_or_throw("bench perft");
  if (!a.fen) return chaturanga::Position::start(rules);
  return chaturanga::Position::from_fen(a.fen, rules).take_or_throw(std::string("bench perft: ") + a.name);
}

Timing time_ours(const chaturanga::Position& pos, int depth) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t nodes = chaturanga::perft(pos, depth);
  return {nodes, seconds_since(start)};
}

void fsf_set_variant(eval::UciProcess& fsf, const Anchor& a) {
  fsf.send(std::string("setoption name UCI_Variant value ") + a.variant);
  fsf.send(a.fen ? std::string("position fen ") + a.fen : std::string("position startpos"));
  fsf.send("isready");
  fsf.wait_for("readyok", /*timeout_s=*/60);
}

// FSF's time includes the pipe round trip and its per-root-move output, a few milliseconds.
Timing time_fsf(eval::UciProcess& fsf, int depth) {
  const auto start = std::chrono::steady_clock::now();
  fsf.send("go perft " + std::to_string(depth));
  const std::string line = fsf.wait_for("Nodes searched:", /*timeout_s=*/3600);
  const double secs = seconds_since(start);
  return {std::stoull(line.substr(std::strlen("Nodes searched:"))), secs};
}

struct Row {
  const Anchor* anchor;
  int depth;
  Timing ours;
  std::optional<Timing> fsf;
  bool ok = true;  // every count agreed with the reference and with FSF
};

int row_depth(const Anchor& a, const Options& o) { return o.depth ? o.depth : o.quick ? a.quick_depth : a.depth; }

std::optional<uint64_t> expected_nodes(const Anchor& a, int depth) {
  if (depth == a.depth) return a.nodes;
  if (depth == a.quick_depth) return a.quick_nodes;
  return std::nullopt;
}

bool check_count(const char* who, const Anchor& a, int depth, uint64_t got, uint64_t want) {
  if (got == want) return true;
  std::fprintf(stderr, "MISMATCH %s: %s depth %d gave %llu nodes, want %llu\n", a.name, who, depth,
               static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
  return false;
}

Row measure(const Anchor& a, const Options& o, eval::UciProcess* fsf) {
  Row row{&a, row_depth(a, o), {}, std::nullopt};
  const chaturanga::Position pos = anchor_position(a);
  if (fsf) fsf_set_variant(*fsf, a);
  for (int r = 0; r < o.repeat; ++r) {
    const Timing ours = time_ours(pos, row.depth);
    if (r == 0 || ours.seconds < row.ours.seconds) row.ours = ours;
    if (!fsf) continue;
    const Timing theirs = time_fsf(*fsf, row.depth);
    if (!row.fsf || theirs.seconds < row.fsf->seconds) row.fsf = theirs;
    row.ok = check_count("Fairy-Stockfish", a, row.depth, theirs.nodes, ours.nodes) && row.ok;
  }
  if (const auto want = expected_nodes(a, row.depth))
    row.ok = check_count("ours", a, row.depth, row.ours.nodes, *want) && row.ok;
  return row;
}

void print_header(bool with_fsf) {
  if (with_fsf) {
    std::puts("| position | depth | nodes | ours s | ours Mnps | FSF s | FSF Mnps | ours/FSF |");
    std::puts("|---|---|---|---|---|---|---|---|");
  } else {
    std::puts("| position | depth | nodes | s | Mnps | FSF native Mnps (RULES.md, not measured here) | ratio |");
    std::puts("|---|---|---|---|---|---|---|");
  }
}

void print_row(const Row& r) {
  std::printf("| %s | %d | %llu | %.3f | %.1f |", r.anchor->name, r.depth,
              static_cast<unsigned long long>(r.ours.nodes), r.ours.seconds, r.ours.mnps());
  if (r.fsf) {
    std::printf(" %.3f | %.2f | %.1fx |", r.fsf->seconds, r.fsf->mnps(), r.ours.mnps() / r.fsf->mnps());
  } else if (r.depth == r.anchor->depth) {
    std::printf(" %.1f | %.1fx |", r.anchor->fsf_native_mnps, r.ours.mnps() / r.anchor->fsf_native_mnps);
  } else {
    std::printf(" - (RULES.md has D%d only) | - |", r.anchor->depth);
  }
  std::printf("%s\n", r.ok ? "" : " MISMATCH");
  std::fflush(stdout);
}

std::vector<const Anchor*> selected(const Options& o) {
  if (!o.position.empty()) return {&find_anchor(o.position)};
  std::vector<const Anchor*> all;
  for (const Anchor& a : kAnchors) all.push_back(&a);
  return all;
}

int run_callgrind(const Options& o) {
  const Anchor& a = find_anchor(o.position);
  const int depth = o.depth ? o.depth : a.quick_depth;
  const uint64_t nodes = chaturanga::perft(anchor_position(a), depth);
  std::printf("nodes %llu\n", static_cast<unsigned long long>(nodes));
  const auto want = expected_nodes(a, depth);
  return !want || check_count("ours", a, depth, nodes, *want) ? 0 : 1;
}

std::unique_ptr<eval::UciProcess> start_fsf(const std::string& command) {
  if (command.empty()) return nullptr;
  auto fsf = std::make_unique<eval::UciProcess>(command, "--fsf");
  fsf->send("uci");
  fsf->wait_for("uciok", /*timeout_s=*/60);
  return fsf;
}

}  // namespace

int bench_perft(Args args) {
  Options o;
  if (!options_flags(o).parse(args)) return 0;
  check_options(o);
  if (o.callgrind) return run_callgrind(o);
  const std::unique_ptr<eval::UciProcess> fsf = start_fsf(o.fsf);
  std::printf("perft, one thread, best of %d; Mnps = million leaves per second%s\n\n", o.repeat,
              fsf ? "; FSF = the --fsf engine, measured in this run, alternating with ours" : "");
  print_header(fsf != nullptr);
  bool ok = true;
  for (const Anchor* a : selected(o)) {
    const Row row = measure(*a, o, fsf.get());
    print_row(row);
    ok = ok && row.ok;
  }
  return ok ? 0 : 1;
}

}  // namespace sz::bench
