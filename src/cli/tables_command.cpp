// `sittuyin-zero tables`: endgame tables (docs/TABLES.md): build, probe and verify.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/error.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/tables/ending_rules.h"
#include "games/chaturanga/tables/generator.h"
#include "games/chaturanga/tables/probe.h"
#include "games/chaturanga/tables/table_dir.h"
#include "games/chaturanga/tables/verify.h"

namespace sz::cli {

namespace {

using namespace chaturanga;

constexpr const char* kUsage =
    R"(sittuyin-zero tables build [--rules PROFILE ...] [--men SPEC] --out DIR [--threads N] [--force]
       sittuyin-zero tables probe [--rules PROFILE] [--dir DIR] --fen FEN
       sittuyin-zero tables verify [--rules PROFILE ...] [--men SPEC] [--dir DIR])";

constexpr const char* kAbout =
    R"(Endgame tables (docs/TABLES.md): exact values of every pawnless position of up to four men (two
kings and two more), under a profile's ending rules: the counting rule, the n-move rule,
stalemate and the bare king as the profile has them. Profiles whose ending rules agree share
one folder of tables, DIR/<game>-<fingerprint>/.

  build    retrograde analysis, one table per worker thread, each file written atomically; a
           table already in DIR and sound is kept (--force rebuilds it). Prints a line per table.
  probe    prints the verdict for the side to move on the first line (`win mate 12`, `draw`,
           `loss mate 7`: moves, as UCI counts them; `>=` where the clocks forbid the fastest
           mate), then the best moves, then every move's value; exit status 3 when the position
           is outside the tables.
  verify   re-derives every entry of every table from its successors; exit status 1 when one
           differs.

)";

struct Options {
  std::vector<std::string> rules;
  std::string men = "4", dir, fen;
  int threads = 2;
  bool force = false;
};

Flags tables_flags(Options& o) {
  Flags f(kUsage, kAbout);
  f.texts("--rules", "PROFILE", o.rules,
          "a rule profile (name or YAML path), repeatable; default: every built-in profile (probe: sittuyin). The "
          "FEN's counting fields and half-move clock count.");
  f.text("--men", "SPEC", o.men,
         "3 or 4 (every table up to that many men, the default 4), or materials such as KRvK,KRSvK (the tables "
         "they need come too)");
  f.text("--out/--dir", "DIR", o.dir, "the tables directory (default for probe and verify: tables)");
  f.number("--threads", "N", o.threads, 1, 256, "worker threads for build (default 2)");
  f.set("--force", o.force, "build: rebuild the tables already in DIR");
  f.text("--fen", "FEN", o.fen, "the position, a Fairy-Stockfish FEN");
  return f;
}

// The profiles asked for, or every built-in one.
std::vector<const RuleProfile*> profiles_of(const Options& o) {
  std::vector<const RuleProfile*> out;
  const std::vector<std::string> names = o.rules.empty() ? builtin_rule_profiles() : o.rules;
  for (const std::string& name : names) out.push_back(rule_profile(name).take_or_throw("--rules"));
  return out;
}

// The materials --men names, for each game of the profiles. A listed material counts for each
// game whose letters it is written in (KRSvK is Sittuyin's, KRBvK Shatranj's, KRvK both's).
std::vector<tables::Material> materials_of(const std::string& spec, const std::vector<const RuleProfile*>& profiles) {
  std::vector<Game> games;
  for (const RuleProfile* p : profiles)
    if (std::find(games.begin(), games.end(), p->game) == games.end()) games.push_back(p->game);
  std::vector<tables::Material> out;
  if (spec == "3" || spec == "4") {
    for (Game game : games)
      for (const auto& m : tables::all_materials(game, spec[0] - '0')) out.push_back(m);
    return out;
  }
  for (size_t start = 0; start <= spec.size();) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string name = spec.substr(start, end - start);
    std::string error;
    for (Game game : games) {
      const auto m = tables::parse_material(name, game);
      if (m)
        out.push_back(m->canonical_form());
      else if (error.empty())
        error = m.error();
    }
    if (out.empty() || !(out.back().name() == name || out.back().swapped().name() == name))
      throw Error("--men: " + error + " (give 3, 4 or materials such as KRvK,KRSvK)");
    start = end + 1;
  }
  return out;
}

int build(const Options& o) {
  if (o.dir.empty()) throw Error("tables build needs --out DIR (see --help)");
  tables::BuildRequest request;
  request.profiles = profiles_of(o);
  // Every built-in profile sharing a requested set of rules is named in its RULES.txt.
  for (const std::string& name : builtin_rule_profiles()) {
    const RuleProfile* p = rule_profile(name).take_or_throw(name);
    bool shares = false, listed = false;
    for (const RuleProfile* q : request.profiles) {
      shares |= tables::ending_rules(*q) == tables::ending_rules(*p);
      listed |= q == p;
    }
    if (shares && !listed) request.profiles.push_back(p);
  }
  request.materials = materials_of(o.men, request.profiles);
  request.out = o.dir;
  request.threads = o.threads;
  request.force = o.force;
  const tables::BuildReport report = tables::build_tables(request, [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  });
  int kept = 0;
  for (const auto& t : report.tables) kept += t.kept;
  std::printf("%zu tables (%d kept) in %s: %.1f MB, %.1f s\n", report.tables.size(), kept, o.dir.c_str(),
              double(report.bytes) / 1e6, report.seconds);
  return 0;
}

// "win mate 12", "loss mate 7", "draw": the distance in moves as UCI counts them.
std::string verdict_line(const game::TableResult& r) {
  if (r.verdict == game::TableVerdict::Draw) return "draw";
  const std::string moves = std::to_string((r.plies_to_end + 1) / 2);
  return std::string(r.verdict == game::TableVerdict::Win ? "win" : "loss") + " mate " + (r.plies_exact ? "" : ">=") +
         moves;
}

int probe(const Options& o) {
  if (o.fen.empty()) throw Error("tables probe needs --fen FEN (see --help)");
  if (o.rules.size() > 1) throw Error("tables probe takes one --rules");
  const RuleProfile& rules = *rule_profile(o.rules.empty() ? "sittuyin" : o.rules[0]).take_or_throw("--rules");
  const Position pos = Position::from_fen(o.fen, rules).take_or_throw("--fen");
  const std::string dir = o.dir.empty() ? "tables" : o.dir;
  const auto set = tables::load_table_set(dir, tables::ending_rules(rules));
  const auto result = set ? tables::probe(*set, pos) : std::nullopt;
  tables::RatedMove moves[kMaxMoves];
  const int n = result ? tables::rate_moves(*set, pos, moves) : -1;
  if (!result || n < 0) {
    std::printf("outside the tables (%s)\n", set ? "no table of this material" : ("none in " + dir).c_str());
    return 3;
  }
  std::printf("%s\n", verdict_line(*result).c_str());
  const int best = tables::order_best_first(moves, n);
  std::printf("best moves:");
  for (int i = 0; i < best; ++i) std::printf(" %s", to_uci(moves[i].move, rules.game).c_str());
  std::printf("\nplies: %d to the end, %d to the next capture or the end (DTZ); the clocks allow %d\n",
              result->plies_to_end, result->plies_to_reset, result->clock_plies);
  for (int i = 0; i < n; ++i)
    std::printf("  %-7s %s\n", to_uci(moves[i].move, rules.game).c_str(), verdict_line(moves[i].result).c_str());
  return 0;
}

int verify(const Options& o) {
  const std::string dir = o.dir.empty() ? "tables" : o.dir;
  std::vector<const RuleProfile*> profiles = profiles_of(o);
  const std::vector<tables::Material> wanted = materials_of(o.men, profiles);
  std::vector<tables::EndingRules> done;
  uint64_t tables_checked = 0, mismatches = 0;
  for (const RuleProfile* p : profiles) {
    const tables::EndingRules rules = tables::ending_rules(*p);
    if (std::find(done.begin(), done.end(), rules) != done.end()) continue;
    done.push_back(rules);
    const auto set = tables::load_table_set(dir, rules);
    if (!set) continue;
    for (const tables::Table* t : set->tables()) {
      if (std::find(wanted.begin(), wanted.end(), t->material()) == wanted.end()) continue;
      const tables::VerifyReport r = tables::verify_table(*p, *t, *set);
      std::printf(
          "%s/%s: %llu positions (%.1f%% won, %.1f%% lost for the side to move; longest DTZ %d, DTM %d "
          "plies), %s\n",
          tables::rules_folder(rules).c_str(), t->material().name().c_str(),
          static_cast<unsigned long long>(r.positions), 100.0 * double(r.wins) / double(r.positions),
          100.0 * double(r.losses) / double(r.positions), r.longest_dtz, r.longest_dtm,
          r.mismatches ? (std::to_string(r.mismatches) + " differ; first: " + r.first).c_str() : "ok");
      std::fflush(stdout);
      ++tables_checked;
      mismatches += r.mismatches;
    }
  }
  std::printf("%llu tables verified, %llu entries differ\n", static_cast<unsigned long long>(tables_checked),
              static_cast<unsigned long long>(mismatches));
  if (tables_checked == 0) throw Error("no tables to verify in " + dir);
  return mismatches ? 1 : 0;
}

}  // namespace

int tables_command(Args args) {
  Options o;
  Flags flags = tables_flags(o);
  if (args.empty()) {
    std::fputs(flags.help().c_str(), stderr);
    return 2;
  }
  if (wants_help(args.first(1))) {
    std::fputs(flags.help().c_str(), stdout);
    return 0;
  }
  if (!flags.parse(args.subspan(1))) return 0;
  if (args[0] == "build") return build(o);
  if (args[0] == "probe") return probe(o);
  if (args[0] == "verify") return verify(o);
  throw Error("unknown tables command '" + args[0] + "' (build, probe or verify; see --help)");
}

}  // namespace sz::cli
