#include "selfplay/game_slot.h"

#include <algorithm>
#include <cmath>

#include "core/fnv1a.h"
#include "core/rng.h"

namespace sz::selfplay {

namespace {

constexpr uint64_t kIndexScale = 0x9E3779B97F4A7C15ull;  // odd: multiplying by it inverts

// +1, 0, -1 for `player` given the game's result.
int8_t result_for(game::GameResult result, game::Player player) {
  if (result == game::GameResult::Draw) return 0;
  const bool first_won = result == game::GameResult::FirstWins;
  return int8_t((first_won == (player == game::Player::First)) ? 1 : -1);
}

}  // namespace

uint64_t game_seed(uint64_t run_seed, int64_t index) {
  uint64_t state = run_seed ^ (uint64_t(index) * kIndexScale);
  return splitmix64(state);
}

uint64_t game_index_of(uint64_t run_seed, uint64_t seed) {
  return (splitmix64_inverse(seed) ^ run_seed) * odd_inverse(kIndexScale);
}

uint64_t worker_seed(uint64_t run_seed, std::string_view worker) {
  if (worker.empty()) return run_seed;
  uint64_t state = run_seed ^ fnv1a64(worker.data(), worker.size());
  return splitmix64(state);
}

GameSlot::GameSlot(const SelfplayConfig& config, const game::GameState& start, search::Tree* scratch_tree,
                   const std::function<std::optional<game::ActionId>(const game::GameState&, uint64_t)>* placement,
                   search::Knowledge knowledge, const game::EndgameTables* tables, const game::Heuristics* heuristics)
    : config_(config),
      placement_(placement && *placement ? placement : nullptr),
      knowledge_(knowledge),
      tables_(tables),
      heuristics_(heuristics),
      search_(config.search_for(knowledge), start, /*seed=*/0, scratch_tree),
      scratch_(start.clone()) {
  search_.set_tables(tables);
  search_.set_heuristics(heuristics);
  const game::GameSpec& spec = start.spec();
  planes_.resize(size_t(spec.binary_planes));
  scalars_.resize(size_t(spec.scalar_features));
  record_.positions = data::PositionColumns(spec.binary_planes, spec.scalar_features);
}

void GameSlot::begin(int64_t index, const game::GameState& start, const std::string& model_id) {
  const uint64_t seed = game_seed(config_.seed, index);
  seed_ = seed;
  search_.reset(start, seed);
  Rng rng(seed ^ 0x7265736967ull);  // "resig": a stream of its own
  resign_allowed_ = config_.resign.enabled && rng.uniform() >= config_.resign.disabled_fraction;
  Rng adjudication(seed ^ 0x61646a75ull);  // "adju": a stream of its own
  adjudication_allowed_ = adjudication.uniform() >= config_.adjudicate.control_fraction;
  flat_plies_.reset();
  would_have_drawn_ = false;
  record_.positions.clear();
  record_.meta = {std::string(start.profile()), 0, "", start.to_string(), "", model_id, seed};
  players_.clear();
  moves_.clear();
  seen_.assign(1, start.hash());
  resign_streak_[0] = resign_streak_[1] = 0;
  would_have_resigned_[0] = would_have_resigned_[1] = false;
  result_ = game::GameResult::Ongoing;
  active_ = true;
  finished_ = false;
}

bool GameSlot::next_leaf(search::EvalQuery& query, search::EvalReply& reply, SelfplayStats& stats) {
  while (active_ && !finished_) {
    if (!search_.searching() && imposed_drop(stats)) continue;
    if (!search_.searching()) search_.start_search(search::SearchKind::Auto);
    if (search_.select_leaf(query, reply)) return true;
    const search::SearchResult& r = search_.conclude();
    record_position(r);
    if (r.spread.moves > 0 && search_.state().phase() == game::Phase::Play)
      stats.add_search(r.full_search, r.spread,
                       double(r.target_wdl[0] - r.target_wdl[2]) - double(r.wdl[0] - r.wdl[2]));
    const game::Player mover = search_.state().to_move();
    if (resigns(r)) {
      finish(mover == game::Player::First ? game::GameResult::SecondWins : game::GameResult::FirstWins, "resign",
             stats);
      break;
    }
    if (adjudicated_draw(r)) {
      finish(game::GameResult::Draw, "adjudicated-draw", stats);
      break;
    }
    play(config_.avoid_repetition ? fresh_move(r.action) : r.action, stats);
  }
  return false;
}

void GameSlot::play(game::ActionId action, SelfplayStats& stats) {
  moves_ += (moves_.empty() ? "" : " ") + search_.state().action_to_string(action);
  search_.play(action);
  seen_.push_back(search_.state().hash());
  const game::Outcome outcome = search_.state().outcome();
  if (outcome.over()) {
    finish(outcome.result, outcome.reason, stats);
  } else if (const auto table = tables_ ? tables_->probe(search_.state()) : std::nullopt) {
    const game::Outcome exact = game::table_outcome(*table, search_.state().to_move());
    finish(exact.result, exact.reason, stats);
  } else if (plies() >= config_.max_plies) {
    finish(game::GameResult::Draw, "max-plies", stats);
  }
}

bool GameSlot::imposed_drop(SelfplayStats& stats) {
  if (!placement_ || search_.state().phase() != game::Phase::Placement) return false;
  const std::optional<game::ActionId> drop = (*placement_)(search_.state(), seed_);
  if (!drop) return false;
  search::SearchResult r;
  r.action = *drop;
  r.full_search = false;  // no search: no policy target
  record_position(r, /*searched=*/false);
  play(*drop, stats);
  return true;
}

// The most visited root move that does not return to a position of this game, if the chosen
// one does and another exists: an exploration aid for self-play in a drawish game, where early
// networks shuffle into threefold repetitions. The policy target is left as the search made it.
game::ActionId GameSlot::fresh_move(game::ActionId chosen) {
  auto repeats = [&](game::ActionId a) {
    scratch_->copy_from(search_.state());
    scratch_->apply(a);
    return std::find(seen_.begin(), seen_.end(), scratch_->hash()) != seen_.end();
  };
  if (!repeats(chosen)) return chosen;
  int best = -1;
  uint32_t best_visits = 0;
  for (int i = 0; i < search_.root_child_count(); ++i) {
    const search::ChildStats c = search_.root_child(i);
    if (c.visits > best_visits && !repeats(c.action)) best = i, best_visits = c.visits;
  }
  return best < 0 ? chosen : search_.root_child(best).action;
}

void GameSlot::record_position(const search::SearchResult& r, bool searched) {
  const game::GameState& state = search_.state();
  state.encode({planes_, scalars_});
  data::PositionRow row;
  row.planes = planes_;
  row.scalars = scalars_;
  row.policy = r.policy;
  row.action = r.action;
  row.phase = state.phase();
  row.ply = state.ply();
  row.full_search = r.full_search;
  row.has_search_value = searched && knowledge_.value;
  row.search_wdl = row.has_search_value ? r.target_wdl : std::array<float, 3>{0, 1, 0};
  row.policy_target = searched && r.policy_target && (knowledge_.prior || knowledge_.value);
  row.legal_count = row.policy_target ? int32_t(search_.root_child_count()) : 0;
  row.material = heuristics_ ? heuristics_->material(state) : 0.0f;
  record_.positions.append(row);
  players_.push_back(uint8_t(state.to_move()));
}

// The mover resigns after `consecutive` own moves whose chance of not losing (win + draw) is
// below the threshold (not the win chance alone: a drawn position is no reason to resign). In
// resign-disabled games the would-be resignation is only noted, for the false-positive rate.
bool GameSlot::resigns(const search::SearchResult& r) {
  const ResignConfig& rc = config_.resign;
  const game::GameState& state = search_.state();
  const int mover = int(state.to_move());
  const bool low = rc.enabled && state.phase() == game::Phase::Play && state.ply() >= rc.min_ply &&
                   r.wdl[0] + r.wdl[1] < rc.threshold;
  resign_streak_[mover] = low ? resign_streak_[mover] + 1 : 0;
  if (resign_streak_[mover] < rc.consecutive) return false;
  if (resign_allowed_) return true;
  would_have_resigned_[mover] = true;
  return false;
}

// Draw adjudication (search/draw_adjudication.h), for a player with a value: true once its
// conditions have held long enough, in a game where it is allowed; in a control game the
// would-be adjudication is only noted, for the false-draw rate.
bool GameSlot::adjudicated_draw(const search::SearchResult& r) {
  if (!knowledge_.value || !flat_plies_.add(config_.adjudicate, search_.state(), r.wdl[0] - r.wdl[2])) return false;
  if (adjudication_allowed_) return true;
  would_have_drawn_ = true;
  return false;
}

void GameSlot::finish(game::GameResult result, std::string_view reason, SelfplayStats& stats) {
  result_ = result;
  finished_ = true;
  data::PositionColumns& p = record_.positions;
  const int total = plies();
  for (int i = 0; i < total; ++i) {
    p.result[size_t(i)] = result_for(result, game::Player(players_[size_t(i)]));
    p.plies_to_end[size_t(i)] = total - i;
  }
  record_.meta.result = result_for(result, game::Player::First);
  record_.meta.end_reason = std::string(reason);
  record_.meta.moves = moves_;
  for (int side = 0; side < 2; ++side)
    if (would_have_resigned_[side]) stats.add_resign_check(result_for(result, game::Player(side)) < 0);
  if (would_have_drawn_) stats.add_draw_check(result != game::GameResult::Draw);
  stats.add_game(result, reason, total, total);
}

}  // namespace sz::selfplay
