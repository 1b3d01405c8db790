// The native side of the web tests (tests/web/web_test.js): a game the page played, checked move
// by move by the C++ rules core through the native C API, and written as PGN by the project's own
// writer (eval/pgn.h), for comparison with what the page showed and wrote.
//
//   web_game_check BUNDLE PROFILE START_FEN MOVES_FILE WHITE BLACK DATE
//
// MOVES_FILE holds the page's moves, one per line: UCI, a space, the SAN the page showed. Prints
// "ok PLY" for each move that was legal and shown with the rules core's SAN, "bad PLY ..." for the
// first that was not (and stops), then "result CODE REASON" and the PGN between "pgn-begin" and
// "pgn-end". Exits 0 when every move was good.
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "client/sittuyin_client.h"
#include "eval/pgn.h"

namespace {

std::set<std::string> legal_moves(const sz_game* game) {
  char moves[SZ_MOVES_BUFFER];
  std::set<std::string> out;
  if (sz_game_legal_moves(game, moves, sizeof moves) < 0) return out;
  std::istringstream words(moves);
  for (std::string w; words >> w;) out.insert(w);
  return out;
}

const char* kResults[] = {"*", "1-0", "0-1", "1/2-1/2"};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: web_game_check BUNDLE PROFILE START_FEN MOVES_FILE WHITE BLACK DATE\n");
    return 2;
  }
  char error[512];
  sz_bundle* bundle = sz_bundle_open(argv[1], error, sizeof error);
  if (!bundle) return std::fprintf(stderr, "bundle: %s\n", error), 1;
  sz_game* game = sz_game_new(bundle, argv[2], argv[3], error, sizeof error);
  if (!game) return std::fprintf(stderr, "game: %s\n", error), 1;
  std::ifstream in(argv[4]);
  std::vector<std::string> sans;
  int ply = 0, bad = 0;
  for (std::string line; std::getline(in, line) && !bad;) {
    if (line.empty()) continue;
    ++ply;
    const std::string uci = line.substr(0, line.find(' ')), shown = line.substr(line.find(' ') + 1);
    char san[SZ_MOVE_BUFFER];
    if (!legal_moves(game).count(uci)) {
      std::printf("bad %d %s is not a legal move of %s\n", ply, uci.c_str(), sz_game_fen(game));
      bad = 1;
    } else if (sz_game_san(game, uci.c_str(), san, sizeof san, error, sizeof error) != 0 || shown != san) {
      std::printf("bad %d %s was shown as '%s', the rules core writes '%s'\n", ply, uci.c_str(), shown.c_str(), san);
      bad = 1;
    } else {
      sans.push_back(san);
      sz_game_apply(game, uci.c_str(), error, sizeof error);
      std::printf("ok %d\n", ply);
    }
  }
  const char* reason = "none";
  const sz_result result = sz_game_result(game, &reason);
  std::printf("result %d %s\n", int(result), reason);

  sz::eval::PgnGame pgn;
  pgn.event = "sittuyin-zero web game";
  pgn.site = "browser";
  pgn.date = argv[7];
  pgn.white = argv[5];
  pgn.black = argv[6];
  pgn.result = kResults[int(result)];
  pgn.variant = sz_bundle_game(bundle);
  pgn.profile = argv[2];
  pgn.start_fen = argv[3];
  pgn.end_reason = result == SZ_ONGOING ? "" : reason;
  pgn.san_moves = sans;
  std::printf("pgn-begin\n%spgn-end\n", sz::eval::to_pgn(pgn).c_str());
  sz_game_free(game);
  sz_bundle_close(bundle);
  return bad;
}
