#pragma once
// The text of a bundle's model.json (docs/CLIENTS.md): everything a game client needs to use the
// network without reading this code. Torch-free; the reader is client/bundle.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "client/bundle.h"
#include "games/chaturanga/profile.h"
#include "net/architecture.h"
#include "search/search_config.h"

namespace sz::bundle {

struct ModelInfo {
  net::Architecture arch;
  std::vector<const chaturanga::RuleProfile*> profiles;  // the default first
  std::vector<client::BundleLevel> levels;               // may be empty
  std::string checkpoint;                                // where the weights came from, for people
  int64_t step = 0;                                      // the checkpoint's training step
  search::SearchConfig search;                           // the MCTS settings clients search with
};

std::string model_json(const ModelInfo& info);

// The `search` object of model.json: every field of `config`, as JSON (also how export compares
// two search settings).
std::string search_json(search::SearchConfig config);

}  // namespace sz::bundle
