#include "nn/inference_config.h"

#include <algorithm>

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

}  // namespace sz::nn
