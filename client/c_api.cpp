// The C API (sittuyin_client.h) over the bundle, the rules core and the search: bundles, games,
// moves and searches (c_api_view.cpp: what a game's screen shows). Every entry point catches what
// the C++ below throws and turns it into an error message: nothing crosses the C boundary but
// return values.
#include "client/c_api_support.h"
#include "core/rng.h"
#include "heuristics/heuristics.h"
#include "search/game_search.h"
#include "search/leaf_blend.h"
#include "search/tree_report.h"

namespace {

using sz::Error;
using sz::client::guarded;

int copy_move(const std::string& text, char* move, size_t move_size) {
  return sz::client::copy_text(text, move, move_size, "move");
}

// The bundle's search settings (the exporting run's), with a PUCT root, as the UCI engine searches
// (its time-limited searches run in chunks, which Gumbel's sequential halving cannot plan), so
// that both play the same moves.
sz::search::SearchConfig client_search_config(const sz::client::Bundle& bundle) {
  sz::search::SearchConfig c = bundle.search;
  c.root_selection = sz::search::RootSelection::Puct;
  return c;
}

// The endgame tables' best move (one of the equally best, drawn by `rng`), or "" outside them.
std::string table_move(const sz_game& game, sz::Rng& rng) {
  const sz::game::EndgameTables* tables = game.bundle->tables_for(&game.state->position().rules());
  if (!tables) return "";
  sz::game::ActionId best[sz::game::kMaxActions];
  const int n = tables->best_actions(*game.state, best);
  return n > 0 ? game.state->action_to_string(best[rng.below(uint32_t(n))]) : "";
}

int search_move(sz_game* game, const std::string& player, int simulations, float temperature, uint64_t seed, char* move,
                size_t move_size) {
  if (!game) throw Error("no game");
  const sz::chaturanga::State& state = *game->state;
  if (state.outcome().over()) throw Error("the game is over (" + std::string(state.outcome().reason) + ")");
  sz::Rng rng(seed);
  if (player != "random")  // a random level stays random; the others play perfectly where tables know
    if (const std::string perfect = table_move(*game, rng); !perfect.empty())
      return copy_move(perfect, move, move_size);
  if (player == "random") {
    sz::game::ActionId legal[sz::game::kMaxActions];
    const int n = state.legal_actions(legal);
    return copy_move(state.action_to_string(legal[rng.below(uint32_t(n))]), move, move_size);
  }
  if (simulations < 1 || simulations > (1 << 24)) throw Error("simulations must be in 1..16777216");
  if (!(temperature >= 0.0f && temperature <= 100.0f)) throw Error("temperature must be in 0..100");
  const sz::search::SearchConfig config = client_search_config(*game->bundle);
  sz::search::GameSearch search(config, state, seed);
  // The tables score the positions the search reaches, and the leaf search (the bundle's play
  // settings) is the game's, as in the UCI engine's search.
  search.set_tables(game->bundle->tables_for(&state.position().rules()));
  const sz::game::Heuristics* heuristics = sz::heuristics::of_game(state.spec().game);
  search.set_heuristics(heuristics);
  sz::search::UniformEvaluator uniform;
  if (player != "uniform-mcts" && !game->evaluator)
    game->evaluator = std::make_unique<sz::client::EigenEvaluator>(game->bundle->net);
  sz::search::LeafBlend evaluator(
      player == "uniform-mcts" ? static_cast<sz::search::Evaluator&>(uniform) : *game->evaluator, config.leaf,
      heuristics);
  // The one move choice (search/move_choice.h), as `uci` and the arena make it.
  const sz::game::ActionId action =
      search.run(evaluator, sz::search::SearchKind::Cheap, simulations, temperature).action;
  return copy_move(state.action_to_string(action), move, move_size);
}

}  // namespace

extern "C" {

int sz_api_version(void) { return SZ_CLIENT_API_VERSION; }

sz_bundle* sz_bundle_open(const char* dir, char* error, size_t error_size) {
  return guarded<sz_bundle*>(error, error_size, nullptr, [&]() -> sz_bundle* {
    if (!dir) throw Error("no bundle folder given");
    auto opened = sz::client::open_bundle(dir);
    if (!opened) throw Error(opened.error());
    return new sz_bundle{std::move(opened).value()};
  });
}

void sz_bundle_close(sz_bundle* bundle) { delete bundle; }

int sz_bundle_profile_count(const sz_bundle* bundle) { return bundle ? int(bundle->bundle->profiles.size()) : 0; }

const char* sz_bundle_profile(const sz_bundle* bundle, int index) {
  if (!bundle || index < 0 || index >= sz_bundle_profile_count(bundle)) return nullptr;
  return bundle->bundle->profiles[size_t(index)]->id.c_str();
}

int sz_bundle_level_count(const sz_bundle* bundle) { return bundle ? int(bundle->bundle->levels.size()) : 0; }

int sz_bundle_level(const sz_bundle* bundle, int index, sz_level* out) {
  if (!bundle || !out || index < 0 || index >= sz_bundle_level_count(bundle)) return -1;
  const sz::client::BundleLevel& l = bundle->bundle->levels[size_t(index)];
  *out = sz_level{l.level,       l.name.c_str(), l.player.c_str(), l.simulations,
                  l.temperature, l.elo,          l.elo_lower,      l.elo_upper};
  return 0;
}

sz_game* sz_game_new(const sz_bundle* bundle, const char* profile, const char* fen, char* error, size_t error_size) {
  return guarded<sz_game*>(error, error_size, nullptr, [&]() -> sz_game* {
    if (!bundle) throw Error("no bundle");
    const sz::client::Bundle& b = *bundle->bundle;
    const sz::chaturanga::RuleProfile& rules = sz::client::bundle_profile(b, profile);
    auto game = std::make_unique<sz_game>();
    game->bundle = &b;
    if (fen && *fen) {
      auto pos = sz::chaturanga::Position::from_fen(fen, rules);
      if (!pos) throw Error("FEN '" + std::string(fen) + "': " + pos.error());
      game->state = std::make_unique<sz::chaturanga::State>(*pos);
    } else {
      game->state = std::make_unique<sz::chaturanga::State>(sz::chaturanga::Position::start(rules));
    }
    return game.release();
  });
}

void sz_game_free(sz_game* game) { delete game; }

int sz_game_apply(sz_game* game, const char* move, char* error, size_t error_size) {
  return guarded<int>(error, error_size, -1, [&] {
    if (!game || !move) throw Error("no game or no move");
    if (game->state->outcome().over()) throw Error("move '" + std::string(move) + "': the game is over");
    const auto action = game->state->parse_action(move);
    if (!action) throw Error("move '" + std::string(move) + "': " + action.error());
    sz::game::ActionId legal[sz::game::kMaxActions];
    const int n = game->state->legal_actions(legal);
    if (std::find(legal, legal + n, *action) == legal + n) throw Error("move '" + std::string(move) + "' is illegal");
    game->state->apply(*action);
    return 0;
  });
}

int sz_game_legal_moves(const sz_game* game, char* buffer, size_t size) {
  return guarded<int>(nullptr, 0, -1, [&] {
    if (!game || !buffer || size == 0) return -1;
    sz::game::ActionId legal[sz::game::kMaxActions];
    const int n = game->state->outcome().over() ? 0 : game->state->legal_actions(legal);
    std::string text;
    for (int i = 0; i < n; ++i) text += (i ? " " : "") + game->state->action_to_string(legal[i]);
    if (text.size() >= size) return -1;
    std::memcpy(buffer, text.c_str(), text.size() + 1);
    return n;
  });
}

const char* sz_game_fen(sz_game* game) {
  if (!game) return nullptr;
  return guarded<const char*>(nullptr, 0, nullptr, [&] {
    game->fen = game->state->to_string();
    return game->fen.c_str();
  });
}

int sz_game_side_to_move(const sz_game* game) {
  return game && game->state->to_move() == sz::game::Player::Second ? 1 : 0;
}

sz_result sz_game_result(const sz_game* game, const char** reason) {
  if (!game) return SZ_ONGOING;
  const sz::game::Outcome o = game->state->outcome();
  if (reason) {
    // The reasons are the rules core's string literals (chaturanga::to_string(EndReason)).
    *reason = o.reason.data();
  }
  switch (o.result) {
    case sz::game::GameResult::FirstWins:
      return SZ_WHITE_WINS;
    case sz::game::GameResult::SecondWins:
      return SZ_BLACK_WINS;
    case sz::game::GameResult::Draw:
      return SZ_DRAW;
    case sz::game::GameResult::Ongoing:
      break;
  }
  return SZ_ONGOING;
}

int sz_game_search(sz_game* game, int simulations, float temperature, uint64_t seed, char* move, size_t move_size,
                   char* error, size_t error_size) {
  return guarded<int>(error, error_size, -1,
                      [&] { return search_move(game, "model", simulations, temperature, seed, move, move_size); });
}

int sz_game_best_move(sz_game* game, int level, uint64_t seed, char* move, size_t move_size, char* error,
                      size_t error_size) {
  return guarded<int>(error, error_size, -1, [&] {
    if (!game) throw Error("no game");
    const auto& levels = game->bundle->levels;
    const auto it = std::find_if(levels.begin(), levels.end(), [&](const auto& l) { return l.level == level; });
    if (it == levels.end())
      throw Error("the bundle has no level " + std::to_string(level) + " (it has " + std::to_string(levels.size()) +
                  "; export with --levels)");
    return search_move(game, it->player, it->simulations, it->temperature, seed, move, move_size);
  });
}

int sz_game_probe_tables(const sz_game* game, sz_table_value* out) {
  return guarded<int>(nullptr, 0, -1, [&] {
    if (!game || !out) return -1;
    const sz::game::EndgameTables* tables = game->bundle->tables_for(&game->state->position().rules());
    const auto r = tables ? tables->probe(*game->state) : std::nullopt;
    if (!r) return 0;
    *out = sz_table_value{int(r->verdict), r->plies_to_end, r->plies_exact ? 1 : 0};
    return 1;
  });
}

int sz_game_evaluate(sz_game* game, sz_evaluation* out, char* error, size_t error_size) {
  return guarded<int>(error, error_size, -1, [&] {
    if (!game || !out) throw Error("no game or no output");
    if (game->state->outcome().over()) throw Error("the game is over");
    sz::game::ActionId legal[sz::game::kMaxActions];
    float priors[sz::game::kMaxActions];
    const int n = game->state->legal_actions(legal);
    sz::search::EvalQuery query{game->state.get(), std::span<const sz::game::ActionId>(legal, size_t(n))};
    sz::search::EvalReply reply;
    reply.priors = std::span<float>(priors, size_t(n));
    if (!game->evaluator) game->evaluator = std::make_unique<sz::client::EigenEvaluator>(game->bundle->net);
    game->evaluator->evaluate(std::span(&query, 1), std::span(&reply, 1));
    *out = sz_evaluation{reply.wdl[0], reply.wdl[1], reply.wdl[2], reply.moves_left};
    return 0;
  });
}

}  // extern "C"
