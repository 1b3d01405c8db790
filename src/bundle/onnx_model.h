#pragma once
// The network as an ONNX model, a bundle's model.onnx (docs/CLIENTS.md): built with ONNX's own
// protobuf classes (Debian's libonnx-dev, SZ_ONNX in the top-level CMakeLists.txt) and passed
// through ONNX's checker and its strict shape inference before it is written. Opset 17, IR
// version 8, a dynamic batch:
//   inputs  planes  [N, binary_planes, 8, 8] float32, 0 or 1 (bit s of bitboard c at [c, s / 8, s % 8])
//           scalars [N, scalar_features] float32
//   outputs policy  [N, action_space] logits; wdl [N, 3] logits; moves_left [N] plies (with the head)
// The weights are initializers under LibTorch's names and shapes (the torch-free runtime reads them
// back, client/onnx_weights.h); the graph's own constants are named client::kOnnxConstantPrefix...
// Torch-free: it takes the tensors of network_tensors (export_bundle.h).
#include <string>
#include <vector>

#include "client/onnx_weights.h"
#include "net/architecture.h"

namespace sz::bundle {

inline constexpr int kOnnxOpset = 17;
inline constexpr int kOnnxIrVersion = 8;

// Whether this build can write ONNX (libonnx-dev was found).
bool onnx_available();

// The serialized model for `arch` with the weights `tensors` (every one used exactly once).
// Throws sz::Error when a tensor is missing or left over, when ONNX's checker or shape inference
// refuses the graph (their message), and in a build without ONNX.
std::string onnx_model_bytes(const net::Architecture& arch, const std::vector<client::Tensor>& tensors,
                             const std::string& doc_string);

}  // namespace sz::bundle
