#include "games/formation.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "core/split.h"
#include "game/game_state.h"
#include "games/registry.h"

namespace sz::games {

namespace {

int man_index(char letter) {
  const size_t i = kMen.find(letter);
  return i == std::string_view::npos ? -1 : int(i);
}

int parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return -1;
  return (text[1] - '1') * 8 + (text[0] - 'a');
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
    const int man = word.size() == 4 && word[1] == '@' ? man_index(word[0]) : -1;
    const int square = man >= 0 ? parse_square(word.substr(2)) : -1;
    if (square < 0) {
      return fail("'" + std::string(word) + "' is not a drop of a man (X@square, X one of " + std::string(kMen) + ")");
    }
    if (taken >> square & 1) return fail("two men on " + square_name(square));
    taken |= uint64_t(1) << square;
    ++count[size_t(man)];
    f.men.push_back({man, square});
  }
  for (int m = 0; m < kManTypes; ++m)
    if (count[size_t(m)] != kMenPerType[size_t(m)]) {
      return fail("a formation has " + std::to_string(kMenPerType[size_t(m)]) + " " + kManNames[size_t(m)] +
                  (kMenPerType[size_t(m)] > 1 ? "s" : "") + ", not " + std::to_string(count[size_t(m)]));
    }
  sort_men(f);
  return f;
}

Result<PlacedGame> replay_placement(std::string_view profile, std::string_view start_fen, std::string_view moves_text,
                                    int result) {
  auto started = new_game(profile, start_fen);
  if (!started) return fail("its start: " + started.error());
  std::unique_ptr<game::GameState> state = std::move(started).value();
  if (state->spec().game != "sittuyin") return fail("a " + state->spec().game + " game has no placement");
  if (state->phase() != game::Phase::Placement) return fail("it starts after placement");
  PlacedGame placed;
  placed.profile = std::string(profile);
  placed.result = result;
  const std::vector<std::string_view> moves = split_words(moves_text);
  size_t i = 0;
  for (; i < moves.size() && state->phase() == game::Phase::Placement; ++i) {
    const int colour = state->to_move() == game::Player::First ? 0 : 1;
    const auto action = state->parse_action(moves[i]);
    const int man = moves[i].size() == 4 && moves[i][1] == '@' ? man_index(moves[i][0]) : -1;
    if (!action || man < 0) {
      return fail("move " + std::to_string(i + 1) + " '" + std::string(moves[i]) +
                  "': " + (action ? "not a drop of a man" : action.error()));
    }
    placed.side[size_t(colour)].order.push_back({man, board_square(colour, parse_square(moves[i].substr(2)))});
    state->apply(*action);
  }
  if (state->phase() == game::Phase::Placement) {
    return fail("its moves end after " + std::to_string(i) + " placements, before placement is over");
  }
  placed.fen = state->to_string();
  auto men = men_of_fen(placed.fen);
  if (!men) return fail(men.error());
  for (size_t c = 0; c < 2; ++c) {
    placed.side[c].formation = std::move(men.value()[c].formation);
    placed.side[c].pawns = men.value()[c].pawns;
  }
  return placed;
}

}  // namespace sz::games
