#pragma once
// Network input of the chaturanga family (version 1, docs/ENCODING.md), from the side to
// move's view: Sittuyin rotates the board 180 degrees for Black (which maps Black's pawn set-up
// onto White's), Shatranj flips it vertically. A position and its colour-mirrored twin encode
// identically.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "games/chaturanga/position.h"

namespace sz::chaturanga {

inline constexpr int kEncoderVersion = 1;
inline constexpr int kBinaryPlanes = 12;  // own P N E F R K, then the opponent's (E = khon or alfil)
inline constexpr int kScalarFeatures = 32;

// A man's value in pawns: P 1, N 3, khon or alfil 2.5, met or fers 1.5, R 5, K 0. State::material
// counts with it, and the planes below carry it to the trainer (GameSpec::plane_material).
constexpr float man_value(PieceType t) {
  switch (t) {
    case Pawn:
      return 1.0f;
    case Knight:
      return 3.0f;
    case Khon:
    case Alfil:
      return 2.5f;
    case Fers:
      return 1.5f;
    case Rook:
      return 5.0f;
    default:
      return 0.0f;
  }
}
// man_value of each binary plane's men, the opponent's negative (GameSpec::plane_material).
inline constexpr std::array<float, kBinaryPlanes> kPlaneMaterial = [] {
  constexpr PieceType kOwnPlanes[6] = {Pawn, Knight, Khon /* or alfil: the same value */, Fers, Rook, King};
  std::array<float, kBinaryPlanes> values{};
  for (size_t i = 0; i < 6; ++i) values[i] = man_value(kOwnPlanes[i]), values[i + 6] = -man_value(kOwnPlanes[i]);
  return values;
}();

// What each input means, in order, for people and game clients (the bundle's model.json;
// docs/ENCODING.md has the same in a table). Kept beside encode() so that the two change together.
std::vector<std::string> plane_meanings(Game game);
std::vector<std::string> scalar_meanings();

// `repetitions`: how often the position occurred before in the game (0, 1 or 2).
void encode(const Position& pos, int repetitions, std::span<uint64_t, kBinaryPlanes> planes,
            std::span<float, kScalarFeatures> scalars);

}  // namespace sz::chaturanga
