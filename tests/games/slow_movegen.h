#pragma once
// An independent, slow legal-move generator for the property tests: men move by walking
// directions over the mailbox, legality is decided by playing each candidate and scanning the
// board for attacks. It shares only Position (do_move, piece_on) with the fast generator.
#include <string>
#include <vector>

#include "games/chaturanga/position.h"

namespace sz::test {

// Sorted UCI strings of the legal moves of `pos`.
std::vector<std::string> slow_legal_moves(const chaturanga::Position& pos);

// Whether colour `by` attacks `sq`, by scanning every man on the board.
bool slow_attacked(const chaturanga::Position& pos, int sq, chaturanga::Color by);

}  // namespace sz::test
