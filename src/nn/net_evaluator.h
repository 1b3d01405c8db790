#pragma once
// search::Evaluator on a network: encodes the queries' positions into the runner's staging rows,
// one forward pass per max_batch positions, priors softmaxed over each query's legal actions
// (an illegal action's prior is exactly zero), WDL softmax, moves left. Torch-free header.
#include <memory>
#include <span>

#include "nn/net_runner.h"
#include "search/evaluator.h"

namespace sz::nn {

// Not thread-safe: one caller at a time. To share a network among search threads, use
// InferenceService, which batches their queries.
class NetEvaluator final : public search::Evaluator {
 public:
  explicit NetEvaluator(std::unique_ptr<NetRunner> runner);
  // Throws sz::Error for a position of another game or encoding, or a torch failure.
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override;
  NetRunner& runner() { return *runner_; }

 private:
  std::unique_ptr<NetRunner> runner_;
};

}  // namespace sz::nn
