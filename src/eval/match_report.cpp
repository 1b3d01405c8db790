#include "eval/match_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "core/json_writer.h"

namespace sz::eval {

namespace {

// A figure with two decimals: no "-0.00" (non-finite ones the writer writes as null).
double figure(double v) { return std::fabs(v) < 0.005 ? 0 : v; }
constexpr const char* kFigure = "%.2f";

const char* verdict_name(Sprt::Verdict v) {
  return v == Sprt::Verdict::AcceptH0 ? "H0" : v == Sprt::Verdict::AcceptH1 ? "H1" : "continue";
}

void add_sprt(JsonWriter& w, const MatchResult& r) {
  if (!r.sprt) {
    w.raw("sprt", "null");
    return;
  }
  const Sprt& s = *r.sprt;
  w.object("sprt", JsonWriter::Layout::Inline)
      .add("elo0", figure(s.elo0), kFigure)
      .add("elo1", figure(s.elo1), kFigure)
      .add("alpha", figure(s.alpha), kFigure)
      .add("beta", figure(s.beta), kFigure)
      .add("llr", figure(r.llr), kFigure)
      .add("lower_bound", figure(s.lower_bound()), kFigure)
      .add("upper_bound", figure(s.upper_bound()), kFigure)
      .add("verdict", verdict_name(r.verdict))
      .close();
}

}  // namespace

std::string format_game_line(const GameRecord& g, const MatchResult& m) {
  char line[512];
  std::snprintf(line, sizeof line, "game %d/%d: %s - %s %s (%s, %zu plies)%s%s\n", m.games_played, m.games_scheduled,
                m.names[size_t(g.white)].c_str(), m.names[size_t(g.black)].c_str(), game::pgn_result(g.result),
                g.reason.c_str(), g.uci_moves.size(), g.error.empty() ? "" : ": ", g.error.c_str());
  return line;
}

void print_game_line(const GameRecord& g, const MatchResult& m) { std::fputs(format_game_line(g, m).c_str(), stderr); }

std::string format_match_table(const MatchResult& r) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-32s %-32s %6s %6s %5s %5s %5s %8s  %s\n", "player A", "player B", "games",
                "score", "W", "D", "L", "Elo(A-B)", "95% interval");
  out += line;
  for (const PairingResult& p : r.pairings) {
    const auto z = [](double v) { return std::fabs(v) < 0.05 ? 0.0 : v; };  // no "-0.0"
    std::snprintf(line, sizeof line, "%-32.32s %-32.32s %6d %6.3f %5d %5d %5d %8.1f  [%.1f, %.1f]\n",
                  r.names[size_t(p.a)].c_str(), r.names[size_t(p.b)].c_str(), p.score.games(), p.score.score(),
                  p.score.wins, p.score.draws, p.score.losses, z(p.elo.elo), z(p.elo.lower), z(p.elo.upper));
    out += line;
  }
  if (r.names.size() > 2 && !r.ratings.empty()) {
    out += "\nBradley-Terry ratings (" + r.names[size_t(r.anchor)] + " = 0):\n";
    for (size_t i = 0; i < r.names.size(); ++i) {
      std::snprintf(line, sizeof line, "  %-32.32s %8.1f  [%.1f, %.1f]\n", r.names[i].c_str(), r.ratings[i].elo,
                    r.ratings[i].lower, r.ratings[i].upper);
      out += line;
    }
  }
  if (std::any_of(r.moves.begin(), r.moves.end(), [](int n) { return n > 0; })) {
    out += "\nwall time a move (the match's own: equal only with no more games at once than cores):\n";
    for (size_t i = 0; i < r.names.size() && i < r.moves.size(); ++i) {
      const double ms = r.moves[i] > 0 ? 1000 * r.think_seconds[i] / r.moves[i] : 0;
      std::snprintf(line, sizeof line, "  %-32.32s %10.2f ms over %d moves\n", r.names[i].c_str(), ms, r.moves[i]);
      out += line;
    }
  }
  if (r.sprt) {
    std::snprintf(line, sizeof line, "\nSPRT elo0=%.1f elo1=%.1f: LLR %.3f in [%.3f, %.3f] -> %s\n", r.sprt->elo0,
                  r.sprt->elo1, r.llr, r.sprt->lower_bound(), r.sprt->upper_bound(),
                  r.verdict == Sprt::Verdict::AcceptH1   ? "H1 accepted"
                  : r.verdict == Sprt::Verdict::AcceptH0 ? "H0 accepted"
                                                         : "undecided");
    out += line;
  }
  std::snprintf(line, sizeof line, "\n%d of %d games played (%d forfeits) in %.1f s%s\n", r.games_played,
                r.games_scheduled, r.forfeits, r.seconds, r.stopped ? ", stopped early" : "");
  return out + line;
}

std::string match_json(const MatchResult& r) {
  using Layout = JsonWriter::Layout;
  JsonWriter w;
  w.object()
      .add("format", "sittuyin-zero match")
      .add("version", kMatchJsonVersion)
      .add("profile", r.profile)
      .object("games", Layout::Inline)
      .add("scheduled", r.games_scheduled)
      .add("played", r.games_played)
      .add("forfeits", r.forfeits)
      .add("stopped", r.stopped)
      .close()
      .add("seconds", figure(r.seconds), kFigure)
      .array("players");
  for (size_t i = 0; i < r.names.size(); ++i) {
    const Rating rating = i < r.ratings.size() ? r.ratings[i] : Rating{};
    w.object(Layout::Inline)
        .add("name", r.names[i])
        .add("elo", figure(rating.elo), kFigure)
        .add("lower", figure(rating.lower), kFigure)
        .add("upper", figure(rating.upper), kFigure)
        .add("moves", i < r.moves.size() ? r.moves[i] : 0)
        .add("think_seconds", i < r.think_seconds.size() ? r.think_seconds[i] : 0.0, "%.3f")
        .close();
  }
  w.close().add("anchor", r.names.empty() ? "" : r.names[size_t(r.anchor)]).array("pairings");
  for (const PairingResult& p : r.pairings) {
    w.object(Layout::Inline)
        .add("a", r.names[size_t(p.a)])
        .add("b", r.names[size_t(p.b)])
        .add("games", p.score.games())
        .add("wins", p.score.wins)
        .add("draws", p.score.draws)
        .add("losses", p.score.losses)
        .add("score", figure(p.score.score()), kFigure)
        .add("elo", figure(p.elo.elo), kFigure)
        .add("lower", figure(p.elo.lower), kFigure)
        .add("upper", figure(p.elo.upper), kFigure)
        .close();
  }
  w.close();
  add_sprt(w, r);
  return w.close().str() + "\n";
}

}  // namespace sz::eval
