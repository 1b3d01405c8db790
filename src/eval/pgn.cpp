#include "eval/pgn.h"

#include <ctime>
#include <sstream>

namespace sz::eval {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

void tag(std::ostringstream& out, const char* name, const std::string& value) {
  out << '[' << name << " \"" << escape(value) << "\"]\n";
}

// Movetext wrapped at 80 columns, as PGN's export format asks.
std::string movetext(const PgnGame& g) {
  std::string text, line;
  auto emit = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 80) {
      text += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + token;
  };
  int number = g.first_move_number;
  bool black = g.black_moves_first;
  for (size_t i = 0; i < g.san_moves.size(); ++i) {
    if (!black) emit(std::to_string(number) + ".");
    else if (i == 0) emit(std::to_string(number) + "...");
    emit(g.san_moves[i]);
    if (black) ++number;
    black = !black;
  }
  emit(g.result);
  return text + line + "\n";
}

}  // namespace

std::string to_pgn(const PgnGame& g) {
  std::ostringstream out;
  tag(out, "Event", g.event);
  tag(out, "Site", g.site);
  tag(out, "Date", g.date.empty() ? today_pgn_date() : g.date);
  tag(out, "Round", g.round.empty() ? "-" : g.round);
  tag(out, "White", g.white);
  tag(out, "Black", g.black);
  tag(out, "Result", g.result);
  if (!g.variant.empty()) tag(out, "Variant", g.variant);
  if (!g.profile.empty()) tag(out, "RuleProfile", g.profile);
  if (!g.start_fen.empty()) {
    tag(out, "SetUp", "1");
    tag(out, "FEN", g.start_fen);
  }
  if (!g.end_reason.empty()) tag(out, "EndReason", g.end_reason);
  out << '\n' << movetext(g) << '\n';
  return out.str();
}

std::string today_pgn_date() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y.%m.%d", &utc);
  return buffer;
}

}  // namespace sz::eval
