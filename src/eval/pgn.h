#pragma once
// PGN for finished games, with the `Variant` and `FEN` tags that pychess-style tools and
// cutechess read (moves in SAN as Fairy-Stockfish writes them).
#include <string>
#include <vector>

namespace sz::eval {

struct PgnGame {
  std::string event = "sittuyin-zero match";
  std::string site = "local";
  std::string date;   // YYYY.MM.DD
  std::string round;  // e.g. "3.2"
  std::string white, black;
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2", "*"
  std::string variant;       // "sittuyin" or "shatranj"
  std::string profile;       // the rule profile, a tag of our own
  std::string start_fen;     // written with SetUp "1" when not empty
  std::string end_reason;    // e.g. "checkmate"; a tag of our own
  std::vector<std::string> san_moves;
  int first_move_number = 1;
  bool black_moves_first = false;
};

std::string to_pgn(const PgnGame& game);
std::string today_pgn_date();

}  // namespace sz::eval
