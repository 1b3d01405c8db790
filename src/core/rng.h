#pragma once
// Deterministic random numbers. Every random choice in the project flows from a seed in a
// config through one of these; there is no global random state.
#include <cstdint>

namespace sz {

// SplitMix64 (Steele et al. 2014): used to expand one seed into independent streams.
constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The inverse of an odd number modulo 2^64 (each Newton step doubles the correct low bits).
constexpr uint64_t odd_inverse(uint64_t odd) {
  uint64_t x = odd;  // correct to 3 bits
  for (int i = 0; i < 5; ++i) x *= 2 - odd * x;
  return x;
}

// The state a splitmix64 call started from, given its output: each of its steps (add, xorshift,
// multiply by an odd constant) inverts. For finding which seed a derived value came from.
constexpr uint64_t splitmix64_inverse(uint64_t output) {
  const auto undo_xorshift = [](uint64_t y, int shift) {  // the x with y == x ^ (x >> shift)
    uint64_t x = y;
    for (int bits = shift; bits < 64; bits += shift) x = y ^ (x >> shift);
    return x;
  };
  uint64_t z = undo_xorshift(output, 31);
  z = undo_xorshift(z * odd_inverse(0x94D049BB133111EBull), 27);
  z = undo_xorshift(z * odd_inverse(0xBF58476D1CE4E5B9ull), 30);
  return z - 0x9E3779B97F4A7C15ull;
}

// xoshiro256** (Blackman and Vigna 2018). Not thread-safe: one per thread.
class Rng {
 public:
  using result_type = uint64_t;
  explicit constexpr Rng(uint64_t seed = 0) {
    for (auto& word : s_) word = splitmix64(seed);
  }
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t{0}; }
  constexpr uint64_t operator()() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n > 0; Lemire's multiply-shift (bias below 2^-32 for small n).
  uint32_t below(uint32_t n) {
    return uint32_t((uint64_t(uint32_t(operator()() >> 32)) * n) >> 32);
  }
  // Uniform in [0, 1).
  double uniform() { return double(operator()() >> 11) * 0x1.0p-53; }

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4]{};
};

}  // namespace sz
