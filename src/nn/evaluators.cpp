#include "nn/evaluators.h"

#include <mutex>
#include <thread>

#include "models/checkpoint_meta.h"
#include "nn/inference_service.h"
#include "nn/net_evaluator.h"
#include "nn/net_runner.h"

namespace sz::nn {

namespace {

// A worker's handle on the shared service.
class ServiceClient final : public search::Evaluator {
 public:
  explicit ServiceClient(std::shared_ptr<InferenceService> service) : service_(std::move(service)) {}
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override {
    service_->evaluate(queries, replies);
  }

 private:
  std::shared_ptr<InferenceService> service_;
};

}  // namespace

search::EvaluatorFactory evaluator_factory(const std::string& model, const game::GameSpec& spec,
                                           const InferenceConfig& config, int clients) {
  if (model.empty()) return [](int) { return std::make_unique<search::UniformEvaluator>(); };
  models::check_encoding(spec, models::read_checkpoint_meta(model), model);  // fail now, not in a worker
  const bool cuda = resolve_device(config.device).starts_with("cuda");
  if (cuda || clients > int(std::thread::hardware_concurrency())) {
    InferenceConfig inference = config;
    if (!cuda) inference.max_batch = clients;
    auto once = std::make_shared<std::once_flag>();
    auto service = std::make_shared<std::shared_ptr<InferenceService>>();
    return [model, spec, inference, once, service](int) -> std::unique_ptr<search::Evaluator> {
      std::call_once(*once, [&] {
        *service = std::make_shared<InferenceService>(NetRunner::from_checkpoint(model, spec, inference), inference);
      });
      return std::make_unique<ServiceClient>(*service);
    };
  }
  return [model, spec, config](int) -> std::unique_ptr<search::Evaluator> {
    return std::make_unique<NetEvaluator>(NetRunner::from_checkpoint(model, spec, config));
  };
}

}  // namespace sz::nn
