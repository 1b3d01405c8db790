#include "models/training.h"

namespace sz::models {

namespace {

// Cross-entropy of each row of `logits` against the target distribution rows: [N].
torch::Tensor soft_cross_entropy(const torch::Tensor& logits, const torch::Tensor& target) {
  return -(target * torch::log_softmax(logits.to(torch::kFloat), 1)).sum(1);
}

// Huber loss, written out: its LibTorch signature differs between releases.
torch::Tensor huber(const torch::Tensor& diff, double delta) {
  const torch::Tensor a = diff.abs();
  return torch::where(a < delta, 0.5 * a * a, delta * (a - 0.5 * delta));
}

}  // namespace

Losses compute_losses(const NetOutput& out, const LossBatch& batch, const LossWeights& w) {
  Losses losses;
  const torch::Tensor mask = batch.policy_mask.to(torch::kFloat);
  // Illegal actions out of the softmax: the network spends nothing on ruling them out, as at
  // inference, where only legal actions are read. A finite floor keeps 0 * log p at 0.
  const torch::Tensor logits =
      batch.legal.defined() ? out.policy.to(torch::kFloat).masked_fill(batch.legal.logical_not(), -1e9) : out.policy;
  const torch::Tensor policy = (soft_cross_entropy(logits, batch.policy) * mask).sum() / mask.sum().clamp_min(1.0);
  const torch::Tensor wdl = soft_cross_entropy(out.wdl, batch.wdl).mean();
  torch::Tensor total = w.policy * policy + w.wdl * wdl;
  losses.policy = policy.detach();
  losses.wdl = wdl.detach();
  losses.moves_left = torch::zeros({}, losses.policy.options());
  if (out.moves_left.defined() && batch.moves_left.defined()) {
    const torch::Tensor target = batch.moves_left.to(torch::kFloat) / net::kMovesLeftScale;
    const torch::Tensor moves = huber(out.moves_left.to(torch::kFloat) - target, w.huber_delta).mean();
    total = total + w.moves_left * moves;
    losses.moves_left = moves.detach();
  }
  losses.total = total;
  return losses;
}

std::string_view optimizer_name(OptimizerKind kind) { return kind == OptimizerKind::AdamW ? "adamw" : "sgd"; }

std::unique_ptr<torch::optim::Optimizer> make_optimizer(Network& net, const OptimizerConfig& c) {
  std::vector<torch::Tensor> decayed, other;
  for (const auto& item : net->named_parameters(/*recurse=*/true))
    (item.value().dim() > 1 ? decayed : other).push_back(item.value());  // conv and linear weights
  if (c.kind == OptimizerKind::AdamW) {
    auto options = torch::optim::AdamWOptions(c.learning_rate)
                       .betas({c.adam_beta1, c.adam_beta2})
                       .eps(c.adam_eps)
                       .weight_decay(c.weight_decay);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decayed, std::make_unique<torch::optim::AdamWOptions>(options));
    groups.emplace_back(
        other, std::make_unique<torch::optim::AdamWOptions>(torch::optim::AdamWOptions(options).weight_decay(0)));
    return std::make_unique<torch::optim::AdamW>(std::move(groups), options);
  }
  auto options =
      torch::optim::SGDOptions(c.learning_rate).momentum(c.momentum).nesterov(true).weight_decay(c.weight_decay);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(decayed, std::make_unique<torch::optim::SGDOptions>(options));
  groups.emplace_back(other,
                      std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(options).weight_decay(0)));
  return std::make_unique<torch::optim::SGD>(std::move(groups), options);
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double learning_rate) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(learning_rate);
}

}  // namespace sz::models
