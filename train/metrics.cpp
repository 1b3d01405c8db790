#include <cmath>
#include <cstdio>

#include "core/json.h"
#include "train/trainer.h"

namespace sz::train {

std::string metrics_json(const StepMetrics& m, double unix_time) {
  return JsonLine()
      .integer("step", m.step)
      .number("time", unix_time, "%.3f")
      .number("loss", m.loss)
      .number("policy", m.policy)
      .number("wdl", m.wdl)
      .number("moves_left", m.moves_left)
      .number("lr", m.learning_rate)
      .number("samples_per_s", m.samples_per_s, "%.1f")
      .number("loader_wait", m.loader_wait, "%.4f")
      .integer("window", m.window)
      .integer("window_shards", m.window_shards)
      .integer("positions_seen", m.positions_seen)
      .integer("samples", m.samples)
      .str();
}

std::string progress_line(const StepMetrics& m) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "step %lld  loss %.4f (policy %.4f, wdl %.4f, moves-left %.4f)  lr %.3g  %.0f samples/s  "
                "window %lld (%lld shards) of %lld positions",
                static_cast<long long>(m.step), m.loss, m.policy, m.wdl, m.moves_left, m.learning_rate, m.samples_per_s,
                static_cast<long long>(m.window), static_cast<long long>(m.window_shards),
                static_cast<long long>(m.positions_seen));
  return buf;
}

}  // namespace sz::train
