#pragma once
// The network's weights as the client runtime reads them: the float32 initializers of a bundle's
// model.onnx (written by `sittuyin-zero export`, src/bundle/onnx_model.h), named and shaped as
// LibTorch names and shapes the network's parameters and batch-norm buffers. The reader decodes
// just enough of the ONNX protobuf (ModelProto -> graph -> initializer) to take them, so that the
// runtime needs neither protobuf nor onnxruntime; initializers named kOnnxConstantPrefix... are
// the graph's own constants (axes, the policy map), not weights, and are passed over.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::client {

inline constexpr char kOnnxConstantPrefix[] = "const.";

struct Tensor {
  std::string name;            // e.g. "tower.0.conv1.weight"
  std::vector<int64_t> shape;  // e.g. {64, 64, 3, 3}
  std::vector<float> data;     // row-major (C order), the product of `shape` long
};

// The weight tensors of the ONNX model `bytes` (`source` names it in errors), in file order.
// Fails, naming the source, for bytes that are not a complete ONNX model (a truncated or foreign
// file), a model without a graph, and a weight that is not float32 inside the file (external
// data), or whose values do not fill its shape.
Result<std::vector<Tensor>> parse_onnx_weights(std::string_view bytes, std::string_view source);

// Reads and parses the file at `path`.
Result<std::vector<Tensor>> read_onnx_weights(const std::string& path);

}  // namespace sz::client
