#include "nn/net_evaluator.h"

#include <algorithm>

#include "net/net_rows.h"

namespace sz::nn {

NetEvaluator::NetEvaluator(std::unique_ptr<NetRunner> runner) : runner_(std::move(runner)) {}

void NetEvaluator::evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) {
  const game::GameSpec& spec = runner_->architecture().spec;
  for (size_t first = 0; first < queries.size(); first += size_t(runner_->max_batch())) {
    const int n = int(std::min(queries.size() - first, size_t(runner_->max_batch())));
    for (int i = 0; i < n; ++i)
      net::encode_row(*queries[first + size_t(i)].state, spec, runner_->input_planes(), runner_->input_scalars(), i);
    const OutputRows out = runner_->run(n);
    for (int i = 0; i < n; ++i)
      net::decode_row(out.row(i), spec.action_space, queries[first + size_t(i)], replies[first + size_t(i)]);
  }
}

}  // namespace sz::nn
