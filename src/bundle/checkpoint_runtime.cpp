#include "bundle/checkpoint_runtime.h"

#include "bundle/export_bundle.h"
#include "client/eigen_evaluator.h"
#include "models/checkpoint.h"

namespace sz::bundle {

std::unique_ptr<search::Evaluator> checkpoint_on_client_runtime(const std::string& checkpoint,
                                                                const game::GameSpec& spec, int max_batch) {
  const models::LoadedNetwork loaded = models::load_network(checkpoint, spec);
  const client::EigenNet net(loaded.net->architecture(), network_tensors(*loaded.net), checkpoint);
  return std::make_unique<client::EigenEvaluator>(net, max_batch);
}

}  // namespace sz::bundle
