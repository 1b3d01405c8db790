#include "games/formation.h"

#include <algorithm>
#include <cctype>

#include "core/split.h"

namespace sz::games {

namespace {

int man_index(char letter) {
  const size_t i = kMen.find(letter);
  return i == std::string_view::npos ? -1 : int(i);
}

void sort_men(Formation& f) {
  std::sort(f.men.begin(), f.men.end(),
            [](const Drop& a, const Drop& b) { return a.man != b.man ? a.man < b.man : a.square < b.square; });
}

}  // namespace

Result<std::array<SidePlacement, 2>> men_of_fen(std::string_view fen) {
  std::array<SidePlacement, 2> sides;
  int rank = 7, file = 0;
  for (const char c : fen.substr(0, fen.find_first_of(" [")))
    if (c == '/') {
      --rank;
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      file += c - '0';
    } else {
      const int colour = std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
      const char letter = char(std::toupper(static_cast<unsigned char>(c)));
      if (rank < 0 || file > 7) return fail("FEN '" + std::string(fen) + "' has more than 64 squares");
      const int square = board_square(colour, rank * 8 + file++);
      if (letter == 'P')
        sides[size_t(colour)].pawns |= uint64_t(1) << square;
      else if (const int man = man_index(letter); man >= 0)
        sides[size_t(colour)].formation.men.push_back({man, square});
      else
        return fail("FEN '" + std::string(fen) + "' holds a man '" + std::string(1, c) + "' that is not placed");
    }
  for (SidePlacement& s : sides) sort_men(s.formation);
  return sides;
}

std::optional<Drop> parse_drop(std::string_view word) {
  const int man = word.size() == 4 && word[1] == '@' ? man_index(word[0]) : -1;
  const char file = man >= 0 ? word[2] : 0, rank = man >= 0 ? word[3] : 0;
  if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return std::nullopt;
  return Drop{man, (rank - '1') * 8 + (file - 'a')};
}

std::string square_name(int square) { return {char('a' + square % 8), char('1' + square / 8)}; }

std::string formation_text(const Formation& f) {
  std::string text;
  for (const Drop& d : f.men) {
    if (!text.empty()) text += ' ';
    text += kMen[size_t(d.man)];
    text += '@' + square_name(d.square);
  }
  return text;
}

Result<Formation> parse_formation(std::string_view text) {
  Formation f;
  std::array<int, kManTypes> count{};
  uint64_t taken = 0;
  std::string spaced(text);
  std::replace(spaced.begin(), spaced.end(), ',', ' ');
  for (const std::string_view word : split_words(spaced)) {
    const std::optional<Drop> drop = parse_drop(word);
    if (!drop) {
      return fail("'" + std::string(word) + "' is not a drop of a man (X@square, X one of " + std::string(kMen) + ")");
    }
    if (taken >> drop->square & 1) return fail("two men on " + square_name(drop->square));
    taken |= uint64_t(1) << drop->square;
    ++count[size_t(drop->man)];
    f.men.push_back(*drop);
  }
  for (int m = 0; m < kManTypes; ++m)
    if (count[size_t(m)] != kMenPerType[size_t(m)]) {
      return fail("a formation has " + std::to_string(kMenPerType[size_t(m)]) + " " + kManNames[size_t(m)] +
                  (kMenPerType[size_t(m)] > 1 ? "s" : "") + ", not " + std::to_string(count[size_t(m)]));
    }
  sort_men(f);
  return f;
}

}  // namespace sz::games
