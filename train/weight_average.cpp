#include "train/weight_average.h"

#include <algorithm>

namespace sz::train {

void copy_weights(const models::Network& from, models::Network& to) {
  torch::NoGradGuard no_grad;
  const auto fp = from->parameters(), tp = to->parameters();
  for (size_t i = 0; i < fp.size(); ++i) tp[i].copy_(fp[i]);
  const auto fb = from->buffers(), tb = to->buffers();
  for (size_t i = 0; i < fb.size(); ++i) tb[i].copy_(fb[i]);
}

double average_decay(double decay, int64_t step) {
  const double s = double(step);
  return std::min(decay, (1 + s) / (10 + s));
}

void move_average(models::Network& averaged, const models::Network& net, double decay) {
  torch::NoGradGuard no_grad;
  const auto from = net->parameters(), to = averaged->parameters();
  for (size_t k = 0; k < from.size(); ++k) to[k].lerp_(from[k].detach(), 1 - decay);
  const auto from_buffers = net->buffers(), to_buffers = averaged->buffers();
  for (size_t k = 0; k < from_buffers.size(); ++k) {
    if (at::isFloatingType(to_buffers[k].scalar_type()))
      to_buffers[k].lerp_(from_buffers[k], 1 - decay);
    else
      to_buffers[k].copy_(from_buffers[k]);
  }
}

}  // namespace sz::train
