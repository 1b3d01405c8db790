#include "games/chaturanga/state.h"

#include <algorithm>
#include <utility>

#include "games/chaturanga/action_space.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/encoder.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"

namespace sz::chaturanga {

game::GameSpec game_spec(Game game) {
  return {std::string(game_name(game)), kBinaryPlanes,       kScalarFeatures,  action_space_size(game), kEncoderVersion,
          kActionSpaceVersion,          policy_planes(game), policy_map(game), mirror_actions(game)};
}

State::State(const Position& start) : spec_(game_spec(start.rules().game)), pos_(start) { history_.reserve(512); }

void State::copy_from(const game::GameState& other) {
  const auto& o = static_cast<const State&>(other);  // same game, by contract
  pos_ = o.pos_;
  history_.assign(o.history_.begin(), o.history_.end());
}

game::Phase State::phase() const {
  return pos_.hand_count(White) + pos_.hand_count(Black) ? game::Phase::Placement : game::Phase::Play;
}

int State::legal_actions(std::span<game::ActionId> out) const {
  MoveList moves;
  generate_legal(pos_, moves);
  for (int i = 0; i < moves.size; ++i) out[size_t(i)] = action_of(pos_, moves.moves[i]);
  return moves.size;
}

void State::apply(game::ActionId action) {
  const Move m = move_of(pos_, action);
  history_.push_back(pos_.key());
  pos_.do_move(m);
}

game::Outcome State::outcome() const {
  const GameEnd end = adjudicate(pos_, history_);
  return {game_result(end.outcome), chaturanga::to_string(end.reason)};
}

int State::repetitions() const { return earlier_occurrences(pos_, history_); }

void State::encode(game::EncodedView out) const {
  chaturanga::encode(pos_, repetitions(), out.planes.first<kBinaryPlanes>(), out.scalars.first<kScalarFeatures>());
}

float State::draw_rule_progress() const {
  const int n_move = pos_.rules().n_move_plies;
  float progress = n_move > 0 ? float(pos_.rule50()) / float(n_move) : 0.0f;
  if (pos_.counting_limit() > 0)
    progress = std::max(progress, float(pos_.counting_ply()) / float(pos_.counting_limit()));
  return std::min(progress, 1.0f);
}

std::string State::action_to_string(game::ActionId action) const {
  return to_uci(move_of(pos_, action), pos_.rules().game);
}

std::string State::action_to_san(game::ActionId action) const { return to_san(pos_, move_of(pos_, action)); }

sz::Result<game::ActionId> State::parse_action(std::string_view text) const {
  auto m = parse_move(text, pos_);
  if (!m) return fail(m.error());
  return action_of(pos_, *m);
}

}  // namespace sz::chaturanga
