#include "placement/network_values.h"

#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "games/formation_play.h"
#include "games/registry.h"

namespace sz::placement {

namespace {

struct Evaluation {
  float value = 0;  // W - L for the side to move
  std::vector<float> priors;
};

Evaluation evaluate(search::Evaluator& net, const game::GameState& state, std::span<const game::ActionId> actions) {
  Evaluation e;
  e.priors.assign(actions.size(), 0.0f);
  search::EvalQuery query{&state, actions};
  search::EvalReply reply;
  reply.priors = e.priors;
  net.evaluate({&query, 1}, {&reply, 1});
  e.value = reply.wdl[0] - reply.wdl[2];
  return e;
}

// The value for `colour` of the position `state` (after placement).
double value_for(search::Evaluator& net, const game::GameState& state, int colour) {
  const int mover = state.to_move() == game::Player::First ? 0 : 1;
  std::array<game::ActionId, game::kMaxActions> actions{};
  const int n = state.legal_actions(actions);
  const double v = evaluate(net, state, {actions.data(), size_t(n)}).value;
  return mover == colour ? v : -v;
}

double games_value(search::Evaluator& net, const std::string& profile, const std::vector<std::string>& fens,
                   int colour) {
  double sum = 0;
  int n = 0;
  for (const std::string& fen : fens) {
    auto state = games::new_game(profile, fen);
    if (!state) continue;
    sum += value_for(net, **state, colour);
    ++n;
  }
  return n ? sum / n : NAN;
}

// Plays `f` for `colour` against the network's most likely drops; sets `reply` to the other
// side's formation.
double reply_value(search::Evaluator& net, const std::string& profile, const Formation& f, int colour,
                   std::string& reply) {
  std::unique_ptr<game::GameState> state = games::new_game(profile).take_or_throw("profile " + profile);
  std::array<game::ActionId, game::kMaxActions> actions{};
  while (state->phase() == game::Phase::Placement) {
    const int mover = state->to_move() == game::Player::First ? 0 : 1;
    if (mover == colour) {
      const auto drop = games::next_formation_drop(*state, f);
      if (!drop) return NAN;
      state->apply(*drop);
      continue;
    }
    const int n = state->legal_actions(actions);
    if (n == 0) return NAN;
    const Evaluation e = evaluate(net, *state, {actions.data(), size_t(n)});
    size_t best = 0;
    for (size_t i = 1; i < e.priors.size(); ++i)
      if (e.priors[i] > e.priors[best]) best = i;
    state->apply(actions[best]);
  }
  const auto men = men_of_fen(state->to_string());
  if (men) reply = formation_text((*men)[size_t(1 - colour)].formation);
  return value_for(net, *state, colour);
}

}  // namespace

FormationValues formation_values(const ProfileStats& stats, search::Evaluator& net, int top,
                                 const std::function<void(const std::string&)>& progress) {
  FormationValues values;
  for (int colour = 0; colour < 2; ++colour) {
    const auto formations = top_formations(stats, colour, top);
    for (size_t i = 0; i < formations.size(); ++i) {
      const std::string& text = formations[i].first;
      FormationValue v;
      const auto fens = stats.fens[size_t(colour)].find(text);
      v.games_value =
          fens == stats.fens[size_t(colour)].end() ? NAN : games_value(net, stats.profile, fens->second, colour);
      v.reply_value = reply_value(net, stats.profile, parse_formation(text).take_or_throw(text), colour, v.reply);
      values[size_t(colour)][text] = v;
    }
    if (progress) {
      progress(stats.profile + ": the network's values of " + std::to_string(formations.size()) + " " +
               (colour ? "black" : "white") + " formations");
    }
  }
  return values;
}

}  // namespace sz::placement
