#include "placement/features.h"

#include <algorithm>
#include <cstdlib>

namespace sz::placement {

namespace {

int file_of(int square) { return square % 8; }
int rank_of(int square) { return square / 8; }
int king_distance(int a, int b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}
int centre_distance(int line) { return line < 4 ? 3 - line : line - 4; }  // 0 for d/e or 4/5

}  // namespace

const std::array<FeatureInfo, kFeatures>& feature_info() {
  static const std::array<FeatureInfo, kFeatures> info = {{
      {"king_file", false},
      {"king_rank", false},
      {"king_right_wing", true},
      {"king_on_edge", true},
      {"king_centre_distance", true},
      {"khons_beside_king", true},
      {"met_beside_king", true},
      {"pawns_ahead_of_king", true},
      {"rook_files", false},
      {"rooks_on_edge_files", true},
      {"knights_on_back_rank", true},
      {"mirror_pairs", true},
  }};
  return info;
}

Features formation_features(const Formation& f, uint64_t pawns) {
  Features x{};
  int king = -1, rooks[2] = {0, 0}, rook_count = 0;
  for (const Drop& d : f.men)
    if (kMen[size_t(d.man)] == 'K') king = d.square;
  for (const Drop& d : f.men) {
    const char man = kMen[size_t(d.man)];
    const bool beside = king >= 0 && king_distance(d.square, king) == 1;
    if (man == 'S') x[kKhonsBesideKing] += beside;
    if (man == 'F') x[kMetBesideKing] += beside;
    if (man == 'N') x[kKnightsOnBackRank] += rank_of(d.square) == 0;
    if (man == 'R') {
      x[kRooksOnEdgeFiles] += file_of(d.square) == 0 || file_of(d.square) == 7;
      if (rook_count < 2) rooks[rook_count++] = file_of(d.square);
    }
    if (man == 'S' || man == 'N' || man == 'R') {
      // Each pair is counted once, from its man on the left half.
      const int mirror = rank_of(d.square) * 8 + 7 - file_of(d.square);
      if (file_of(d.square) < 4)
        for (const Drop& e : f.men) x[kMirrorPairs] += e.man == d.man && e.square == mirror;
    }
  }
  x[kRookFiles] = 8 * std::min(rooks[0], rooks[1]) + std::max(rooks[0], rooks[1]);
  if (king >= 0) {
    x[kKingFile] = file_of(king);
    x[kKingRank] = rank_of(king) + 1;
    x[kKingRightWing] = file_of(king) >= 4;
    x[kKingOnEdge] = file_of(king) == 0 || file_of(king) == 7;
    x[kKingCentreDistance] = std::max(centre_distance(file_of(king)), centre_distance(rank_of(king)));
    for (int s = 0; s < 64; ++s)
      x[kPawnsAheadOfKing] +=
          (pawns >> s & 1) && rank_of(s) > rank_of(king) && std::abs(file_of(s) - file_of(king)) <= 1;
  }
  return x;
}

std::string feature_value_text(int feature, int value) {
  if (feature == kKingFile) return std::string(1, char('a' + value));
  if (feature == kRookFiles) return std::string{char('a' + value / 8), '+', char('a' + value % 8)};
  return std::to_string(value);
}

}  // namespace sz::placement
