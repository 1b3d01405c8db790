#include "eval/match_report.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "core/json_text.h"

namespace sz::eval {

namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  if (std::fabs(v) < 0.005) v = 0;  // no "-0.00"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

const char* verdict_name(Sprt::Verdict v) {
  return v == Sprt::Verdict::AcceptH0 ? "H0" : v == Sprt::Verdict::AcceptH1 ? "H1" : "continue";
}

std::string sprt_json(const MatchResult& r) {
  if (!r.sprt) return "null";
  const Sprt& s = *r.sprt;
  return "{\"elo0\": " + number(s.elo0) + ", \"elo1\": " + number(s.elo1) + ", \"alpha\": " + number(s.alpha) +
         ", \"beta\": " + number(s.beta) + ", \"llr\": " + number(r.llr) +
         ", \"lower_bound\": " + number(s.lower_bound()) + ", \"upper_bound\": " + number(s.upper_bound()) +
         ", \"verdict\": \"" + verdict_name(r.verdict) + "\"}";
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
  std::string out = "{\n  \"format\": \"sittuyin-zero match\",\n  \"version\": " + std::to_string(kMatchJsonVersion) +
                    ",\n  \"profile\": " + json_quoted(r.profile) +
                    ",\n  \"games\": {\"scheduled\": " + std::to_string(r.games_scheduled) +
                    ", \"played\": " + std::to_string(r.games_played) +
                    ", \"forfeits\": " + std::to_string(r.forfeits) +
                    ", \"stopped\": " + (r.stopped ? "true" : "false") + "},\n  \"seconds\": " + number(r.seconds) +
                    ",\n  \"players\": [";
  for (size_t i = 0; i < r.names.size(); ++i) {
    const Rating rating = i < r.ratings.size() ? r.ratings[i] : Rating{};
    out += std::string(i ? "," : "") + "\n    {\"name\": " + json_quoted(r.names[i]) +
           ", \"elo\": " + number(rating.elo) + ", \"lower\": " + number(rating.lower) +
           ", \"upper\": " + number(rating.upper) + "}";
  }
  out +=
      "\n  ],\n  \"anchor\": " + json_quoted(r.names.empty() ? "" : r.names[size_t(r.anchor)]) + ",\n  \"pairings\": [";
  for (size_t i = 0; i < r.pairings.size(); ++i) {
    const PairingResult& p = r.pairings[i];
    out += std::string(i ? "," : "") + "\n    {\"a\": " + json_quoted(r.names[size_t(p.a)]) +
           ", \"b\": " + json_quoted(r.names[size_t(p.b)]) + ", \"games\": " + std::to_string(p.score.games()) +
           ", \"wins\": " + std::to_string(p.score.wins) + ", \"draws\": " + std::to_string(p.score.draws) +
           ", \"losses\": " + std::to_string(p.score.losses) + ", \"score\": " + number(p.score.score()) +
           ", \"elo\": " + number(p.elo.elo) + ", \"lower\": " + number(p.elo.lower) +
           ", \"upper\": " + number(p.elo.upper) + "}";
  }
  return out + "\n  ],\n  \"sprt\": " + sprt_json(r) + "\n}\n";
}

}  // namespace sz::eval
