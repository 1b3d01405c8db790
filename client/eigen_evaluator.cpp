#include "client/eigen_evaluator.h"

#include <algorithm>

#include "core/error.h"
#include "net/net_rows.h"

namespace sz::client {

EigenEvaluator::EigenEvaluator(const EigenNet& net, int max_batch) : net_(net), max_batch_(std::max(1, max_batch)) {
  const game::GameSpec& s = net_.architecture().spec;
  planes_.resize(size_t(max_batch_) * size_t(s.binary_planes));
  scalars_.resize(size_t(max_batch_) * size_t(s.scalar_features));
  rows_.resize(size_t(max_batch_) * size_t(net_.output_stride()));
}

void EigenEvaluator::evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) {
  const game::GameSpec& spec = net_.architecture().spec;
  for (size_t first = 0; first < queries.size(); first += size_t(max_batch_)) {
    const int n = int(std::min(queries.size() - first, size_t(max_batch_)));
    for (int i = 0; i < n; ++i)
      net::encode_row(*queries[first + size_t(i)].state, spec, planes_.data(), scalars_.data(), i);
    net_.run(planes_.data(), scalars_.data(), n, rows_.data());
    if (!net::all_finite(rows_.data(), size_t(n) * size_t(net_.output_stride())))
      throw Error("the network's output is not finite (damaged weights?)");
    for (int i = 0; i < n; ++i)
      net::decode_row(rows_.data() + size_t(i) * size_t(net_.output_stride()), spec.action_space,
                      queries[first + size_t(i)], replies[first + size_t(i)]);
  }
}

}  // namespace sz::client
