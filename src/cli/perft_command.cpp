#include <chrono>
#include <cstdio>

#include "cli/command.h"
#include "cli/perft_suite.h"
#include "core/error.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"

namespace sz::cli {

namespace {

constexpr const char* kUsage = R"(sittuyin-zero perft --suite FILE [--rules NAME] [--max-depth D]
       sittuyin-zero perft --fen FEN --depth D [--rules NAME] [--divide]
       sittuyin-zero perft --depth D [--rules NAME] [--divide]      (the start position))";

constexpr const char* kAbout =
    "Counts the leaves of the legal-move tree (bulk counting at the last ply, as Fairy-Stockfish).\n";

int run_single(const std::string& fen, int depth, const std::string& rules, bool divide) {
  using namespace chaturanga;
  const RuleProfile& profile = *chaturanga::rule_profile(rules.empty() ? "sittuyin" : rules).take_or_throw("--rules");
  const Position pos = fen.empty() ? Position::start(profile) : Position::from_fen(fen, profile).take_or_throw("--fen");
  const auto start = std::chrono::steady_clock::now();
  uint64_t nodes = 0;
  if (divide) {
    MoveList moves;
    generate_legal(pos, moves);
    for (Move m : moves) {
      Position next = pos;
      next.do_move(m);
      const uint64_t n = depth > 1 ? perft(next, depth - 1) : 1;
      std::printf("%s: %llu\n", to_uci(m, profile.game).c_str(), static_cast<unsigned long long>(n));
      nodes += n;
    }
  } else {
    nodes = perft(pos, depth);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "time %.3f s, %.2f M nodes/s\n", secs, secs > 0 ? double(nodes) / secs / 1e6 : 0.0);
  std::printf("\nNodes searched: %llu\n", static_cast<unsigned long long>(nodes));
  return 0;
}

}  // namespace

int perft_command(Args args) {
  std::string suite, fen, rules;
  int depth = 0, max_depth = 0;
  bool divide = false;
  Flags f(kUsage, kAbout);
  f.text("--suite", "FILE", suite,
         "lines `<variant>;<FEN>;D1 <n>;D2 <n>;...`; prints each failing position with the expected and actual "
         "counts, then `N passed, M failed`; exit 1 if any failed");
  f.number("--max-depth", "D", max_depth, 1, 20, "with --suite: run only depths up to D");
  f.text("--rules", "NAME", rules,
         "rule profile (built-in name or a .yaml path); default: the line's variant, or sittuyin");
  f.text("--fen", "FEN", fen, "the position (Fairy-Stockfish FEN, hand in brackets); default: the start position");
  f.number("--depth", "D", depth, 1, 20, "depth, 1..20");
  f.set("--divide", divide, "one line `<move>: <count>` per legal move");
  if (!f.parse(args)) return 0;
  if (!suite.empty()) {
    if (!fen.empty() || depth || divide) throw Error("--suite does not combine with --fen, --depth or --divide");
    const PerftReport r = run_perft_suite(read_perft_suite(suite), rules, max_depth,
                                          [](const std::string& line) { std::printf("FAIL %s\n", line.c_str()); });
    std::fprintf(stderr, "time %.3f s, %.2f M nodes/s\n", r.seconds,
                 r.seconds > 0 ? double(r.nodes) / r.seconds / 1e6 : 0.0);
    std::printf("Nodes searched: %llu\n%d passed, %d failed\n", static_cast<unsigned long long>(r.nodes), r.passed,
                r.failed);
    return r.failed ? 1 : 0;
  }
  if (!depth) throw Error("give --depth D (or --suite FILE); see --help");
  return run_single(fen, depth, rules, divide);
}

}  // namespace sz::cli
