/* sittuyin_client.h: the game clients' runtime as a C API (docs/CLIENTS.md), for C, C#, GDScript,
 * Unreal or anything with a C FFI. Plain C types only. Link libsittuyin_client.a or
 * libsittuyin_client.so; nothing else is needed at run time but the C++ standard library.
 *
 * Errors: a function that can fail returns NULL or a negative number and, when `error` is not
 * NULL, writes a NUL-terminated message of at most error_size bytes there (a missing file, a
 * foreign or truncated weights file, an unknown version, a missing key, an illegal move). No
 * function aborts or throws across the API.
 *
 * Threads: a bundle may be shared by games on several threads once opened; a game is used by one
 * thread at a time. Moves are UCI text with Fairy-Stockfish's conventions: "e2e4", drops "R@a1",
 * Sittuyin promotions "d5d5f" / "d5c6f", Shatranj promotions "b7b8q". */
#ifndef SITTUYIN_CLIENT_H
#define SITTUYIN_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define SZ_API __declspec(dllexport)
#else
#define SZ_API __attribute__((visibility("default")))
#endif

/* 2: sz_game_probe_tables; searches play endgame tables.
 * 3: what a game's screen shows: sz_bundle_game, sz_bundle_profile_source, sz_game_status,
 *    sz_game_san, formations (sz_bundle_check_formation, sz_game_formation_drop); the searches
 *    score the positions of the bundle's endgame tables they reach, as sittuyin-client's do. */
#define SZ_CLIENT_API_VERSION 3
/* Room for every legal move of any position, space-separated, with the terminating NUL. */
#define SZ_MOVES_BUFFER 2048
/* Room for any one move's text with the terminating NUL. */
#define SZ_MOVE_BUFFER 16

typedef struct sz_bundle sz_bundle;
typedef struct sz_game sz_game;

typedef enum sz_result {
  SZ_ONGOING = 0,
  SZ_WHITE_WINS = 1, /* the first player (Sittuyin: Red/White) */
  SZ_BLACK_WINS = 2,
  SZ_DRAW = 3
} sz_result;

typedef struct sz_level {
  int level;          /* 1 = weakest */
  const char* name;   /* valid while the bundle is open */
  const char* player; /* "model", "uniform-mcts" or "random" */
  int simulations;
  float temperature;                /* of the move choice on visit counts */
  double elo, elo_lower, elo_upper; /* over the random mover, 95% interval, as measured */
} sz_level;

typedef struct sz_table_value {
  int verdict;      /* for the side to move: 1 win, 0 draw, -1 loss */
  int plies_to_end; /* to mate (Shatranj: or a bared king, a stalemate), best play; 0 for a draw */
  int exact;        /* 1; 0 where the clocks forbid the fastest mate: plies_to_end is then a lower bound */
} sz_table_value;

/* The state of a game beside its FEN (API version 3), for a screen: whose turn, check, the clocks
 * of the draw rules. */
typedef struct sz_status {
  int side_to_move;   /* 0: White, 1: Black */
  int placing;        /* 1 while men are still in hand (Sittuyin's placement), else 0 */
  int in_check;       /* 1 when the side to move is in check */
  int ply;            /* plies played since the game's start position */
  int repetitions;    /* earlier occurrences of this position since the last irreversible move */
  int rule50;         /* plies since the last capture, pawn move, drop or promotion */
  int rule50_limit;   /* the n-move rule's plies (100: 50 moves); 0 when the profile has none */
  int counting_limit; /* while a count runs (ASEAN counting): its limit in plies, else 0 */
  int counting_ply;   /* plies counted so far; the game is drawn once it passes the limit */
  int counting_side;  /* the bare king's side (0, 1) while a count runs, else -1 */
} sz_status;

typedef struct sz_evaluation {
  float win, draw, loss; /* for the side to move, summing to 1 */
  float moves_left;      /* expected plies to the end; 0 when the network has no such head */
} sz_evaluation;

SZ_API int sz_api_version(void);

/* Opens the bundle that `sittuyin-zero export` wrote into `dir` (model.json, model.onnx). */
SZ_API sz_bundle* sz_bundle_open(const char* dir, char* error, size_t error_size);
SZ_API void sz_bundle_close(sz_bundle* bundle); /* NULL is allowed */
/* The rule profiles the bundle plays; index 0 is the default. */
SZ_API int sz_bundle_profile_count(const sz_bundle* bundle);
SZ_API const char* sz_bundle_profile(const sz_bundle* bundle, int index); /* NULL when out of range */
/* The game of the bundle's network: "sittuyin" or "shatranj" (PGN's Variant tag). */
SZ_API const char* sz_bundle_game(const sz_bundle* bundle); /* NULL without a bundle */
/* Where a profile's rules come from, for people ("Ply Yard"); NULL when out of range. */
SZ_API const char* sz_bundle_profile_source(const sz_bundle* bundle, int index);
/* The strength levels, weakest first (none when exported without --levels). Returns 0, or -1
 * when `index` is out of range. */
SZ_API int sz_bundle_level_count(const sz_bundle* bundle);
SZ_API int sz_bundle_level(const sz_bundle* bundle, int index, sz_level* out);

/* A new game under `profile` (NULL: the default) from `fen` (NULL: the start position). The game
 * keeps a pointer to the bundle, which must stay open while the game lives. */
SZ_API sz_game* sz_game_new(const sz_bundle* bundle, const char* profile, const char* fen, char* error,
                            size_t error_size);
SZ_API void sz_game_free(sz_game* game); /* NULL is allowed */
/* Plays `move` (legal); returns 0, or -1 naming the move when it is malformed or illegal. */
SZ_API int sz_game_apply(sz_game* game, const char* move, char* error, size_t error_size);
/* Writes the legal moves, space-separated, into `buffer` (SZ_MOVES_BUFFER bytes suffice) and
 * returns their number; -1 when `size` is too small. */
SZ_API int sz_game_legal_moves(const sz_game* game, char* buffer, size_t size);
/* The position as a FEN (the hand in brackets); valid until the game changes or is freed. */
SZ_API const char* sz_game_fen(sz_game* game);
SZ_API int sz_game_side_to_move(const sz_game* game); /* 0: White, 1: Black */
/* The state beside the FEN (API version 3). Returns 0, or -1 on a NULL argument. */
SZ_API int sz_game_status(const sz_game* game, sz_status* out);
/* `move` (legal, UCI text) in standard algebraic notation as Fairy-Stockfish and the project's
 * PGN write it ("Nf3", "exd5", "R@a1", "h4=F", "e5f6=F", "+" and "#"), written into `san`
 * (SZ_MOVE_BUFFER bytes suffice); the game is unchanged. Returns 0, or -1 naming the move. */
SZ_API int sz_game_san(const sz_game* game, const char* move, char* san, size_t san_size, char* error,
                       size_t error_size);
/* The result so far; with `reason` not NULL, the rules' reason ("checkmate", "stalemate",
 * "n-move", "repetition", ..., "none" while the game goes on), valid for the program's life. */
SZ_API sz_result sz_game_result(const sz_game* game, const char** reason);

/* Searches the position with `simulations` visits of MCTS over the bundle's network and writes
 * the chosen move into `move` (SZ_MOVE_BUFFER bytes suffice): the most visited at temperature 0,
 * else drawn by visit counts^(1/temperature) from `seed`. Does not play it. Returns 0, or -1
 * (the game is over, a bad argument). In a position of the bundle's endgame tables (exported
 * with --tables) it plays the tables' best move instead (one of the equally best, by `seed`). */
SZ_API int sz_game_search(sz_game* game, int simulations, float temperature, uint64_t seed, char* move,
                          size_t move_size, char* error, size_t error_size);
/* The same at a strength level of the bundle (its player, simulations and temperature); a level
 * whose player is "random" ignores the tables. */
SZ_API int sz_game_best_move(sz_game* game, int level, uint64_t seed, char* move, size_t move_size, char* error,
                             size_t error_size);
/* The bundle's endgame tables on the position (docs/TABLES.md): 1 when it is in them, with its
 * exact value (the clocks counted) in `out`; 0 when not (or the bundle carries none); -1 on a bad
 * argument. */
SZ_API int sz_game_probe_tables(const sz_game* game, sz_table_value* out);
/* Sittuyin formations (docs/PLACEMENT.md): eight drops in the placing side's own frame, e.g.
 * "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h1" (for Black, square s stands on the board's 63 - s).
 * sz_bundle_check_formation: 0 when either colour can place `formation` under `profile` (NULL:
 * the default), else -1 naming the formation, the profile and the drop that cannot go there.
 * sz_game_formation_drop: the formation's next drop for the side to move, which must be placing
 * (its first man, in order, that is not on its square yet and may go there now), written into
 * `move`, not played; 0, or -1 when none may go on (it is complete, or a square is taken). */
SZ_API int sz_bundle_check_formation(const sz_bundle* bundle, const char* profile, const char* formation, char* error,
                                     size_t error_size);
SZ_API int sz_game_formation_drop(const sz_game* game, const char* formation, char* move, size_t move_size, char* error,
                                  size_t error_size);
/* The network's evaluation of the position, without search. Returns 0, or -1. */
SZ_API int sz_game_evaluate(sz_game* game, sz_evaluation* out, char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* SITTUYIN_CLIENT_H */
