#pragma once
// The search's Evaluator (search/evaluator.h) over the Eigen network: encodes the queries,
// runs them in batches and decodes the rows exactly as the LibTorch evaluator does
// (net/net_rows.h). Not thread-safe: one per thread. Its own buffers are sized once; the
// forward pass allocates as EigenNet::run says.
#include <vector>

#include "client/eigen_net.h"
#include "search/evaluator.h"

namespace sz::client {

class EigenEvaluator final : public search::Evaluator {
 public:
  // Copies `net` (its weights and buffers are this evaluator's own).
  explicit EigenEvaluator(const EigenNet& net, int max_batch = 16);

  // Throws sz::Error for a position of another encoding than the network's.
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override;

 private:
  EigenNet net_;
  int max_batch_;
  std::vector<uint64_t> planes_;
  std::vector<float> scalars_, rows_;
};

}  // namespace sz::client
