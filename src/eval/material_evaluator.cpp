#include "eval/material_evaluator.h"

#include <array>
#include <bit>
#include <cmath>

#include "core/error.h"

namespace sz::eval {

namespace {

constexpr int kPlanes = 12, kScalars = 32, kEncoder = 1;
constexpr std::array<float, 6> kOnBoard = {1, 3, 2.5f, 1.5f, 5, 0};  // P N elephant met R K
constexpr std::array<float, 5> kInHand = {0, 1.5f, 2.5f, 3, 5};      // K met khon N R

}  // namespace

float material_balance(const game::GameState& state) {
  const game::GameSpec& spec = state.spec();
  if (spec.encoder_version != kEncoder || spec.binary_planes != kPlanes || spec.scalar_features != kScalars)
    throw Error("material evaluator: game '" + spec.game + "' has encoder " + std::to_string(spec.encoder_version) +
                ", not the chaturanga encoder " + std::to_string(kEncoder));
  std::array<uint64_t, kPlanes> planes{};
  std::array<float, kScalars> scalars{};
  state.encode({planes, scalars});
  float balance = 0;
  for (size_t t = 0; t < kOnBoard.size(); ++t)
    balance += kOnBoard[t] * float(std::popcount(planes[t]) - std::popcount(planes[t + 6]));
  for (size_t t = 0; t < kInHand.size(); ++t) balance += kInHand[t] * 2 * (scalars[t] - scalars[t + 5]);  // count / 2
  return balance;
}

void MaterialEvaluator::evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) {
  for (size_t i = 0; i < queries.size(); ++i) {
    search::EvalReply& r = replies[i];
    const float p = queries[i].actions.empty() ? 0.0f : 1.0f / float(queries[i].actions.size());
    for (float& prior : r.priors) prior = p;
    const float q = std::tanh(material_balance(*queries[i].state) / 5.0f);
    r.wdl[0] = std::max(q, 0.0f);
    r.wdl[2] = std::max(-q, 0.0f);
    r.wdl[1] = 1.0f - std::fabs(q);
    r.moves_left = 0;
  }
}

}  // namespace sz::eval
