// `export` and the runtime's bundle reader: a bundle opens to the network, the profiles and the
// encoding it was written from; every kind of bad bundle gives a message naming the file and the
// fault, never a crash.
#include "client/bundle.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "bundle/export_bundle.h"
#include "bundle/levels_file.h"
#include "client/json_fields.h"
#include "client/onnx_weights.h"
#include "client/profile_json.h"
#include "core/atomic_file.h"
#include "eval/levels.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/registry.h"
#include "models/checkpoint.h"
#include "nn/random_positions.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace sz::client {
namespace {

namespace fs = std::filesystem;

class BundleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("sz-bundle-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  net::Architecture tiny(const std::string& profile = "sittuyin") {
    return {net::load_net_config("tiny").take_or_throw(), games::spec_for(profile).take_or_throw()};
  }

  // Saves a tiny untrained network as a checkpoint trained on Sittuyin at `path`.
  void save_tiny_checkpoint(const std::string& path) {
    models::CheckpointMeta meta;
    meta.profiles = {"sittuyin"};
    models::save_checkpoint(path, models::Network(tiny()), nullptr, "", meta);
  }

  // Saves `net` as a checkpoint trained on `profiles` and exports it to <dir>/bundle.
  std::string export_net(const models::Network& net, std::vector<std::string> profiles,
                         std::vector<std::string> export_profiles = {}) {
    const std::string checkpoint = (dir_ / "net.ckpt").string();
    models::CheckpointMeta meta;
    meta.profiles = std::move(profiles);
    models::save_checkpoint(checkpoint, net, nullptr, "", meta);
    const std::string out = (dir_ / "bundle").string();
    bundle::export_bundle({checkpoint, std::move(export_profiles), out, "", {}});
    return out;
  }

  std::string exported() {
    torch::manual_seed(3);
    models::Network net(tiny());
    net->eval();
    return export_net(net, {"sittuyin", "sittuyin-plyyard"});
  }

  static std::string read(const std::string& path) { return test::read_file(path); }
  // Writes `text` into `path` with its first `from` replaced by `to`.
  static void write_edited(const std::string& path, std::string text, const std::string& from, const std::string& to) {
    ASSERT_TRUE(test::replace_first(text, from, to)) << from;
    write_file_atomically(path, text);
  }
  static void replace(const std::string& path, const std::string& from, const std::string& to) {
    write_edited(path, read(path), from, to);
  }
  static std::string open_error(const std::string& dir) {
    const auto b = open_bundle(dir);
    return b ? "" : b.error();
  }

  fs::path dir_;
};

TEST_F(BundleTest, OpensToTheNetworkProfilesAndEncodingItWasWrittenFrom) {
  torch::manual_seed(3);
  models::Network net(tiny());
  net->eval();
  const std::string dir = export_net(net, {"sittuyin", "sittuyin-plyyard"});
  const auto bundle = open_bundle(dir);
  ASSERT_TRUE(bundle) << bundle.error();
  const Bundle& b = **bundle;
  EXPECT_EQ(b.arch.net, tiny().net);
  EXPECT_EQ(b.arch.spec.action_space, 2212);
  EXPECT_EQ(b.arch.spec.policy_map.size(), 2212u);
  ASSERT_EQ(b.profiles.size(), 2u);
  for (const auto& p : b.profiles) {
    const chaturanga::RuleProfile* built_in = chaturanga::rule_profile(p->id).take_or_throw();
    EXPECT_EQ(profile_json(*p), profile_json(*built_in));
    EXPECT_EQ(p->hash_key, built_in->hash_key);
    EXPECT_EQ(p->men_drop_zone[1], built_in->men_drop_zone[1]);
  }
  EXPECT_EQ(b.profiles[0]->id, "sittuyin");
  EXPECT_TRUE(b.levels.empty());

  // The bundle's network gives what the exported weights give, bit for bit.
  EigenNet direct(tiny(), bundle::network_tensors(*net), "direct");
  EigenNet opened = b.net;
  const auto positions = test::random_positions("sittuyin-plyyard", 20, 5);
  std::vector<uint64_t> planes(12);
  std::vector<float> scalars(32), a(size_t(direct.output_stride())), c(a.size());
  for (const auto& state : positions.states) {
    state->encode({planes, scalars});
    direct.run(planes.data(), scalars.data(), 1, a.data());
    opened.run(planes.data(), scalars.data(), 1, c.data());
    EXPECT_EQ(a, c);
  }

  // model.json describes itself: the action table and the inputs are there in full.
  const std::string json = read(dir + "/model.json");
  EXPECT_NE(json.find("\"R@a1\""), std::string::npos);
  EXPECT_NE(json.find("\"d5c6f\""), std::string::npos);
  EXPECT_NE(json.find("the mover's khons"), std::string::npos);
  EXPECT_NE(json.find("profile: bare king loses"), std::string::npos);
}

TEST_F(BundleTest, ExportTakesTheProfilesAskedForAndRefusesAnotherGamesProfile) {
  torch::manual_seed(3);
  models::Network net(tiny());
  net->eval();
  const auto b = open_bundle(export_net(net, {"sittuyin"}, {"sittuyin-youzai"}));
  ASSERT_TRUE(b) << b.error();
  ASSERT_EQ((*b)->profiles.size(), 1u);
  EXPECT_EQ((*b)->profiles[0]->id, "sittuyin-youzai");
  try {
    export_net(net, {"sittuyin"}, {"shatranj"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rule profile 'shatranj' is for shatranj"), std::string::npos) << e.what();
  }
}

// The search settings travel whole: the bundle's `search` reads back as export was given it.
TEST_F(BundleTest, TheSearchSettingsReadBackExactly) {
  const std::string checkpoint = (dir_ / "net.ckpt").string();
  save_tiny_checkpoint(checkpoint);
  search::SearchConfig search;
  search.cpuct_init = 2.3f;
  search.full_search_fraction = 0.3;
  search.root_selection = search::RootSelection::Gumbel;
  search.tree_reuse = false;
  bundle::export_bundle({checkpoint, {}, (dir_ / "b").string(), "", search});
  const auto b = open_bundle((dir_ / "b").string());
  ASSERT_TRUE(b) << b.error();
  JsonFieldWriter want, got;
  search::fields(want, search);
  search::SearchConfig read = (*b)->search;
  search::fields(got, read);
  EXPECT_EQ(got.object(), want.object());
  EXPECT_EQ(read.full_search_fraction, 0.3);
  EXPECT_EQ(read.root_selection, search::RootSelection::Gumbel);
}

TEST_F(BundleTest, ShatranjBundlesOpen) {
  torch::manual_seed(4);
  models::Network net(tiny("shatranj"));
  net->eval();
  const auto b = open_bundle(export_net(net, {"shatranj"}));
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ((*b)->arch.spec.game, "shatranj");
  EXPECT_EQ((*b)->arch.spec.action_space, 1572);
}

TEST_F(BundleTest, MissingFilesAreNamed) {
  EXPECT_EQ(open_error((dir_ / "none").string()),
            (dir_ / "none").string() +
                "/model.json: cannot open (is this a model bundle written by `sittuyin-zero export`?)");
  const std::string dir = exported();
  fs::remove(dir + "/model.onnx");
  EXPECT_EQ(open_error(dir), dir + "/model.onnx: cannot open the model");
}

TEST_F(BundleTest, TruncatedForeignAndMismatchedModelsAreRefused) {
  const std::string dir = exported();
  const std::string onnx = read(dir + "/model.onnx");
  write_file_atomically(dir + "/model.onnx", onnx.substr(0, onnx.size() / 2));
  EXPECT_NE(open_error(dir).find(dir + "/model.onnx: not a complete ONNX model: the end of the data inside"),
            std::string::npos)
      << open_error(dir);
  write_file_atomically(dir + "/model.onnx", "PK\x03\x04 a zip file");
  EXPECT_EQ(open_error(dir), dir +
                                 "/model.onnx: not a complete ONNX model: an invalid field tag at byte 3 (a truncated "
                                 "file, or not an ONNX file)");
  write_file_atomically(dir + "/model.onnx", onnx);
  replace(dir + "/model.json", "\"channels\": 16", "\"channels\": 24");
  EXPECT_EQ(open_error(dir),
            dir + "/model.onnx: tensor 'stem.weight' has shape [16, 44, 3, 3], the network needs [24, 44, 3, 3]");
}

// One NaN weight anywhere refuses the bundle, naming the tensor (a partly NaN policy head played
// on: the logits it spoiled were those of illegal actions, which the output masks).
TEST_F(BundleTest, ANonFiniteWeightAnywhereIsRefused) {
  const std::string dir = exported();
  std::string onnx = read(dir + "/model.onnx");
  const auto tensors = parse_onnx_weights(onnx, "model.onnx").take_or_throw();
  const Tensor& last = tensors.back();  // a head's: its values stored as raw little-endian float32
  ASSERT_FALSE(last.data.empty());
  const std::string value(reinterpret_cast<const char*>(last.data.data()), sizeof(float) * last.data.size());
  const size_t at = onnx.find(value);
  ASSERT_NE(at, std::string::npos);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  onnx.replace(at + sizeof(float) * (last.data.size() / 2), sizeof nan, reinterpret_cast<const char*>(&nan),
               sizeof nan);
  write_file_atomically(dir + "/model.onnx", onnx);
  EXPECT_NE(open_error(dir).find(dir + "/model.onnx: weight " + last.name + "["), std::string::npos) << open_error(dir);
  EXPECT_NE(open_error(dir).find("is not finite (damaged model)"), std::string::npos) << open_error(dir);
}

TEST_F(BundleTest, UnknownVersionsAreRefused) {
  const std::string dir = exported();
  const std::string json = read(dir + "/model.json");
  write_edited(dir + "/model.json", json, "\"format_version\": 2,", "\"format_version\": 7,");
  EXPECT_EQ(open_error(dir), dir + "/model.json: 'format_version' is 7, but this runtime reads version 2");
  write_edited(dir + "/model.json", json, "\"format\": \"onnx\"", "\"format\": \"safetensors\"");
  EXPECT_EQ(open_error(dir), dir + "/model.json: 'weights.format' is 'safetensors', but this runtime reads 'onnx'");
  write_edited(dir + "/model.json", json, "\"encoder_version\": 1", "\"encoder_version\": 2");
  EXPECT_EQ(open_error(dir), dir +
                                 "/model.json: 'encoding.encoder_version' is 2, but this runtime knows encoder "
                                 "version 1 (export the model with a matching sittuyin-zero, or update the runtime)");
  write_edited(dir + "/model.json", json, "\"format\": \"sittuyin-zero-bundle\"", "\"format\": \"something-else\"");
  EXPECT_EQ(open_error(dir), dir + "/model.json: 'format' is 'something-else', not 'sittuyin-zero-bundle'");
}

TEST_F(BundleTest, MissingUnknownAndMalformedKeysAreNamed) {
  const std::string dir = exported();
  const std::string json = read(dir + "/model.json");
  write_edited(dir + "/model.json", json, "\"blocks\": 2, ", "");
  EXPECT_EQ(open_error(dir), dir + "/model.json: missing key 'net.blocks'");
  write_edited(dir + "/model.json", json, "\"stalemate\": \"draw\", ", "");
  EXPECT_EQ(open_error(dir), dir + "/model.json: missing key 'profiles[0].end.stalemate'");
  write_edited(dir + "/model.json", json, "\"stalemate\": \"draw\"", "\"stalemate\": \"maybe\"");
  EXPECT_EQ(open_error(dir), dir +
                                 "/model.json: 'profiles[0].end.stalemate' must be one of draw | illegal-to-cause | "
                                 "loss, not 'maybe'");
  write_edited(dir + "/model.json", json, "\"blocks\": 2, ", "\"blocks\": 2, \"wings\": 2, ");
  EXPECT_EQ(open_error(dir), dir + "/model.json: 'net.wings' is not a key this runtime knows");
  // A setting dropped since (search::kRetiredSearchKeys) reads from an older bundle while it is off.
  write_edited(dir + "/model.json", json, "\"leaf_win_moves\": ", "\"leaf_draw_rule\": 0, \"leaf_win_moves\": ");
  EXPECT_EQ(open_error(dir), "");
  write_edited(dir + "/model.json", json, "\"leaf_win_moves\": ", "\"leaf_material_knee\": 6, \"leaf_win_moves\": ");
  EXPECT_NE(open_error(dir).find(dir + "/model.json: 'search.leaf_material_knee' is no longer a setting: dropped after "
                                       "E19"),
            std::string::npos)
      << open_error(dir);
  write_edited(dir + "/model.json", json, "\"weights\": {", "\"weightz\": {");
  EXPECT_EQ(open_error(dir), dir + "/model.json: missing key 'weights'");
  write_file_atomically(dir + "/model.json", json.substr(0, json.size() / 2));
  EXPECT_NE(open_error(dir).find(dir + "/model.json:"), std::string::npos);
  write_file_atomically(dir + "/model.json", "");
  EXPECT_EQ(open_error(dir), dir + "/model.json:1:1: expected a value");
}

// --levels: the manifest `sittuyin-zero levels` writes, read back; the levels that this bundle can
// play (the random mover, uniform MCTS, the exported checkpoint) go in, the others are reported.
TEST_F(BundleTest, LevelsOfTheExportedCheckpointGoIntoTheBundle) {
  const std::string checkpoint = (dir_ / "net.ckpt").string();
  save_tiny_checkpoint(checkpoint);
  eval::LevelsResult result;
  result.levels = {
      {1, {"random", "", true, 0, 0.0f}, {0.0, -20.0, 20.0}, {}},
      {2, {"uniform-64", "", false, 64, 0.5f}, {150.5, 120.0, 180.0}, {}},
      {3, {"old-64", (dir_ / "old.ckpt").string(), false, 64, 0.0f}, {300.0, 260.0, 340.0}, {}},
      {4, {"net-256", checkpoint, false, 256, 0.2f}, {420.25, 380.0, 460.0}, {}},
  };
  const std::string manifest = (dir_ / "levels.yaml").string();
  write_file_atomically(manifest, eval::levels_manifest(result, dir_.string(), "sittuyin"));
  const bundle::ExportReport report = bundle::export_bundle({checkpoint, {}, (dir_ / "b").string(), manifest, {}});
  EXPECT_EQ(report.levels, 3);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_NE(report.skipped[0].find("level 3 (old-64)"), std::string::npos) << report.skipped[0];
  const auto b = open_bundle((dir_ / "b").string());
  ASSERT_TRUE(b) << b.error();
  const auto& levels = (*b)->levels;
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].player, "random");
  EXPECT_EQ(levels[1].player, "uniform-mcts");
  EXPECT_EQ(levels[1].simulations, 64);
  EXPECT_FLOAT_EQ(levels[1].temperature, 0.5f);
  EXPECT_EQ(levels[2].level, 4);
  EXPECT_EQ(levels[2].player, "model");
  EXPECT_EQ(levels[2].simulations, 256);
  EXPECT_DOUBLE_EQ(levels[2].elo, 420.2);  // the manifest keeps one decimal
  EXPECT_DOUBLE_EQ(levels[2].elo_upper, 460.0);

  write_file_atomically(manifest, "format: sittuyin-zero levels\nversion: 1\nlevels:\n  - level: 1\n    name: x\n");
  try {
    bundle::export_bundle({checkpoint, {}, (dir_ / "c").string(), manifest, {}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing key 'levels[0].elo'"), std::string::npos) << e.what();
  }
}

// The fuzzer's way in (tests/fuzz/levels_fuzz.cpp): a manifest's text reads as its file does,
// and errors name the source given.
TEST(LevelsManifest, ReadsFromItsTextAsFromItsFile) {
  const std::string path = test::source_dir() + "/tests/fuzz/corpus/levels/anchored-with-search.yaml";
  const bundle::LevelsManifest file = bundle::read_levels_manifest(path);
  const bundle::LevelsManifest text = bundle::levels_manifest_from_text(test::read_file(path), "x/levels.yaml");
  ASSERT_EQ(text.levels.size(), 2u);
  ASSERT_EQ(file.levels.size(), 2u);
  EXPECT_EQ(text.levels[1].checkpoint, "runs/quickstart/models/model-00003000.pt");
  EXPECT_EQ(text.levels[1].level.simulations, file.levels[1].level.simulations);
  EXPECT_DOUBLE_EQ(text.levels[1].level.elo, 420.2);
  ASSERT_TRUE(text.search.has_value());
  EXPECT_FLOAT_EQ(text.search->leaf.quiescence, 1.0f);
  try {
    bundle::levels_manifest_from_text("format: something else\n", "x/levels.yaml");
    FAIL() << "another format was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("x/levels.yaml", 0), 0u) << e.what();
  }
}

// A manifest's `search` key (the search its levels played with) is what the bundle carries: a
// level's Elo holds only under it. Search settings asked for besides must agree with it; a
// manifest without the key leaves the asked-for settings in place.
TEST_F(BundleTest, ALevelsManifestsSearchGoesIntoTheBundle) {
  const std::string checkpoint = (dir_ / "net.ckpt").string();
  save_tiny_checkpoint(checkpoint);
  eval::LevelsResult result;
  result.levels = {{1, {"random", "", true, 0, 0.0f}, {0.0, -20.0, 20.0}, {}},
                   {2, {"uniform-64", "", false, 64, 0.0f}, {150.0, 120.0, 180.0}, {}}};
  const std::string levels = eval::levels_manifest(result, dir_.string(), "sittuyin");
  const std::string manifest = (dir_ / "levels.yaml").string();
  write_file_atomically(manifest, levels + "search:\n  leaf_quiescence: 1\n  leaf_win_moves: 3\n");
  bundle::ExportSpec spec{checkpoint, {}, (dir_ / "b").string(), manifest, {}};
  EXPECT_TRUE(bundle::export_bundle(spec).search_from_levels);
  auto b = open_bundle(spec.out);
  ASSERT_TRUE(b) << b.error();
  EXPECT_FLOAT_EQ((*b)->search.leaf.quiescence, 1.0f);
  EXPECT_EQ((*b)->search.leaf.win_moves, 3);
  EXPECT_EQ((*b)->search.full_visits, search::SearchConfig{}.full_visits);

  spec.search_given = true;  // the defaults, asked for: not what the levels played with
  try {
    bundle::export_bundle(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(manifest + ": its levels were measured with the search settings"),
              std::string::npos)
        << e.what();
  }
  spec.search.leaf.quiescence = 1;
  spec.search.leaf.win_moves = 3;
  EXPECT_TRUE(bundle::export_bundle(spec).search_from_levels);  // the same settings: fine

  write_file_atomically(manifest, levels);  // a manifest from before the key
  spec.search.leaf.win_moves = 2;
  EXPECT_FALSE(bundle::export_bundle(spec).search_from_levels);
  b = open_bundle(spec.out);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ((*b)->search.leaf.win_moves, 2);

  // A manifest of an older program holds the settings dropped since; off, they read.
  write_file_atomically(
      manifest,
      levels + "search:\n  leaf_quiescence: 1\n  leaf_win_moves: 2\n  leaf_material_knee: 0\n  leaf_draw_rule: 0\n");
  EXPECT_TRUE(bundle::export_bundle(spec).search_from_levels);
  write_file_atomically(manifest, levels + "search:\n  leaf_win_moves: 2\n  leaf_draw_rule: 0.5\n");
  try {
    bundle::export_bundle(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'search.leaf_draw_rule' is no longer a setting"), std::string::npos)
        << e.what();
  }

  write_file_atomically(manifest, levels + "search:\n  leaf_win_moves: 9\n");
  try {
    bundle::export_bundle(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'search.leaf_win_moves' must be in 0..4, not 9"), std::string::npos)
        << e.what();
  }
}

// The `levels` command writes the search its round robin played with (--set included) into the
// manifest, and `export --levels` carries it into the bundle.
TEST_F(BundleTest, TheLevelsCommandsSearchTravelsIntoTheBundle) {
  const fs::path run = dir_ / "run";
  fs::create_directories(run / "models");
  const std::string checkpoint = (run / "models" / "model-00000001.pt").string();
  save_tiny_checkpoint(checkpoint);
  const auto sz = [](const std::string& args) { return test::run_shell(test::binary() + " " + args); };
  const test::CommandRun levels = sz("levels --run " + run.string() +
                                     " --count 2 --max-starts 1 --sims 2 --anchor none --concurrency 1"
                                     " --set play.leaf_win_moves=2");
  ASSERT_EQ(levels.status, 0) << levels.output;
  const std::string manifest = (run / "eval" / "levels.yaml").string();
  EXPECT_NE(read(manifest).find("\nsearch:\n"), std::string::npos) << read(manifest);
  const std::string out = (dir_ / "b").string();
  const test::CommandRun export_run = sz("export --model " + checkpoint + " --out " + out + " --levels " + manifest);
  ASSERT_EQ(export_run.status, 0) << export_run.output;
  EXPECT_NE(export_run.output.find("(those its levels were measured with)"), std::string::npos) << export_run.output;
  const auto b = open_bundle(out);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ((*b)->search.leaf.win_moves, 2);
  const test::CommandRun other =
      sz("export --model " + checkpoint + " --out " + out + " --levels " + manifest + " --set play.leaf_win_moves=1");
  EXPECT_EQ(other.status, 1) << other.output;
  EXPECT_NE(other.output.find("drop them to export the manifest's"), std::string::npos) << other.output;
}

// `sittuyin-zero export` exits 0 with a bundle the runtime opens, and non-zero naming the fault.
TEST_F(BundleTest, TheExportCommandWritesABundleOrNamesTheFault) {
  const auto run = [](const std::string& args, std::string& output) {
    const test::CommandRun r = test::run_shell(test::binary() + " export " + args);
    output += r.output;
    return r.status;
  };
  const std::string checkpoint = (dir_ / "net.ckpt").string();
  save_tiny_checkpoint(checkpoint);
  std::string output;
  ASSERT_EQ(
      run("--model " + checkpoint + " --out " + (dir_ / "b").string() + " --profile sittuyin-traditional", output), 0)
      << output;
  const auto b = open_bundle((dir_ / "b").string());
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ((*b)->profiles[0]->id, "sittuyin-traditional");
  output.clear();
  EXPECT_EQ(run("--model " + (dir_ / "missing.ckpt").string() + " --out " + (dir_ / "c").string(), output), 1);
  EXPECT_NE(output.find("missing.ckpt"), std::string::npos) << output;
  output.clear();
  EXPECT_EQ(run("--model " + checkpoint + " --out " + (dir_ / "c").string() + " --profile nosuch", output), 1);
  EXPECT_NE(output.find("nosuch"), std::string::npos) << output;
  output.clear();
  EXPECT_EQ(run("--out " + (dir_ / "c").string(), output), 1);
  EXPECT_NE(output.find("--model and --out are required"), std::string::npos) << output;
}

}  // namespace
}  // namespace sz::client
