#pragma once
// Damage for checkpoint tests that lands inside a tensor's bytes for sure: a byte flipped in the
// middle of the file may hit the zip's padding and change nothing a reader sees.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "games/registry.h"
#include "models/checkpoint.h"

namespace sz::test {

// Inverts 16 bytes in the middle of the largest weight tensor of the checkpoint at `path`.
inline void damage_weights(const std::string& path) {
  const std::string game = models::read_checkpoint_meta(path).arch.spec.game;
  const models::LoadedNetwork loaded = models::load_network(path, games::spec_for(game).take_or_throw(game));
  torch::Tensor largest;
  for (const torch::Tensor& p : loaded.net->parameters())
    if (!largest.defined() || p.numel() > largest.numel()) largest = p;
  const torch::Tensor t = largest.contiguous().cpu();
  const std::string needle(static_cast<const char*>(t.data_ptr()) + t.nbytes() / 2, 16);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t at = bytes.find(needle);
  ASSERT_NE(at, std::string::npos) << "the weights' bytes are not in " << path;
  for (size_t i = at; i < at + needle.size(); ++i) bytes[i] = char(~bytes[i]);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace sz::test
