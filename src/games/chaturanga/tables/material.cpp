#include "games/chaturanga/tables/material.h"

#include <algorithm>

namespace sz::chaturanga::tables {

namespace {

constexpr PieceType kSittuyinMen[] = {Rook, Khon, Knight, Fers};
constexpr PieceType kShatranjMen[] = {Rook, Knight, Alfil, Fers};

// A man's strength rank in its game: 0 = strongest; NoPieceType after every man.
int rank_of(Game game, PieceType t) {
  const auto men = table_men(game);
  const auto it = std::find(men.begin(), men.end(), t);
  return it == men.end() ? int(men.size()) : int(it - men.begin());
}

// Sorts one side's men strongest first.
void sort_side(Game game, std::array<PieceType, kMaxOthers>& side) {
  std::sort(side.begin(), side.end(), [game](PieceType a, PieceType b) { return rank_of(game, a) < rank_of(game, b); });
}

// -1, 0, 1 as side a's men are weaker than, equal to or stronger than side b's.
int compare_sides(Game game, const std::array<PieceType, kMaxOthers>& a, const std::array<PieceType, kMaxOthers>& b) {
  for (int i = 0; i < kMaxOthers; ++i) {
    const int ra = rank_of(game, a[size_t(i)]), rb = rank_of(game, b[size_t(i)]);
    if (ra != rb) return ra < rb ? 1 : -1;
  }
  return 0;
}

}  // namespace

std::span<const PieceType> table_men(Game game) {
  if (game == Game::Shatranj) return kShatranjMen;
  return kSittuyinMen;
}

char man_letter(Game game, PieceType t) {
  switch (t) {
    case Rook:
      return 'R';
    case Knight:
      return 'N';
    case Khon:
      return 'S';
    case Alfil:
      return 'B';
    case Fers:
      return game == Game::Shatranj ? 'Q' : 'F';
    case King:
      return 'K';
    default:
      return '?';
  }
}

int Material::count(Color c) const {
  int n = 0;
  for (PieceType t : men[c]) n += t != NoPieceType;
  return n;
}

Material Material::swapped() const {
  Material m = *this;
  std::swap(m.men[White], m.men[Black]);
  return m;
}

bool Material::canonical() const {
  if (count(White) != count(Black)) return count(White) > count(Black);
  return compare_sides(game, men[White], men[Black]) >= 0;
}

bool Material::has(PieceType t) const {
  for (const auto& side : men)
    for (PieceType x : side)
      if (x == t) return true;
  return false;
}

std::string Material::name() const {
  std::string s;
  for (Color c : {White, Black}) {
    if (c == Black) s += 'v';
    s += 'K';
    for (PieceType t : men[c])
      if (t != NoPieceType) s += man_letter(game, t);
  }
  return s;
}

Result<Material> parse_material(std::string_view name, Game game) {
  Material m;
  m.game = game;
  const size_t v = name.find('v');
  if (v == std::string_view::npos || name.size() < 4 || name[0] != 'K' || v + 1 >= name.size() || name[v + 1] != 'K')
    return fail("material '" + std::string(name) + "': expected the form KRSvK (a K, the men, v, a K, the men)");
  for (Color c : {White, Black}) {
    const std::string_view side = c == White ? name.substr(1, v - 1) : name.substr(v + 2);
    if (int(side.size()) > kMaxOthers)
      return fail("material '" + std::string(name) + "': at most " + std::to_string(kMaxOthers) + " men per side");
    for (size_t i = 0; i < side.size(); ++i) {
      PieceType found = NoPieceType;
      for (PieceType t : table_men(game))
        if (man_letter(game, t) == side[i]) found = t;
      if (found == NoPieceType)
        return fail("material '" + std::string(name) + "': '" + std::string(1, side[i]) + "' is no " +
                    std::string(game_name(game)) + " man of the tables (" +
                    std::string(game == Game::Shatranj ? "R N B Q" : "R S N F") + ")");
      m.men[c][i] = found;
    }
    sort_side(game, m.men[c]);
  }
  if (m.total() > kMaxMen)
    return fail("material '" + std::string(name) + "': at most " + std::to_string(kMaxMen) + " men, kings included");
  return m;
}

std::vector<Material> all_materials(Game game, int max_men) {
  std::vector<Material> out;
  const auto men = table_men(game);
  for (int total = 3; total <= std::min(max_men, kMaxMen); ++total) {
    // Every multiset of total - 2 men split between the sides, kept once in canonical form.
    std::vector<Material> level;
    const int others = total - 2;
    for (int white = 0; white <= others; ++white) {
      std::vector<std::array<PieceType, kMaxOthers>> sides[2];
      for (int c = 0; c < 2; ++c) {
        const int n = c == 0 ? white : others - white;
        for (PieceType a : men)
          for (PieceType b : men) {
            std::array<PieceType, kMaxOthers> side{};
            if (n >= 1) side[0] = a;
            if (n >= 2) side[1] = b;
            sort_side(game, side);
            if (std::find(sides[c].begin(), sides[c].end(), side) == sides[c].end()) sides[c].push_back(side);
          }
      }
      for (const auto& w : sides[0])
        for (const auto& b : sides[1]) {
          const Material m = Material{game, {w, b}}.canonical_form();
          if (std::find(level.begin(), level.end(), m) == level.end()) level.push_back(m);
        }
    }
    out.insert(out.end(), level.begin(), level.end());
  }
  return out;
}

std::vector<Material> capture_materials(const Material& m) {
  std::vector<Material> out;
  for (Color c : {White, Black})
    for (int i = 0; i < kMaxOthers; ++i) {
      if (m.men[c][size_t(i)] == NoPieceType) continue;
      Material sub = m;
      sub.men[c][size_t(i)] = NoPieceType;
      sort_side(m.game, sub.men[c]);
      if (sub.total() < 3) continue;
      sub = sub.canonical_form();
      if (std::find(out.begin(), out.end(), sub) == out.end()) out.push_back(sub);
    }
  return out;
}

}  // namespace sz::chaturanga::tables
