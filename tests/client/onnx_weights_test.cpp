// model.onnx as `export` writes it (src/bundle/onnx_model.h) and as the runtime reads it
// (client/onnx_weights.h): the weights read back exactly; every truncation and a foreign file are
// refused with a message naming the file; a graph whose weights do not fit the architecture is
// refused by the exporter.
#include "client/onnx_weights.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "bundle/export_bundle.h"
#include "bundle/onnx_model.h"
#include "games/registry.h"
#include "models/network.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace sz::client {
namespace {

struct Exported {
  net::Architecture arch;
  std::vector<Tensor> tensors;
  std::string onnx;
};

Exported tiny_onnx() {
  Exported e{{net::load_net_config("tiny").take_or_throw(), games::spec_for("sittuyin").take_or_throw()}, {}, {}};
  torch::manual_seed(5);
  models::Network net(e.arch);
  e.tensors = bundle::network_tensors(*net);
  e.onnx = bundle::onnx_model_bytes(e.arch, e.tensors, "test");
  return e;
}

std::string error_of(std::string_view bytes) {
  const auto parsed = parse_onnx_weights(bytes, "m.onnx");
  return parsed ? "" : parsed.error();
}

TEST(OnnxWeights, ReadsBackEveryWeightExactly) {
  const Exported e = tiny_onnx();
  const auto parsed = parse_onnx_weights(e.onnx, "m.onnx");
  ASSERT_TRUE(parsed) << parsed.error();
  ASSERT_EQ(parsed->size(), e.tensors.size());  // the graph's constants are passed over
  std::map<std::string, const Tensor*> by_name;
  for (const Tensor& t : *parsed) by_name[t.name] = &t;
  for (const Tensor& want : e.tensors) {
    ASSERT_TRUE(by_name.count(want.name)) << want.name;
    EXPECT_EQ(by_name[want.name]->shape, want.shape) << want.name;
    EXPECT_EQ(by_name[want.name]->data, want.data) << want.name;
  }
}

// A model written by another protobuf writer: the fuzzer's seed, put together by hand (dims
// unpacked, a constant among the initializers, fields the reader does not need).
TEST(OnnxWeights, ReadsAModelOfAnotherWriter) {
  const std::string seed = test::read_file(test::source_dir() + "/tests/fuzz/corpus/bundle/model.onnx");
  ASSERT_FALSE(seed.empty());
  const auto parsed = parse_onnx_weights(seed, "seed");
  ASSERT_TRUE(parsed) << parsed.error();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].name, "stem.weight");
  EXPECT_EQ((*parsed)[0].shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ((*parsed)[0].data, (std::vector<float>{0.5f, -1.0f, 2.0f, 0.0f}));
}

// bundle_fuzz's find: an initializer whose float data is an empty field made the reader memcpy
// from a null pointer (undefined; UBSan stops there: scripts/sanitize.sh, scripts/fuzz.sh). Its
// input, refused for the initializer's missing name.
TEST(OnnxWeights, AnEmptyFloatFieldIsReadWithoutCopyingFromNull) {
  const std::string input(
      "\x08\x08\x12\x0d\x73\x69\x74\x74\x75\x79\x69\x6e\x2d\x7a\x65\x72\x6f\x3a\x4e\x10\x2a\x25\x08\x02\x08\x02\x10"
      "\x01\x42\x0b\x73\x74\x65\x6d\x2e\x77\x65\x69\x67\x68\x74\x4a\x10\x00\x00\x00\x3f\x00\x00\x80\xbf\x00\x00\x00"
      "\x40\x00\x00\x00\x07\x10\x08\x2a\x02\x22\x00\x42\x0a\x63\x6f\x6e\x73\x74\x2e\x61\x78\x65\x22\x25\x25\x25\x25"
      "\x25\x25\x25\x25\x25\x25\x25\x25\x25\x72\x63\x22\x46\x61\x69\x72\x79",
      98);
  const std::string error = error_of(input);
  EXPECT_EQ(error.rfind("m.onnx: ", 0), 0u) << error;
  EXPECT_NE(error.find("an initializer without a name"), std::string::npos) << error;
}

TEST(OnnxWeights, RefusesEveryTruncationAndForeignFiles) {
  const std::string onnx = tiny_onnx().onnx;
  // Every prefix is refused (a coarse stride over the large initializers, every byte near the ends).
  for (size_t n = 0; n < onnx.size(); n += (n < 4096 || n + 4096 > onnx.size()) ? 1 : 997)
    ASSERT_NE(error_of(std::string_view(onnx).substr(0, n)), "") << "a prefix of " << n << " of " << onnx.size();
  EXPECT_EQ(error_of(""), "m.onnx: empty (not an ONNX model)");
  EXPECT_EQ(error_of("PK\x03\x04 a zip file"),
            "m.onnx: not a complete ONNX model: an invalid field tag at byte 3 (a truncated file, or not an ONNX "
            "file)");
  EXPECT_NE(error_of("{\"format\": \"sittuyin-zero-bundle\"}").find("m.onnx: not a"), std::string::npos);
  EXPECT_EQ(error_of(std::string("\x08\x08", 2)), "m.onnx: not an ONNX model (it has no graph)");
  EXPECT_EQ(read_onnx_weights("/nonexistent/m.onnx").error(), "/nonexistent/m.onnx: cannot open the model");
}

TEST(OnnxModel, RefusesWeightsOfAnotherArchitecture) {
  Exported e = tiny_onnx();
  net::Architecture wider = e.arch;
  wider.net.channels += 8;
  EXPECT_THROW(
      {
        try {
          bundle::onnx_model_bytes(wider, e.tensors, "test");
        } catch (const Error& error) {
          EXPECT_STREQ(error.what(), "model.onnx: tensor 'stem.weight' is not of the architecture's shape");
          throw;
        }
      },
      Error);
  e.tensors.push_back({"extra.weight", {1}, {0.0f}});
  EXPECT_THROW(bundle::onnx_model_bytes(e.arch, e.tensors, "test"), Error);
}

}  // namespace
}  // namespace sz::client
