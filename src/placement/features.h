#pragma once
// Features of a formation, in the placing side's frame (formation.h): where the king stands and
// what guards it, where the rooks and knights went, how symmetric the men are. Every feature is a
// small whole number, so results can be tabled by value; `in_fit` marks those the logistic fit of
// the result uses (the others are categories: a file, two files).
#include <array>
#include <cstdint>
#include <string>

#include "games/formation.h"

namespace sz::placement {

// The formations' vocabulary (games/formation.h), used throughout this module.
using games::board_square;
using games::Drop;
using games::Formation;
using games::formation_text;
using games::kManNames;
using games::kManTypes;
using games::kMen;
using games::kMenPerSide;
using games::kMenPerType;
using games::men_of_fen;
using games::parse_formation;
using games::PlacedGame;
using games::SidePlacement;
using games::square_name;

enum FeatureId : int {
  kKingFile,            // 0 = a .. 7 = h
  kKingRank,            // 1 = the back rank
  kKingRightWing,       // 1: files e-h (the wing of the advanced pawns e4-h4), 0: a-d
  kKingOnEdge,          // 1: the a- or h-file
  kKingCentreDistance,  // king steps to the nearest of d4, e4, d5, e5 (0-3 files or ranks away)
  kKhonsBesideKing,     // khons one king step from the king, 0-2
  kMetBesideKing,       // 1: the met is one king step from the king
  kPawnsAheadOfKing,    // own pawns on the king's file and the files beside it, ahead of it, 0-3
  kRookFiles,           // the two rooks' files as 8 * lower + higher
  kRooksOnEdgeFiles,    // rooks on the a- and h-files, 0-2
  kKnightsOnBackRank,   // 0-2
  kMirrorPairs,         // pairs (khons, knights, rooks) standing on mirrored files of one rank, 0-3
  kFeatures
};

struct FeatureInfo {
  const char* name = "";
  bool in_fit = false;
};
const std::array<FeatureInfo, kFeatures>& feature_info();

using Features = std::array<int, kFeatures>;
Features formation_features(const Formation& f, uint64_t pawns);

// A feature's value as the tables show it: files as letters ("e", "a+h"), else the number.
std::string feature_value_text(int feature, int value);

}  // namespace sz::placement
