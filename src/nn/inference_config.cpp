#include "nn/inference_config.h"

#include <algorithm>
#include <fstream>
#include <string>

namespace sz::nn {

bool valid_device_name(const std::string& device) {
  if (device == "auto" || device == "cpu" || device == "cuda") return true;
  const bool digits = std::all_of(device.begin() + std::min<size_t>(5, device.size()), device.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  return device.starts_with("cuda:") && device.size() > 5 && device.size() <= 8 && digits;
}

std::string_view precision_name(Precision precision) {
  for (const auto& [name, value] : kPrecisionNames)
    if (value == precision) return name;
  return "float32";
}

bool cpu_has_native_bfloat16() {
  static const bool native = [] {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
      if (!line.starts_with("flags")) continue;
      return line.find(" avx512_bf16") != std::string::npos || line.find(" amx_bf16") != std::string::npos;
    }
    return false;
  }();
  return native;
}

Precision resolve_precision(Precision precision, bool cuda) {
  if (precision != Precision::Auto) return precision;
  return !cuda && cpu_has_native_bfloat16() ? Precision::BFloat16 : Precision::Float32;
}

}  // namespace sz::nn
