#pragma once
// Matches between players (player.h): two players play a match, more play a round robin. Every
// pairing plays every start position twice, colours swapped (a deterministic player repeats
// itself from a repeated start, see ../shared/testdata/README.md); games run concurrently on a
// pool of threads, each with its own player instances. Results: score and Elo with a 95%
// interval per pairing, a Bradley-Terry fit of all players anchored at one of them, and, for two
// players, an optional SPRT that ends the match once it is decided (ratings.h).
//
// The training loop calls play_match directly (gating, strength checks); `sittuyin-zero arena`
// is a thin command line around it.
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval/player.h"
#include "eval/ratings.h"
#include "game/endgame_tables.h"
#include "game/game_state.h"
#include "search/draw_adjudication.h"

namespace sz::eval {

// One finished game. Moves are in UCI (FSF spelling) and SAN.
struct GameRecord {
  int index = 0;             // position in the match's schedule, from 0
  int white = 0, black = 0;  // indices into MatchSpec::players ("white": the first player)
  std::string start_fen;
  std::vector<std::string> uci_moves, san_moves;
  game::GameResult result = game::GameResult::Draw;
  std::string reason;  // the rules' end reason (checkmate, ...), "max-plies" or "forfeit"
  std::string error;   // a forfeit's cause: a crashed or timed-out engine, an illegal move
  // Per side (white, black): wall seconds its move choices took, and the moves it played.
  std::array<double, 2> think_seconds{};
  std::array<int, 2> moves{};
};

struct PairingResult {
  int a = 0, b = 0;  // player indices, a < b
  MatchScore score;  // from a's view
  EloEstimate elo;   // a's rating minus b's
};

struct MatchResult {
  std::string profile;
  std::vector<std::string> names;
  std::vector<PairingResult> pairings;  // every pair a < b, in order
  std::vector<Rating> ratings;          // Bradley-Terry, one per player, anchor at 0 Elo
  int anchor = 0;
  int games_scheduled = 0, games_played = 0, forfeits = 0;
  std::optional<Sprt> sprt;  // two-player matches run with one
  double llr = 0;
  Sprt::Verdict verdict = Sprt::Verdict::Continue;
  bool stopped = false;  // ended before its schedule: the SPRT decided, or MatchSpec::stop
  double seconds = 0;
  // Per player (as `names`), over the games recorded: wall seconds spent choosing moves, and the
  // moves played. Their ratio is what a move cost each player, the check an equal-time match
  // needs; it counts waiting as well as thinking, so it means CPU time only with no more games at
  // once than cores and no evaluator shared between games.
  std::vector<double> think_seconds;
  std::vector<int> moves;

  // The pairing of players i and j (either order); nullptr if none.
  const PairingResult* pairing(int i, int j) const;
};

struct MatchSpec {
  std::vector<MatchPlayer> players;  // at least two
  std::string profile = "sittuyin";  // rule profile of every game
  std::vector<std::string> starts;   // FENs; empty: the profile's start position
  int rounds = 1;                    // passes over `starts` (each start twice per pass and pairing)
  int concurrency = 1;               // games at once, each on a thread with its own players
  int max_plies = 1000;              // a game still running here is a draw ("max-plies")
  uint64_t seed = 1;                 // every game's players get seeds derived from it
  int anchor = 0;                    // the player fixed at 0 Elo in the fit
  std::optional<Sprt> sprt;          // two players only: stop once H0 or H1 is accepted
  std::string pgn_path;              // every game in PGN (file replaced); empty: none
  // Endgame tables (null: none): a game that reaches a position of theirs ends with its exact
  // result (reason "tables"), as match referees adjudicate with tablebases.
  std::shared_ptr<const game::EndgameTables> tables;
  // Draw adjudication by the players' values (search/draw_adjudication.h; unset: none): a game
  // whose movers both report values (Player::last_value) that stay flat while the move rules run
  // out ends "adjudicated-draw", as cutechess adjudicates by engine scores.
  std::optional<search::DrawAdjudication> adjudicate_draws;
  // Called after each game, one call at a time (from the worker threads), with the tally so far
  // (no ratings yet).
  std::function<void(const GameRecord&, const MatchResult&)> on_game;
  const std::atomic<bool>* stop = nullptr;  // set: games in flight are dropped, the match ends
};

// Plays the match and returns its results. Throws sz::Error on a bad spec (a bad start FEN, an
// SPRT with more than two players), on PGN I/O errors, or when a player cannot start. A
// forfeit (an engine that crashed, timed out or played an illegal move) loses that game.
MatchResult play_match(const MatchSpec& spec);

// The number of games `spec` schedules: pairings x starts x 2 colours x rounds.
int scheduled_games(const MatchSpec& spec);

}  // namespace sz::eval
