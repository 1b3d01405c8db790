// The inference section's field list, read strictly through config/section.h.
#include "nn/inference_config.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "config/section.h"

namespace sz::nn {
namespace {

TEST(InferenceConfig, ParsesStrictly) {
  const auto c =
      config::parse_config<InferenceConfig>("device: cuda:1\nprecision: float16\nmax_batch: 512\n", "run.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->device, "cuda:1");
  EXPECT_EQ(c->precision, Precision::Float16);
  EXPECT_EQ(c->max_batch, 512);
  EXPECT_EQ(c->threads, 1);  // the default never oversubscribes a small machine
  for (const auto& [yaml, needle] :
       std::vector<std::pair<std::string, std::string>>{{"device: tpu\n", "'device'"},
                                                        {"threads: 0\n", "'threads' must be in"},
                                                        {"precision: float8\n", "'precision' must be one of"},
                                                        {"batch: 3\n", "unknown key 'batch'"}}) {
    const auto bad = config::parse_config<InferenceConfig>(yaml, "run.yaml");
    ASSERT_FALSE(bad.ok()) << yaml;
    EXPECT_NE(bad.error().find(needle), std::string::npos) << bad.error();
    EXPECT_EQ(bad.error().rfind("run.yaml:1:", 0), 0u) << bad.error();
  }
}

TEST(InferenceConfig, DeviceNames) {
  for (const char* ok : {"auto", "cpu", "cuda", "cuda:0", "cuda:12"}) EXPECT_TRUE(valid_device_name(ok)) << ok;
  for (const char* bad : {"", "gpu", "cuda:", "cuda:x", "cuda:-1", "cuda:1234", "CPU"})
    EXPECT_FALSE(valid_device_name(bad)) << bad;
}

}  // namespace
}  // namespace sz::nn
