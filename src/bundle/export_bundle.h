#pragma once
// `sittuyin-zero export`: a network as a bundle for game clients (docs/CLIENTS.md), model.json
// and model.onnx (the network; the torch-free runtime in client/ reads its weights). Includes no
// torch itself.
#include <memory>
#include <string>
#include <vector>

#include "client/onnx_weights.h"
#include "search/search_config.h"

namespace sz::models {
class NetworkImpl;
}

namespace sz::bundle {

struct ExportSpec {
  std::string checkpoint;             // a checkpoint file (models/checkpoint.h)
  std::vector<std::string> profiles;  // rule profiles (names or paths), the default first;
                                      // empty: the checkpoint's training profiles
  std::string out;                    // the bundle's folder, created when missing
  // A levels manifest (`sittuyin-zero levels`), "" for none: its random and uniform-MCTS levels
  // and those that play the exported checkpoint go into the bundle; a level of another
  // checkpoint cannot be played with this bundle's network and is left out (reported).
  std::string levels;
  // Written into model.json for clients' searches, unless the levels manifest names the search
  // its levels were measured with: that one is written then (a level's Elo holds only under it).
  search::SearchConfig search;
  bool search_given = false;  // `search` was asked for (--config, --set): it must then agree with the manifest's
  // A tables directory (`sittuyin-zero tables build`), "" for none: the tables of the profiles'
  // ending rules of at most `tables_men` men are copied into the bundle's tables/ (docs/TABLES.md).
  std::string tables = {};
  int tables_men = 3;
};

struct ExportReport {
  int levels = 0;                    // levels in the bundle
  std::vector<std::string> skipped;  // levels left out, with the reason
  bool search_from_levels = false;   // model.json carries the levels manifest's search
  int tables = 0;                    // table files copied into tables/
};

// Writes the bundle; throws sz::Error naming the file or the profile at fault.
ExportReport export_bundle(const ExportSpec& spec);

// The network's tensors as model.onnx holds them: every parameter and batch-norm buffer by its
// LibTorch name, as float32 on the CPU (the batch counters, which inference does not use, left out).
std::vector<client::Tensor> network_tensors(const models::NetworkImpl& net);

}  // namespace sz::bundle
