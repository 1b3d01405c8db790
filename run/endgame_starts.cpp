#include "run/endgame_starts.h"

#include <algorithm>
#include <cstdio>

#include "core/rng.h"
#include "core/split.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "games/registry.h"

namespace sz::run {

namespace {

// The position `back` plies before the end of `game`, or the first one of its play phase when
// the game has fewer play plies than that; "" when there is none (a game ended while placing) or
// its FEN, read back, is over.
std::string position_before_end(const data::GameInfo& game, int back) {
  auto state = games::new_game(game.profile, game.start_fen).take_or_throw("the start of game " + game.start_fen);
  const auto moves = split_words(game.moves);
  const int total = int(moves.size());
  const int target = total - back;
  for (int ply = 0; ply < total; ++ply) {
    if (ply >= target && state->phase() == game::Phase::Play) {
      std::string fen = state->to_string();
      // A FEN holds no history: read back, a position may be over where the game was not.
      const auto read_back = games::new_game(game.profile, fen);
      return read_back && !(*read_back)->outcome().over() ? fen : "";
    }
    state->apply(state->parse_action(moves[size_t(ply)]).take_or_throw("move " + std::string(moves[size_t(ply)])));
  }
  return "";
}

}  // namespace

int endgame_max_plies(int64_t generation, int first_plies, int step) {
  return first_plies + int(std::max<int64_t>(0, generation - 2)) * step;
}

EndgamePick pick_endgame_starts(const std::string& games_dir, int64_t generation, int max_plies, int count,
                                uint64_t seed) {
  EndgamePick pick;
  Rng rng(seed);
  std::vector<data::GameInfo> chosen;
  const auto warn = [](const std::string& line) { std::fprintf(stderr, "warning: %s\n", line.c_str()); };
  for (const std::string& path : data::list_shards(games_dir)) {
    const auto reader = data::open_or_skip(path, warn);
    if (!reader || reader->info().generation >= generation) continue;
    for (data::GameInfo& game : reader->read_games()) {
      if (game.result == 0) continue;
      ++pick.decisive_games;
      if (int64_t(chosen.size()) < count) {
        chosen.push_back(std::move(game));
      } else {
        const uint64_t slot = rng() % uint64_t(pick.decisive_games);
        if (slot < uint64_t(count)) chosen[size_t(slot)] = std::move(game);
      }
    }
  }
  for (const data::GameInfo& game : chosen) {
    const int back = 1 + int(rng.below(uint32_t(std::max(1, max_plies))));
    if (std::string fen = position_before_end(game, back); !fen.empty()) pick.starts.push_back(std::move(fen));
  }
  return pick;
}

}  // namespace sz::run
