#include "games/chaturanga/tables/verify.h"

#include <algorithm>

#include "games/chaturanga/tables/successors.h"

namespace sz::chaturanga::tables {

namespace {

Distance metric_of(const Entry& e, Metric m) { return m == kDtz ? e.dtz : e.dtm; }

// The value the successors give in metric m.
Distance derive(const Table& table, const Successors& s, Metric m) {
  if (s.terminal) return s.terminal_value;
  int fastest_win = -1, slowest_loss = -1;
  bool all_lose = true;
  const auto consider = [&](Verdict mover, int cost) {
    if (mover == Verdict::Win && (fastest_win < 0 || cost < fastest_win)) fastest_win = cost;
    if (mover == Verdict::Loss) slowest_loss = std::max(slowest_loss, cost);
    if (mover != Verdict::Loss) all_lose = false;
  };
  for (int i = 0; i < s.quiet; ++i) {
    const Distance child = metric_of(table.entry(s.quiet_entry[i]), m);
    consider(Verdict(-int(child.verdict)), child.plies);
  }
  for (int i = 0; i < s.captures; ++i) consider(s.capture[i].mover, s.capture[i].cost[m]);
  if (fastest_win >= 0) return {Verdict::Win, 1 + fastest_win};
  if (all_lose) return {Verdict::Loss, 1 + slowest_loss};
  return {};
}

std::string describe_mismatch(const Table& table, uint64_t e, Metric m, Distance stored, Distance derived) {
  const auto text = [](Distance d) {
    return d.verdict == Verdict::Draw ? std::string("draw")
                                      : (d.verdict == Verdict::Win ? "win " : "loss ") + std::to_string(d.plies);
  };
  return table.material().name() + " entry " + std::to_string(e) + (m == kDtz ? " dtz" : " dtm") + ": stored " +
         text(stored) + ", successors give " + text(derived);
}

}  // namespace

VerifyReport verify_table(const RuleProfile& rules, const Table& table, const TableSet& set,
                          const SolveProgress& progress) {
  const Expander expander(rules, table.material(), set);
  VerifyReport report;
  Successors s;
  const uint64_t n = table.layout().size();
  for (uint64_t e = 0; e < n; ++e) {
    if (progress && e % (1 << 20) == 0) progress("verify", double(e) / double(n));
    if (!expander.expand(e, s)) continue;
    ++report.positions;
    const Entry stored = table.entry(e);
    report.wins += stored.dtz.verdict == Verdict::Win;
    report.losses += stored.dtz.verdict == Verdict::Loss;
    report.longest_dtz = std::max(report.longest_dtz, stored.dtz.plies);
    report.longest_dtm = std::max(report.longest_dtm, stored.dtm.plies);
    for (Metric m : {kDtz, kDtm}) {
      const Distance derived = derive(table, s, m);
      if (derived == metric_of(stored, m)) continue;
      if (report.mismatches++ == 0) report.first = describe_mismatch(table, e, m, metric_of(stored, m), derived);
      break;
    }
  }
  return report;
}

}  // namespace sz::chaturanga::tables
