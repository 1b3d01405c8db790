#include "cli/perft_suite.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/parse_number.h"
#include "core/shown_text.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/rule_profiles.h"

namespace sz::cli {

std::vector<PerftCase> read_perft_suite(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error("perft suite '" + path + "' is a directory, not a file");
  std::ifstream in(path);
  if (!in) throw Error("cannot open perft suite '" + path + "'");
  std::vector<PerftCase> cases;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    auto bad = [&](const std::string& what) { return Error(path + ":" + std::to_string(line) + ": " + what); };
    PerftCase c;
    c.line = line;
    size_t start = 0;
    for (int field = 0; start <= text.size(); ++field) {
      size_t end = text.find(';', start);
      if (end == std::string::npos) end = text.size();
      const std::string part = text.substr(start, end - start);
      start = end + 1;
      if (field == 0)
        c.variant = part;
      else if (field == 1)
        c.fen = part;
      else {
        uint64_t n = 0;
        const std::string want = "D" + std::to_string(field - 1) + " ";
        if (part.rfind(want, 0) != 0 || !parse_number(std::string_view(part).substr(want.size()), n))
          throw bad("field '" + shown_text(part) + "' should be '" + want + "<count>'");
        c.expected.push_back(n);
      }
    }
    if (c.variant.empty() || c.fen.empty() || c.expected.empty()) throw bad("expected <variant>;<FEN>;D1 <n>;...");
    cases.push_back(std::move(c));
  }
  if (in.bad()) throw Error("cannot read perft suite '" + path + "'");
  // "0 passed, 0 failed" would read as success.
  if (cases.empty()) throw Error("perft suite '" + path + "' holds no positions");
  return cases;
}

PerftReport run_perft_suite(const std::vector<PerftCase>& cases, const std::string& rules_override, int max_depth,
                            const std::function<void(const std::string&)>& on_failure) {
  PerftReport report;
  const auto start = std::chrono::steady_clock::now();
  for (const PerftCase& c : cases) {
    const auto profile = chaturanga::rule_profile(rules_override.empty() ? c.variant : rules_override);
    if (!profile) throw Error("line " + std::to_string(c.line) + ": " + profile.error());
    const auto pos = chaturanga::Position::from_fen(c.fen, **profile);
    if (!pos) {
      ++report.failed;
      on_failure("line " + std::to_string(c.line) + ": " + pos.error());
      continue;
    }
    std::string mismatches;
    const int depths = max_depth > 0 ? std::min<int>(max_depth, int(c.expected.size())) : int(c.expected.size());
    for (int d = 1; d <= depths; ++d) {
      const uint64_t n = chaturanga::perft(*pos, d);
      report.nodes += n;
      if (n != c.expected[d - 1])
        mismatches +=
            " D" + std::to_string(d) + " expected " + std::to_string(c.expected[d - 1]) + " got " + std::to_string(n);
    }
    if (mismatches.empty())
      ++report.passed;
    else {
      ++report.failed;
      on_failure("line " + std::to_string(c.line) + ": " + c.variant + ";" + c.fen + ":" + mismatches);
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace sz::cli
