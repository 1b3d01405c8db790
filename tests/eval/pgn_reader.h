#pragma once
// A small PGN reader for the tests: tags, SAN tokens (move numbers dropped) and the result token.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sz::eval::test {

struct ParsedGame {
  std::map<std::string, std::string> tags;
  std::vector<std::string> sans;
  std::string result;  // the movetext's last token
};

inline bool is_move_number(const std::string& t) {
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  return i > 0 && i < t.size() && t.find_first_not_of('.', i) == std::string::npos;
}

inline std::vector<ParsedGame> read_pgn(const std::string& path) {
  std::ifstream in(path);
  std::vector<ParsedGame> games;
  std::string line;
  bool in_moves = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '[') {
      if (in_moves || games.empty()) games.emplace_back(), in_moves = false;
      const size_t space = line.find(' ');
      const size_t q1 = line.find('"'), q2 = line.rfind('"');
      games.back().tags[line.substr(1, space - 1)] = line.substr(q1 + 1, q2 - q1 - 1);
    } else if (!line.empty() && !games.empty()) {
      in_moves = true;
      std::istringstream tokens(line);
      for (std::string t; tokens >> t;)
        if (!is_move_number(t)) games.back().sans.push_back(t);
    }
  }
  for (ParsedGame& g : games)
    if (!g.sans.empty()) g.result = g.sans.back(), g.sans.pop_back();
  return games;
}

}  // namespace sz::eval::test
