#include "bundle/export_bundle.h"

#include <algorithm>
#include <filesystem>

#include "bundle/levels_file.h"
#include "bundle/model_json.h"
#include "bundle/onnx_model.h"
#include "core/atomic_file.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/tables/table_dir.h"
#include "games/registry.h"
#include "models/checkpoint.h"

namespace sz::bundle {

std::vector<client::Tensor> network_tensors(const models::NetworkImpl& net) {
  std::vector<client::Tensor> out;
  const auto add = [&](const std::string& name, const torch::Tensor& value) {
    if (!value.is_floating_point()) return;  // BatchNorm's num_batches_tracked
    const torch::Tensor t = value.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    client::Tensor tensor;
    tensor.name = name;
    tensor.shape.assign(t.sizes().begin(), t.sizes().end());
    tensor.data.assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    out.push_back(std::move(tensor));
  };
  for (const auto& item : net.named_parameters(/*recurse=*/true)) add(item.key(), item.value());
  for (const auto& item : net.named_buffers(/*recurse=*/true)) add(item.key(), item.value());
  return out;
}

namespace {

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error)) return true;
  return std::filesystem::path(a).lexically_normal() == std::filesystem::path(b).lexically_normal();
}

// The tables of the profiles' ending rules (each set once) into the bundle's tables/.
int copy_tables(const std::string& from, const std::string& bundle,
                const std::vector<const chaturanga::RuleProfile*>& profiles, int max_men) {
  std::vector<chaturanga::tables::EndingRules> done;
  int copied = 0;
  for (const chaturanga::RuleProfile* p : profiles) {
    const chaturanga::tables::EndingRules rules = chaturanga::tables::ending_rules(*p);
    if (std::find(done.begin(), done.end(), rules) != done.end()) continue;
    done.push_back(rules);
    copied += chaturanga::tables::copy_tables(from, bundle + "/" + client::kTablesFolder, rules, max_men);
  }
  return copied;
}

}  // namespace

ExportReport export_bundle(const ExportSpec& spec) {
  const models::CheckpointMeta meta = models::read_checkpoint_meta(spec.checkpoint);
  const std::vector<std::string> names = spec.profiles.empty() ? meta.profiles : spec.profiles;
  if (names.empty()) throw Error(spec.checkpoint + ": the checkpoint names no rule profiles; give --profile");
  ModelInfo info;
  info.checkpoint = spec.checkpoint;
  info.step = meta.step;
  info.search = spec.search;
  for (const std::string& name : names) {
    const chaturanga::RuleProfile* profile =
        chaturanga::rule_profile(name).take_or_throw("rule profile '" + name + "'");
    if (chaturanga::game_name(profile->game) != meta.arch.spec.game)
      throw Error("rule profile '" + name + "' is for " + std::string(chaturanga::game_name(profile->game)) + ", but " +
                  spec.checkpoint + " plays " + meta.arch.spec.game);
    info.profiles.push_back(profile);
  }
  const game::GameSpec game_spec = games::spec_for(names.front()).take_or_throw();
  models::LoadedNetwork loaded = models::load_network(spec.checkpoint, game_spec);
  info.arch = loaded.net->architecture();
  ExportReport report;
  if (!spec.levels.empty()) {
    const LevelsManifest manifest = read_levels_manifest(spec.levels);
    if (manifest.search) {
      if (spec.search_given && search_json(*manifest.search) != search_json(spec.search))
        throw Error(spec.levels +
                    ": its levels were measured with the search settings under its 'search' key, and --config/--set "
                    "ask for others; drop them to export the manifest's");
      info.search = *manifest.search;
      report.search_from_levels = true;
    }
    for (const ManifestLevel& m : manifest.levels) {
      if (m.level.player == "model" && !same_file(m.checkpoint, spec.checkpoint)) {
        report.skipped.push_back("level " + std::to_string(m.level.level) + " (" + m.level.name + "): it plays " +
                                 m.checkpoint + ", not the exported checkpoint");
        continue;
      }
      info.levels.push_back(m.level);
    }
    if (info.levels.empty())
      throw Error(spec.levels + ": no level plays " + spec.checkpoint + " (or needs no network)");
  }
  report.levels = int(info.levels.size());

  const std::string onnx = onnx_model_bytes(
      info.arch, network_tensors(*loaded.net),
      "sittuyin-zero network from " + spec.checkpoint + " (step " + std::to_string(meta.step) + "); docs/CLIENTS.md");
  std::error_code error;
  std::filesystem::create_directories(spec.out, error);
  if (error) throw Error(spec.out + ": cannot create the bundle's folder: " + error.message());
  write_file_atomically(spec.out + "/" + client::kModelOnnx, onnx);
  write_file_atomically(spec.out + "/" + client::kModelJson, model_json(info));
  if (!spec.tables.empty()) report.tables = copy_tables(spec.tables, spec.out, info.profiles, spec.tables_men);
  return report;
}

}  // namespace sz::bundle
