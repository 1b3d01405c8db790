// libFuzzer target: a bundle's untrusted files. The input bytes as model.onnx (the reader of its
// weights) and as model.json (the JSON reader, then the strict field readers of a rule profile and
// of the network's architecture). Each may fail, but only with a message, never a crash; a
// model that parses must have tensors whose sizes match their shapes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "client/json_fields.h"
#include "client/onnx_weights.h"
#include "client/profile_json.h"
#include "core/json.h"
#include "net/net_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sz::client;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (const auto tensors = parse_onnx_weights(bytes, "fuzz")) {
    for (const Tensor& t : *tensors) {
      size_t n = 1;
      for (const int64_t d : t.shape) n *= size_t(d);
      if (n != t.data.size()) {
        std::fprintf(stderr, "bundle_fuzz: tensor '%s' has %zu values for its shape\n", t.name.c_str(), t.data.size());
        std::abort();
      }
    }
  }
  const auto doc = sz::parse_json(bytes, "fuzz");
  if (!doc) return 0;
  const sz::JsonAt root(*doc, "fuzz");
  try {
    (void)profile_from_json(root);
  } catch (const sz::Error&) {
  }
  try {
    sz::net::NetConfig net;
    JsonFieldReader reader(root);
    sz::net::fields(reader, net);
    reader.finish();
  } catch (const sz::Error&) {
  }
  return 0;
}
