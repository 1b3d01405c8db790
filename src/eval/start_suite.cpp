#include "eval/start_suite.h"

#include <fstream>

#include "games/registry.h"

namespace sz::eval {

namespace {

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1));
}

}  // namespace

Result<std::vector<std::string>> read_start_suite(const std::string& path, std::string_view profile, int limit) {
  std::ifstream in(path);
  if (!in) return fail("start suite '" + path + "': cannot open it");
  std::vector<std::string> fens;
  std::string line;
  for (int number = 1; std::getline(in, line) && (limit <= 0 || int(fens.size()) < limit); ++number) {
    const std::string fen = trim(std::string_view(line).substr(0, line.find(';')));
    if (fen.empty() || fen[0] == '#') continue;
    auto state = games::new_game(profile, fen);
    if (!state) return fail(path + ":" + std::to_string(number) + ": " + state.error());
    if ((*state)->outcome().over())
      return fail(path + ":" + std::to_string(number) + ": the game is already over there");
    fens.push_back(fen);
  }
  if (fens.empty()) return fail("start suite '" + path + "' holds no position");
  return fens;
}

}  // namespace sz::eval
