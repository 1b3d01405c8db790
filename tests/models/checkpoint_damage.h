#pragma once
// Damage for checkpoint tests that lands inside a tensor's bytes for sure: a byte flipped in the
// middle of the file may hit the zip's padding and change nothing a reader sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "games/registry.h"
#include "models/checkpoint.h"

namespace sz::test {

// Inverts 16 bytes in the middle of the largest weight tensor of the checkpoint at `path` whose
// middle bytes occur once in the file (a tensor still mostly zero, as the policy head starts,
// would match padding elsewhere).
inline void damage_weights(const std::string& path) {
  const std::string game = models::read_checkpoint_meta(path).arch.spec.game;
  const models::LoadedNetwork loaded = models::load_network(path, games::spec_for(game).take_or_throw(game));
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::vector<torch::Tensor> tensors = loaded.net->parameters();
  std::sort(tensors.begin(), tensors.end(),
            [](const torch::Tensor& a, const torch::Tensor& b) { return a.numel() > b.numel(); });
  std::string needle;
  for (const torch::Tensor& p : tensors) {
    const torch::Tensor t = p.contiguous().cpu();
    if (t.nbytes() < 32) continue;
    std::string middle(static_cast<const char*>(t.data_ptr()) + t.nbytes() / 2, 16);
    if (bytes.find(middle) != std::string::npos && bytes.find(middle) == bytes.rfind(middle)) {
      needle = std::move(middle);
      break;
    }
  }
  ASSERT_FALSE(needle.empty()) << "no tensor's bytes are in " << path << " once";
  const size_t at = bytes.find(needle);
  for (size_t i = at; i < at + needle.size(); ++i) bytes[i] = char(~bytes[i]);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace sz::test
