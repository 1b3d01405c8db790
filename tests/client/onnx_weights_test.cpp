// The weights file: tensors read back as written; a foreign, truncated, damaged or newer file is
// refused with a message naming it.
#include "client/weights_file.h"

#include <gtest/gtest.h>

namespace sz::client {
namespace {

std::vector<Tensor> sample() {
  return {{"stem.weight", {2, 1, 3, 3}, std::vector<float>(18, 0.5f)}, {"fc.bias", {3}, {1.0f, -2.0f, 3.5f}}};
}

std::string error_of(const std::string& bytes) {
  const auto parsed = parse_weights(bytes, "w.bin");
  return parsed ? "" : parsed.error();
}

TEST(WeightsFile, ReadsBackWhatItWrote) {
  const auto parsed = parse_weights(weights_bytes(sample()), "w.bin");
  ASSERT_TRUE(parsed) << parsed.error();
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ((*parsed)[0].name, "stem.weight");
  EXPECT_EQ((*parsed)[0].shape, (std::vector<int64_t>{2, 1, 3, 3}));
  EXPECT_EQ((*parsed)[1].data, (std::vector<float>{1.0f, -2.0f, 3.5f}));
}

TEST(WeightsFile, RefusesForeignTruncatedDamagedAndNewerFiles) {
  const std::string good = weights_bytes(sample());
  EXPECT_EQ(error_of("PK\x03\x04 a zip file, not weights"),
            "w.bin: not a sittuyin-zero weights file (it does not start with 'SZWEIGHT')");
  EXPECT_EQ(error_of(""), "w.bin: not a sittuyin-zero weights file (it does not start with 'SZWEIGHT')");
  EXPECT_EQ(error_of(good.substr(0, 10)), "w.bin: truncated (it ends inside the format version, at byte 8)");
  EXPECT_EQ(error_of(good.substr(0, good.size() - 5)), "w.bin: checksum mismatch: the file is truncated or damaged");
  std::string damaged = good;
  damaged[40] ^= 1;
  EXPECT_EQ(error_of(damaged), "w.bin: checksum mismatch: the file is truncated or damaged");
  std::string newer = good;
  newer[8] = 2;
  EXPECT_EQ(error_of(newer), "w.bin: weights format version 2, but this runtime reads version 1");
  EXPECT_EQ(read_weights("/nonexistent/w.bin").error(), "/nonexistent/w.bin: cannot open the weights file");
}

}  // namespace
}  // namespace sz::client
