#include <cmath>
#include <cstdio>

#include "core/json_writer.h"
#include "train/trainer.h"

namespace sz::train {

std::string metrics_json(const StepMetrics& m, double unix_time) {
  JsonWriter line;
  line.object(JsonWriter::Layout::Compact)
      .add("step", m.step)
      .add("time", unix_time, "%.3f")
      .add("loss", m.loss)
      .add("policy", m.policy)
      .add("wdl", m.wdl)
      .add("moves_left", m.moves_left)
      .add("lr", m.learning_rate)
      .add("samples_per_s", m.samples_per_s, "%.1f")
      .add("loader_wait", m.loader_wait, "%.4f")
      .add("window", m.window)
      .add("window_shards", m.window_shards)
      .add("positions_seen", m.positions_seen)
      .add("samples", m.samples)
      .close();
  return line.str();
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
