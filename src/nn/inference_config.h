#pragma once
// How a network runs at inference (the `inference` section of a run config): a plain struct with
// every default in one place and its field list (the visitor interface of config/section.h),
// torch-free and yaml-free.
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace sz::nn {

// auto: bfloat16 on a CPU that computes it natively (AVX512_BF16 or AMX), float32 elsewhere
// (resolve_precision).
enum class Precision { Float32, Float16, BFloat16, Auto };

// The precisions by name, as configs spell them.
inline constexpr std::initializer_list<std::pair<const char*, Precision>> kPrecisionNames = {
    {"float32", Precision::Float32},
    {"float16", Precision::Float16},
    {"bfloat16", Precision::BFloat16},
    {"auto", Precision::Auto}};
std::string_view precision_name(Precision precision);

// Whether this machine's CPU has native bfloat16 arithmetic (/proc/cpuinfo: avx512_bf16 or amx_bf16).
bool cpu_has_native_bfloat16();
// `precision` with auto resolved for a device (cuda: float32; cpu: cpu_has_native_bfloat16()).
Precision resolve_precision(Precision precision, bool cuda);

// Whether `device` names a device the way resolve_device reads it: auto, cpu, cuda or cuda:N.
bool valid_device_name(const std::string& device);

// Defaults never oversubscribe a small machine: one torch intra-op thread per evaluator
// (measured on 2 cores: two intra-op threads inside one evaluator collapsed 10-100x as soon as
// anything else used a core).
struct InferenceConfig {
  std::string device = "auto";               // auto | cpu | cuda | cuda:N
  Precision precision = Precision::Float32;  // float16: CUDA only; bfloat16: CPU only
  int threads = 1;                           // torch intra-op threads, set once per process
  int max_batch = 256;                       // positions per forward pass
  int max_wait_us = 1000;                    // a partial batch runs after this long
  int cache_entries = 1 << 16;               // 0: no cache
  int cache_shards = 16;

  bool operator==(const InferenceConfig&) const = default;
};

template <typename V>
void fields(V& v, InferenceConfig& c) {
  v.text("device", c.device);
  v.choice("precision", c.precision, kPrecisionNames);
  v.num("threads", c.threads, 1, 256);
  v.num("max_batch", c.max_batch, 1, 65536);
  v.num("max_wait_us", c.max_wait_us, 0, 1'000'000);
  v.num("cache_entries", c.cache_entries, 0, 1 << 28);
  v.num("cache_shards", c.cache_shards, 1, 1024);
  v.check(valid_device_name(c.device), "device", "must be auto, cpu, cuda or cuda:N, not '" + c.device + "'");
}

}  // namespace sz::nn
