#include "train/schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace sz::train {

int64_t window_size(const TrainConfig& c, int64_t total) {
  if (total <= 0) return 0;
  const double grown = c.window_scale * std::pow(double(total), c.window_exponent);
  const double size = std::min(double(c.window_cap), std::max(double(c.window_floor), grown));
  return std::min(total, int64_t(size));
}

double learning_rate_at(const TrainConfig& c, int64_t step) {
  const double base = c.optimizer.learning_rate;
  if (step < c.warmup_steps) return base * double(step + 1) / double(c.warmup_steps);
  switch (c.lr_schedule) {
    case LrSchedule::Constant:
      return base;
    case LrSchedule::Step:
      return base * std::pow(c.lr_step_factor, double(step / c.lr_step_every));
    case LrSchedule::Cosine: {
      const double t = std::min(1.0, double(step - c.warmup_steps) / double(c.lr_decay_steps));
      const double floor = base * c.lr_final_fraction;
      return floor + (base - floor) * 0.5 * (1.0 + std::cos(std::numbers::pi * t));
    }
  }
  return base;
}

int64_t allowed_steps(const TrainConfig& c, int64_t total) {
  if (c.replay_ratio <= 0) return std::numeric_limits<int64_t>::max();
  // Whole samples first, so that the cap does not depend on rounding in the division.
  const double samples = std::floor(double(total) * c.replay_ratio);
  return int64_t(samples) / c.batch_size;
}

}  // namespace sz::train
