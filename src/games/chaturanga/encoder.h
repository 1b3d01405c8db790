#pragma once
// Network input of the chaturanga family (version 1, docs/ENCODING.md), from the side to
// move's view: Sittuyin rotates the board 180 degrees for Black (which maps Black's pawn set-up
// onto White's), Shatranj flips it vertically. A position and its colour-mirrored twin encode
// identically.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "games/chaturanga/position.h"

namespace sz::chaturanga {

inline constexpr int kEncoderVersion = 1;
inline constexpr int kBinaryPlanes = 12;  // own P N E F R K, then the opponent's (E = khon or alfil)
inline constexpr int kScalarFeatures = 32;

// What each input means, in order, for people and game clients (the bundle's model.json;
// docs/ENCODING.md has the same in a table). Kept beside encode() so that the two change together.
std::vector<std::string> plane_meanings(Game game);
std::vector<std::string> scalar_meanings();

// `repetitions`: how often the position occurred before in the game (0, 1 or 2).
void encode(const Position& pos, int repetitions, std::span<uint64_t, kBinaryPlanes> planes,
            std::span<float, kScalarFeatures> scalars);

}  // namespace sz::chaturanga
