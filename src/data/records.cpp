#include "data/records.h"

#include <cmath>

#include "core/error.h"

namespace sz::data {

namespace {

std::string str(std::string_view s) { return std::string(s); }

}  // namespace

void PositionColumns::clear() {
  planes.clear();
  scalars.clear();
  policy_start.clear();
  policy_count.clear();
  policy_action.clear();
  policy_prob.clear();
  result.clear();
  action.clear();
  phase.clear();
  ply.clear();
  full_search.clear();
  plies_to_end.clear();
  search_wdl.clear();
  has_search_value.clear();
  policy_target.clear();
  legal_count.clear();
  material.clear();
}

void PositionColumns::append(const PositionRow& row) {
  if (int64_t(row.planes.size()) != binary_planes || int64_t(row.scalars.size()) != scalar_features) {
    throw Error("position row has " + std::to_string(row.planes.size()) + " planes and " +
                std::to_string(row.scalars.size()) + " scalars; expected " + std::to_string(binary_planes) + " and " +
                std::to_string(scalar_features));
  }
  planes.insert(planes.end(), row.planes.begin(), row.planes.end());
  scalars.insert(scalars.end(), row.scalars.begin(), row.scalars.end());
  policy_start.push_back(int64_t(policy_action.size()));
  policy_count.push_back(int32_t(row.policy.size()));
  for (const PolicyEntry& e : row.policy) {
    policy_action.push_back(e.action);
    policy_prob.push_back(e.prob);
  }
  result.push_back(row.result);
  action.push_back(row.action);
  phase.push_back(row.phase == game::Phase::Placement ? 0 : 1);
  ply.push_back(row.ply);
  full_search.push_back(row.full_search ? 1 : 0);
  plies_to_end.push_back(row.plies_to_end);
  search_wdl.insert(search_wdl.end(), row.search_wdl.begin(), row.search_wdl.end());
  has_search_value.push_back(row.has_search_value ? 1 : 0);
  policy_target.push_back(row.policy_target ? 1 : 0);
  legal_count.push_back(row.legal_count);
  material.push_back(row.material);
}

void PositionColumns::append(const PositionColumns& other) {
  if (other.binary_planes != binary_planes || other.scalar_features != scalar_features) {
    throw Error("cannot append positions of " + std::to_string(other.binary_planes) + " planes and " +
                std::to_string(other.scalar_features) + " scalars to columns of " + std::to_string(binary_planes) +
                " and " + std::to_string(scalar_features));
  }
  const int64_t base = int64_t(policy_action.size());
  planes.insert(planes.end(), other.planes.begin(), other.planes.end());
  scalars.insert(scalars.end(), other.scalars.begin(), other.scalars.end());
  for (int64_t s : other.policy_start) policy_start.push_back(base + s);
  policy_count.insert(policy_count.end(), other.policy_count.begin(), other.policy_count.end());
  policy_action.insert(policy_action.end(), other.policy_action.begin(), other.policy_action.end());
  policy_prob.insert(policy_prob.end(), other.policy_prob.begin(), other.policy_prob.end());
  result.insert(result.end(), other.result.begin(), other.result.end());
  action.insert(action.end(), other.action.begin(), other.action.end());
  phase.insert(phase.end(), other.phase.begin(), other.phase.end());
  ply.insert(ply.end(), other.ply.begin(), other.ply.end());
  full_search.insert(full_search.end(), other.full_search.begin(), other.full_search.end());
  plies_to_end.insert(plies_to_end.end(), other.plies_to_end.begin(), other.plies_to_end.end());
  search_wdl.insert(search_wdl.end(), other.search_wdl.begin(), other.search_wdl.end());
  has_search_value.insert(has_search_value.end(), other.has_search_value.begin(), other.has_search_value.end());
  policy_target.insert(policy_target.end(), other.policy_target.begin(), other.policy_target.end());
  legal_count.insert(legal_count.end(), other.legal_count.begin(), other.legal_count.end());
  material.insert(material.end(), other.material.begin(), other.material.end());
}

std::span<const uint64_t> PositionColumns::planes_of(int64_t i) const {
  return std::span<const uint64_t>(planes).subspan(size_t(i * binary_planes), size_t(binary_planes));
}

std::span<const float> PositionColumns::scalars_of(int64_t i) const {
  return std::span<const float>(scalars).subspan(size_t(i * scalar_features), size_t(scalar_features));
}

std::span<const int32_t> PositionColumns::policy_actions_of(int64_t i) const {
  return std::span<const int32_t>(policy_action)
      .subspan(size_t(policy_start[size_t(i)]), size_t(policy_count[size_t(i)]));
}

std::span<const float> PositionColumns::policy_probs_of(int64_t i) const {
  return std::span<const float>(policy_prob).subspan(size_t(policy_start[size_t(i)]), size_t(policy_count[size_t(i)]));
}

void PositionColumns::check_consistent(std::string_view context) const {
  const size_t n = result.size();
  auto fail = [&](const std::string& what) { throw Error(str(context) + ": " + what); };
  if (binary_planes < 0 || scalar_features < 0) fail("negative plane or scalar count");
  if (planes.size() != n * size_t(binary_planes)) fail("planes do not match the number of positions");
  if (scalars.size() != n * size_t(scalar_features)) fail("scalars do not match the number of positions");
  for (size_t len :
       {policy_start.size(), policy_count.size(), action.size(), phase.size(), ply.size(), full_search.size(),
        plies_to_end.size(), has_search_value.size(), policy_target.size(), legal_count.size(), material.size()}) {
    if (len != n) fail("position columns differ in length");
  }
  if (search_wdl.size() != 3 * n) fail("search_wdl does not match the number of positions");
  if (policy_action.size() != policy_prob.size()) fail("policy actions and probabilities differ in length");
  int64_t next = 0;
  for (size_t i = 0; i < n; ++i) {
    if (policy_start[i] != next || policy_count[i] < 0) {
      fail("position " + std::to_string(i) + ": policy range is not consecutive");
    }
    next += policy_count[i];
  }
  if (next != int64_t(policy_action.size())) fail("policy ranges do not cover the policy entries");
}

void check_position_values(const PositionColumns& p, const game::GameSpec& spec, const std::string& where,
                           int64_t first_row) {
  for (int64_t i = 0; i < p.size(); ++i) {
    auto fail = [&](const std::string& what) {
      throw Error(where + ": position " + std::to_string(first_row + i) + ": " + what);
    };
    const size_t k = size_t(i);
    if (p.result[k] < -1 || p.result[k] > 1) fail("result " + std::to_string(p.result[k]) + " is not +1, 0 or -1");
    const float* wdl = p.search_wdl.data() + 3 * k;
    const float sum = wdl[0] + wdl[1] + wdl[2];
    if (!(wdl[0] >= 0 && wdl[1] >= 0 && wdl[2] >= 0 && sum > 0.99f && sum < 1.01f))
      fail("search_wdl is not a win/draw/loss distribution");
    if (p.action[k] < 0 || p.action[k] >= spec.action_space) {
      fail("action " + std::to_string(p.action[k]) + " is outside [0, " + std::to_string(spec.action_space) + ")");
    }
    if (p.phase[k] > 1) fail("phase " + std::to_string(p.phase[k]) + " is not 0 or 1");
    if (p.full_search[k] > 1) fail("full_search " + std::to_string(p.full_search[k]) + " is not 0 or 1");
    if (p.ply[k] < 0 || p.plies_to_end[k] < 0) fail("negative ply or plies_to_end");
    if (p.has_search_value[k] > 1 || p.policy_target[k] > 1) fail("has_search_value or policy_target is not 0 or 1");
    if (p.legal_count[k] < 0 || p.legal_count[k] > spec.action_space) fail("legal_count out of range");
    if (std::isinf(p.material[k])) fail("material is infinite");
    for (float s : p.scalars_of(i))
      if (!std::isfinite(s)) fail("a scalar feature is not finite");
    for (int32_t a : p.policy_actions_of(i)) {
      if (a < 0 || a >= spec.action_space) {
        fail("policy action " + std::to_string(a) + " is outside [0, " + std::to_string(spec.action_space) + ")");
      }
    }
    for (float prob : p.policy_probs_of(i))
      if (!(prob >= 0 && prob <= 1)) fail("a policy probability is not in [0, 1]");
  }
}

std::string result_text(int result) {
  switch (result) {
    case 1:
      return "1-0";
    case -1:
      return "0-1";
    case 0:
      return "1/2-1/2";
    default:
      throw Error("game result " + std::to_string(result) + " is not +1, 0 or -1");
  }
}

}  // namespace sz::data
