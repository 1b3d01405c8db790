#pragma once
// FNV-1a, 64 bits (Fowler, Noll, Vo): a checksum of bytes that is a few lines long and the same
// everywhere. Detects damage, not tampering. About 1 GB/s: for files, not for hot paths.
#include <cstddef>
#include <cstdint>

namespace sz {

inline constexpr uint64_t kFnv1aBasis = 0xcbf29ce484222325ull;

// Continues `hash` over `size` bytes at `data`; start from kFnv1aBasis.
inline uint64_t fnv1a64(const void* data, size_t size, uint64_t hash = kFnv1aBasis) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
  return hash;
}

}  // namespace sz
