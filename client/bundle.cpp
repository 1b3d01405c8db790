#include "client/bundle.h"

#include <cmath>

#include "client/json_fields.h"
#include "client/profile_json.h"
#include "core/json.h"
#include "core/read_file.h"
#include "games/chaturanga/state.h"
#include "games/chaturanga/tables/chaturanga_tables.h"
#include "games/chaturanga/tables/table_dir.h"

namespace sz::client {

namespace {

std::string read_text(const std::string& path) {
  return try_read_file(path, "cannot open (is this a model bundle written by `sittuyin-zero export`?)").take_or_throw();
}

// The encoding the bundle declares must be the one this runtime's rules core produces.
net::Architecture read_architecture(const JsonAt& doc) {
  const JsonAt game = doc["game"];
  if (game.text() != "sittuyin" && game.text() != "shatranj")
    throw game.error("must be sittuyin or shatranj, not '" + game.text() + "' (a bundle for another game?)");
  const game::GameSpec here =
      chaturanga::game_spec(game.text() == "sittuyin" ? chaturanga::Game::Sittuyin : chaturanga::Game::Shatranj);
  game::GameSpec found;
  JsonFieldReader encoding(doc["encoding"]);
  net::fields(encoding, found);
  int policy_planes = 0;
  encoding.num("policy_planes", policy_planes, 0, 1 << 20);
  encoding.finish();
  const JsonAt e = doc["encoding"];
  if (found.game != here.game) throw e["game"].error("is '" + found.game + "', but 'game' is '" + here.game + "'");
  const auto same = [&](const char* key, int bundle, int runtime, const char* what) {
    if (bundle != runtime)
      throw e[key].error("is " + std::to_string(bundle) + ", but this runtime " + what + " " + std::to_string(runtime) +
                         " (export the model with a matching sittuyin-zero, or update the runtime)");
  };
  same("encoder_version", found.encoder_version, here.encoder_version, "knows encoder version");
  same("action_space_version", found.action_space_version, here.action_space_version, "knows action-space version");
  same("binary_planes", found.binary_planes, here.binary_planes, "encodes");
  same("scalar_features", found.scalar_features, here.scalar_features, "encodes");
  same("action_space", found.action_space, here.action_space, "has");
  same("policy_planes", policy_planes, here.policy_planes, "has");
  net::Architecture arch;
  arch.spec = here;
  JsonFieldReader net(doc["net"]);
  net::fields(net, arch.net);
  net.finish();
  return arch;
}

std::vector<BundleLevel> read_levels(const JsonAt& levels) {
  std::vector<BundleLevel> out;
  for (size_t i = 0; i < levels.size(); ++i) {
    JsonFieldReader r(levels[i]);
    BundleLevel l;
    fields(r, l);
    r.finish();
    out.push_back(l);
  }
  return out;
}

// The endgame tables in the bundle's tables/ folder, for each of its profiles (every file checked).
void load_tables(Bundle& bundle) {
  const std::string dir = bundle.dir + "/" + kTablesFolder;
  for (const auto& p : bundle.profiles) {
    auto set = chaturanga::tables::load_table_set(dir, chaturanga::tables::ending_rules(*p));
    bundle.tables.push_back(set ? std::make_shared<const chaturanga::tables::ChaturangaTables>(set) : nullptr);
  }
}

std::unique_ptr<Bundle> open_or_throw(const std::string& dir) {
  const std::string json_path = dir + "/" + kModelJson;
  const std::string text = read_text(json_path);
  const Json doc_value = parse_json(text, json_path).take_or_throw();
  const JsonAt doc(doc_value, json_path);
  const JsonAt format = doc["format"];
  if (format.text() != kBundleFormat) throw format.error("is '" + format.text() + "', not '" + kBundleFormat + "'");
  const int64_t version = doc["format_version"].integer(0, 1 << 30);
  if (version != kBundleFormatVersion)
    throw doc["format_version"].error("is " + std::to_string(version) + ", but this runtime reads version " +
                                      std::to_string(kBundleFormatVersion));

  auto bundle = std::make_unique<Bundle>(Bundle{dir, read_architecture(doc), {}, {}, {}, EigenNet(), {}});
  JsonFieldReader search(doc["search"]);
  search::fields(search, bundle->search);
  read_retired_keys(search, search::kRetiredSearchKeys);  // a bundle of an older program
  search.finish();
  const JsonAt profiles = doc["profiles"];
  if (profiles.size() == 0) throw profiles.error("must name at least one rule profile");
  for (size_t i = 0; i < profiles.size(); ++i) {
    auto p = std::make_unique<chaturanga::RuleProfile>(profile_from_json(profiles[i]));
    if (chaturanga::game_name(p->game) != bundle->arch.spec.game)
      throw profiles[i]["game"].error("is not the bundle's game '" + bundle->arch.spec.game + "'");
    if (bundle->profile(p->id)) throw profiles[i]["id"].error("'" + p->id + "' is given twice");
    bundle->profiles.push_back(std::move(p));
  }
  bundle->levels = read_levels(doc["levels"]);
  load_tables(*bundle);

  const JsonAt weights = doc["weights"];
  if (weights["format"].text() != kWeightsFormat)
    throw weights["format"].error("is '" + weights["format"].text() + "', but this runtime reads '" + kWeightsFormat +
                                  "'");
  if (float(weights["batch_norm_epsilon"].number()) != net::kBatchNormEpsilon)
    throw weights["batch_norm_epsilon"].error("is not the " + std::to_string(net::kBatchNormEpsilon) +
                                              " this runtime uses");
  const std::string& file = weights["file"].text();
  if (file.empty() || file.find('/') != std::string::npos || file == "..")
    throw weights["file"].error("must name a file in the bundle's folder");
  const std::string weights_path = dir + "/" + file;
  const auto tensors = read_onnx_weights(weights_path).take_or_throw();
  // A weight that is NaN or infinite anywhere is damage: caught here, not when (or whether) a
  // position happens to read it (a partly NaN policy head played on, its illegal logits masked).
  for (const Tensor& t : tensors)
    for (size_t i = 0; i < t.data.size(); ++i)
      if (!std::isfinite(t.data[i]))
        throw Error(weights_path + ": weight " + t.name + "[" + std::to_string(i) + "] is not finite (damaged model)");
  bundle->net = EigenNet(bundle->arch, tensors, weights_path);
  return bundle;
}

}  // namespace

const chaturanga::RuleProfile* Bundle::profile(std::string_view id) const {
  for (const auto& p : profiles)
    if (p->id == id) return p.get();
  return nullptr;
}

const game::EndgameTables* Bundle::tables_for(const chaturanga::RuleProfile* profile) const {
  for (size_t i = 0; i < profiles.size(); ++i)
    if (profiles[i].get() == profile) return tables[i].get();
  return nullptr;
}

Result<std::unique_ptr<Bundle>> open_bundle(const std::string& dir) {
  try {
    return open_or_throw(dir);
  } catch (const Error& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail(dir + ": out of memory while opening the bundle");
  }
}

}  // namespace sz::client
