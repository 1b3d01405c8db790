#pragma once
// The network's weights as the client runtime reads them (weights.bin in a bundle; format in
// docs/CLIENTS.md): named float32 tensors in the network's own layout (LibTorch's parameter and
// batch-norm buffer names and shapes), little-endian, ending in an FNV-1a checksum of every byte
// before it. Written by `sittuyin-zero export` (bundle/), read here; one definition of the format.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::client {

inline constexpr char kWeightsMagic[8] = {'S', 'Z', 'W', 'E', 'I', 'G', 'H', 'T'};
inline constexpr uint32_t kWeightsFormatVersion = 1;

struct Tensor {
  std::string name;            // e.g. "tower.0.conv1.weight"
  std::vector<int64_t> shape;  // e.g. {64, 64, 3, 3}
  std::vector<float> data;     // row-major (C order), the product of `shape` long
};

// The file's bytes for `tensors`, in order.
std::string weights_bytes(const std::vector<Tensor>& tensors);

// The tensors of the bytes `bytes` (`source` names them in errors). Fails, naming the source, for
// another kind of file, a format version this runtime does not know, a truncated or damaged file
// (the checksum), or a tensor whose size does not match its shape.
Result<std::vector<Tensor>> parse_weights(std::string_view bytes, std::string_view source);

// Reads and parses the file at `path`.
Result<std::vector<Tensor>> read_weights(const std::string& path);

}  // namespace sz::client
