#include "games/chaturanga/tables/solver.h"

#include <algorithm>

#include "core/error.h"
#include "games/chaturanga/tables/successors.h"
#include "games/chaturanga/tables/unmoves.h"

namespace sz::chaturanga::tables {

namespace {

constexpr uint8_t kInvalid = 1, kTerminal = 2, kCannotLose = 4, kTerminalWin = 8, kTerminalLoss = 16;
constexpr uint16_t kNoCost = 0xFFFF;
constexpr uint64_t kProgressEvery = 1 << 20;

// What the forward pass learns of each entry.
struct Graph {
  std::vector<uint8_t> flags;
  std::vector<uint8_t> quiet;             // distinct quiet successors
  std::vector<uint16_t> capture_win[2];   // by metric: the cheapest winning capture's cost, or kNoCost
  std::vector<uint16_t> capture_loss[2];  // by metric: the dearest capture, when every capture loses
};

// Working values of a sweep, as two-byte codes (table.h): 0 unknown, 1 + d won, 0x8000 + d lost.
constexpr int kCodeWidth = 2;
uint16_t won_in(int plies) { return uint16_t(encode_distance({Verdict::Win, plies}, kCodeWidth)); }
uint16_t lost_in(int plies) { return uint16_t(encode_distance({Verdict::Loss, plies}, kCodeWidth)); }

void record(Graph& g, uint64_t e, const Successors& s, uint32_t* scratch) {
  if (s.terminal) {
    const Verdict v = s.terminal_value.verdict;
    g.flags[e] = kTerminal | (v == Verdict::Win ? kTerminalWin : v == Verdict::Loss ? kTerminalLoss : 0);
    return;
  }
  std::copy(s.quiet_entry, s.quiet_entry + s.quiet, scratch);
  std::sort(scratch, scratch + s.quiet);
  g.quiet[e] = uint8_t(std::unique(scratch, scratch + s.quiet) - scratch);
  for (int i = 0; i < s.captures; ++i) {
    const CaptureValue& c = s.capture[i];
    if (c.mover != Verdict::Loss) g.flags[e] |= kCannotLose;
    for (int m : {kDtz, kDtm}) {
      if (c.mover == Verdict::Win) g.capture_win[m][e] = std::min(g.capture_win[m][e], c.cost[m]);
      if (c.mover == Verdict::Loss) g.capture_loss[m][e] = std::max(g.capture_loss[m][e], c.cost[m]);
    }
  }
}

Graph scan(const Expander& expander, const SolveProgress& progress) {
  const uint64_t n = expander.layout().size();
  Graph g;
  g.flags.assign(n, 0);
  g.quiet.assign(n, 0);
  for (int m : {kDtz, kDtm}) {
    g.capture_win[m].assign(n, kNoCost);
    g.capture_loss[m].assign(n, 0);
  }
  Successors s;
  uint32_t scratch[kMaxMoves];
  for (uint64_t e = 0; e < n; ++e) {
    if (progress && e % kProgressEvery == 0) progress("scan", double(e) / double(n));
    if (!expander.expand(e, s)) {
      g.flags[e] = kInvalid;
      continue;
    }
    record(g, e, s, scratch);
  }
  return g;
}

// Positions by distance, in layers; a capture's cost can place a position layers ahead.
class Buckets {
 public:
  void push(int plies, uint32_t e) {
    if (plies > kMaxPlies2) throw Error("endgame tables: a distance beyond " + std::to_string(kMaxPlies2) + " plies");
    if (size_t(plies) >= layers_.size()) layers_.resize(size_t(plies) + 1);
    layers_[size_t(plies)].push_back(e);
  }
  size_t size() const { return layers_.size(); }
  std::vector<uint32_t> take(size_t layer) { return std::move(layers_[layer]); }

 private:
  std::vector<std::vector<uint32_t>> layers_;
};

// The first layer: what the rules decide now, wins by capture, losses by every capture.
void seed(const Graph& g, Metric metric, std::vector<uint16_t>& value, Buckets& buckets) {
  for (uint64_t e = 0; e < g.flags.size(); ++e) {
    const uint8_t f = g.flags[e];
    if (f & kInvalid) continue;
    if (f & kTerminal) {
      if (f & (kTerminalWin | kTerminalLoss)) {
        value[e] = f & kTerminalWin ? won_in(0) : lost_in(0);
        buckets.push(0, uint32_t(e));
      }
    } else if (g.capture_win[metric][e] != kNoCost) {
      const int plies = 1 + g.capture_win[metric][e];
      value[e] = won_in(plies);
      buckets.push(plies, uint32_t(e));
    } else if (!(f & kCannotLose) && g.quiet[e] == 0) {
      const int plies = 1 + g.capture_loss[metric][e];
      value[e] = lost_in(plies);
      buckets.push(plies, uint32_t(e));
    }
  }
}

std::vector<uint16_t> sweep(const Layout& layout, const Graph& g, Metric metric, const SolveProgress& progress) {
  const uint64_t n = layout.size();
  std::vector<uint16_t> value(n, 0);
  std::vector<uint8_t> left = g.quiet, done(n, 0);
  Buckets buckets;
  seed(g, metric, value, buckets);
  uint32_t preds[kMaxPredecessors];
  uint64_t settled = 0;
  const char* phase = metric == kDtz ? "dtz" : "dtm";
  for (size_t k = 0; k < buckets.size(); ++k) {
    for (const uint32_t e : buckets.take(k)) {
      if (done[e] || decode_distance(value[e], kCodeWidth).plies != int(k)) continue;
      done[e] = 1;
      if (progress && ++settled % kProgressEvery == 0) progress(phase, double(settled) / double(n));
      const bool lost = decode_distance(value[e], kCodeWidth).verdict == Verdict::Loss;
      const int count = predecessors(layout, e, preds);
      for (int i = 0; i < count; ++i) {
        const uint32_t p = preds[i];
        if (done[p] || (g.flags[p] & (kInvalid | kTerminal))) continue;
        if (lost) {
          const Distance now = decode_distance(value[p], kCodeWidth);
          if (now.verdict != Verdict::Win || now.plies > int(k) + 1) {
            value[p] = won_in(int(k) + 1);
            buckets.push(int(k) + 1, p);
          }
        } else if (!(g.flags[p] & kCannotLose)) {
          if (left[p] == 0)
            throw Error("endgame tables: retrograde count went below zero (" + layout.material().name() + ")");
          if (--left[p] > 0) continue;
          const int plies = 1 + std::max(int(k), int(g.capture_loss[metric][p]));
          value[p] = lost_in(plies);
          buckets.push(plies, p);
        }
      }
    }
  }
  return value;
}

// The narrowest codes that hold `value`.
void encode(const std::vector<uint16_t>& value, std::vector<uint8_t>& out, int& width) {
  int max_win = 0, max_loss = 0;
  for (const uint16_t v : value) {
    const Distance d = decode_distance(v, kCodeWidth);
    if (d.verdict == Verdict::Win) max_win = std::max(max_win, d.plies);
    if (d.verdict == Verdict::Loss) max_loss = std::max(max_loss, d.plies);
  }
  width = width_for(max_win, max_loss);
  out.resize(value.size() * size_t(width));
  for (size_t i = 0; i < value.size(); ++i) {
    const uint32_t code = encode_distance(decode_distance(value[i], kCodeWidth), width);
    out[i * size_t(width)] = uint8_t(code);
    if (width == 2) out[i * 2 + 1] = uint8_t(code >> 8);
  }
}

}  // namespace

TableCodes solve_table(const RuleProfile& rules, const Material& material, const TableSet& smaller,
                       const SolveProgress& progress) {
  const Expander expander(rules, material, smaller);
  const Graph graph = scan(expander, progress);
  TableCodes codes;
  const std::vector<uint16_t> dtz = sweep(expander.layout(), graph, kDtz, progress);
  encode(dtz, codes.dtz, codes.dtz_width);
  // The metrics differ only where a capture meets fresh clocks.
  if (graph.capture_win[kDtz] != graph.capture_win[kDtm] || graph.capture_loss[kDtz] != graph.capture_loss[kDtm]) {
    const std::vector<uint16_t> dtm = sweep(expander.layout(), graph, kDtm, progress);
    if (dtm != dtz) encode(dtm, codes.dtm, codes.dtm_width);
  }
  if (progress) progress("done", 1.0);
  return codes;
}

}  // namespace sz::chaturanga::tables
