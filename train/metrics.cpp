#include <cmath>
#include <cstdio>

#include "train/trainer.h"

namespace sz::train {

namespace {

// JSON has no NaN or infinity: a diverged loss is written as null.
std::string number(double v, const char* format = "%.6g") {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

std::string metrics_json(const StepMetrics& m, double unix_time) {
  std::string s = "{\"step\":" + std::to_string(m.step);
  s += ",\"time\":" + number(unix_time, "%.3f");
  s += ",\"loss\":" + number(m.loss);
  s += ",\"policy\":" + number(m.policy);
  s += ",\"wdl\":" + number(m.wdl);
  s += ",\"moves_left\":" + number(m.moves_left);
  s += ",\"lr\":" + number(m.learning_rate);
  s += ",\"samples_per_s\":" + number(m.samples_per_s, "%.1f");
  s += ",\"loader_wait\":" + number(m.loader_wait, "%.4f");
  s += ",\"window\":" + std::to_string(m.window);
  s += ",\"window_shards\":" + std::to_string(m.window_shards);
  s += ",\"positions_seen\":" + std::to_string(m.positions_seen);
  s += ",\"samples\":" + std::to_string(m.samples) + "}";
  return s;
}

std::string progress_line(const StepMetrics& m) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "step %lld  loss %.4f (policy %.4f, wdl %.4f, moves-left %.4f)  lr %.3g  %.0f samples/s  "
                "window %lld (%lld shards) of %lld positions",
                static_cast<long long>(m.step), m.loss, m.policy, m.wdl, m.moves_left, m.learning_rate,
                m.samples_per_s, static_cast<long long>(m.window), static_cast<long long>(m.window_shards),
                static_cast<long long>(m.positions_seen));
  return buf;
}

}  // namespace sz::train
