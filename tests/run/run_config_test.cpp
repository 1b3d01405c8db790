// Run configs: strict loading (errors name the file, line and key), --set overrides, the
// resolved YAML that runs write next to their outputs, and the built-in quickstart.
#include "run/run_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "train/schedule.h"

namespace sz::run {
namespace {

void expect_error(std::string_view yaml, const std::string& needle, const std::vector<std::string>& overrides = {}) {
  const auto r = parse_run_config(yaml, "run.yaml", overrides);
  ASSERT_FALSE(r.ok()) << "accepted: " << yaml;
  EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
}

TEST(RunConfig, QuickstartLoadsAndFlowsIntoSelfplay) {
  const auto c = load_run_config("quickstart");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->name, "quickstart");
  EXPECT_EQ(c->run_dir(), "runs/quickstart");
  EXPECT_EQ(c->search.full_visits, 64);
  EXPECT_EQ(c->selfplay.search.full_visits, 64);  // the search section reaches self-play
  EXPECT_EQ(c->selfplay.seed, c->seed);
}

TEST(RunConfig, UnknownKeysAndBadValuesNameFileLineAndKey) {
  expect_error("search:\n  full_visitz: 3\n", "run.yaml:2: unknown key 'search.full_visitz'");
  expect_error("selfplay:\n  threads: 0\n", "run.yaml:2: 'selfplay.threads' must be in 1..1024, not 0");
  expect_error("resign:\n  threshold: 2\n", "'resign.threshold' must be in");
  expect_error("search:\n  root_selection: alphabeta\n", "'search.root_selection' must be one of puct | gumbel");
  expect_error("loop:\n  generations: -1\n", "'loop.generations' must be in 0..");
  expect_error("colour: red\n", "run.yaml:1: unknown key 'colour'");
  expect_error("net: enormous\n", "run.yaml:1:");
}

// A run started by an earlier version keeps the settings it wrote into its config.yaml; the ones
// since removed still read as long as they were off, so the run resumes and feeds levels/export.
TEST(RunConfig, RetiredKeysReadWhenOffAndAreErrorsWhenOn) {
  const auto c = parse_run_config(
      "search:\n  full_visits: 100\n  quiescence_check_plies: 0\nloop:\n  endgame_share: 0\n  endgame_plies: 8\n"
      "train:\n  draw_material_weight: 0\n  draw_material_scale: 2\n",
      "run.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->search.full_visits, 100);
  expect_error("search:\n  quiescence_check_plies: 2\n",
               "run.yaml:2: 'search.quiescence_check_plies' is no longer a setting: dropped after E15 (");
  expect_error("loop:\n  endgame_share: 0.5\n", "only 0, off, can still be read");
  expect_error("loop:\n  endgame_plies: many\n", "'loop.endgame_plies' is no longer a setting");
  expect_error("search:\n  endgame_share: 0\n", "unknown key 'search.endgame_share'");  // only in its own section
  // The leaf search's ending settings (E19), in `search` and in `play`.
  const auto leaf = parse_run_config(
      "search:\n  leaf_material_knee: 0\n  leaf_draw_rule: 0\nplay:\n  leaf_quiescence: 1\n  leaf_draw_rule: 0\n",
      "run.yaml");
  ASSERT_TRUE(leaf.ok()) << leaf.error();
  EXPECT_FLOAT_EQ(leaf->play.leaf.quiescence, 1.0f);
  expect_error("play:\n  leaf_material_knee: 6\n",
               "run.yaml:2: 'play.leaf_material_knee' is no longer a setting: dropped after E19 (");
  expect_error("search:\n  leaf_draw_rule: 0.5\n", "only 0, off, can still be read");
}

TEST(RunConfig, SetOverridesAndRejectsTypos) {
  const auto c =
      parse_run_config("search:\n  full_visits: 100\n", "run.yaml", {"search.full_visits=32", "loop.gating=true"});
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->search.full_visits, 32);
  EXPECT_TRUE(c->loop.gating);
  expect_error("", "unknown key 'search.nosuch'", {"search.nosuch=1"});
  expect_error("", "expected key=value", {"search.full_visits"});
}

// yaml-cpp keeps the first of two equal keys; the second value must not vanish silently.
TEST(RunConfig, DuplicateKeysAreErrors) {
  expect_error("search:\n  full_visits: 3\n  full_visits: 5\n",
               "run.yaml:3: duplicate key 'search.full_visits' (first given on line 2)");
  expect_error("name: a\nseed: 2\nname: b\n", "run.yaml:3: duplicate key 'name' (first given on line 1)");
  expect_error("train:\n  batch_size: 8\ntrain:\n  batch_size: 9\n", "run.yaml:3: duplicate key 'train'");
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("sz-run-config-test-" + name)).string();
}

// An empty file, one of comments only, or a directory would otherwise run the compiled-in defaults.
TEST(RunConfig, EmptyFileOrDirectoryIsAnError) {
  for (const std::string text : {"", "\n  \n", "# only a comment\n"}) {
    const std::string path = temp_path("empty.yaml");
    std::ofstream(path) << text;
    const auto r = load_run_config(path);
    ASSERT_FALSE(r.ok()) << "accepted '" << text << "'";
    EXPECT_NE(r.error().find(path + ": the config is empty"), std::string::npos) << r.error();
    std::filesystem::remove(path);
  }
  const std::string dir = temp_path("dir");
  std::filesystem::create_directories(dir);
  const auto r = load_run_config(dir);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("run config '" + dir + "' is a directory"), std::string::npos) << r.error();
  std::filesystem::remove(dir);
}

// The run directory is runs/<name>: a name must not lead out of runs/ or be "null".
TEST(RunConfig, RunNameIsAPlainDirectoryName) {
  expect_error("name: ../../x\n",
               "run.yaml:1: 'name' must be a plain directory name, without '/', '\\' or '..', not '../../x'");
  expect_error("name: a/b\n", "'name' must be a plain directory name");
  expect_error("name: ..\n", "'name' must be a plain directory name");
  expect_error("name: ''\n", "run.yaml:1: 'name' is empty");
  expect_error("name:\n", "run.yaml:1: 'name' has no value");
  expect_error("seed: 1\n", "--set name=: 'name' has no value", {"name="});
  expect_error("seed: 1\n", "--set name=../x: 'name' must be a plain directory name", {"name=../x"});
  const auto ok = parse_run_config("name: my-run.2\n", "run.yaml");
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->run_dir(), "runs/my-run.2");
}

// An error about a value set with --set names the override, not line 1 of the config file.
TEST(RunConfig, SetErrorsNameTheOverride) {
  const auto bad_type = load_run_config("quickstart", {"train.batch_size=x"});
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.error().rfind("--set train.batch_size=x: 'train.batch_size' has a value of the wrong type", 0), 0u)
      << bad_type.error();
  const auto range = load_run_config("quickstart", {"selfplay.threads=0"});
  ASSERT_FALSE(range.ok());
  EXPECT_EQ(range.error().rfind("--set selfplay.threads=0: 'selfplay.threads' must be in 1..1024", 0), 0u)
      << range.error();
  expect_error("seed: 1\n", "--set search.nosuch=1: unknown key 'search.nosuch'", {"search.nosuch=1"});
  expect_error("seed: 1\n", "--set colour.hue=1: unknown key 'colour'", {"colour.hue=1"});
  expect_error("seed: 1\n", "--set net=enormous: unknown nets config 'enormous'", {"net=enormous"});
  expect_error("seed: 1\n", "--set 'seed=[1': ", {"seed=[1"});
  // A file's own errors still name its line.
  expect_error("search:\n  full_visits: 0\n", "run.yaml:2: 'search.full_visits'", {"seed=3"});
}

// Binary garbage in a config is shown escaped and cut short, never echoed raw.
TEST(RunConfig, GarbageIsShownEscaped) {
  const std::string garbage = "k\x01\x1b[2J\xff" + std::string(100, 'z') + ": 1\n";
  const auto r = parse_run_config(garbage, "run.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("unknown key 'k\\x01\\x1B[2J\\xFFzzz"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("zzz...'"), std::string::npos) << r.error();
  for (const char c : r.error()) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "raw byte " << int(c) << " in " << r.error();
  // yaml-cpp's own messages quote the text too.
  const auto bad_escape = parse_run_config("name: \"\\\xff\"\n", "run.yaml");
  ASSERT_FALSE(bad_escape.ok());
  EXPECT_NE(bad_escape.error().find("run.yaml:1: unknown escape character: \\xFF"), std::string::npos)
      << bad_escape.error();
}

TEST(RunConfig, ResolvedYamlReadsBackToTheSameConfig) {
  const auto c = parse_run_config("name: x\nsearch:\n  cpuct_init: 2.5\nloop:\n  generations: 3\n", "run.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  const std::string yaml = to_yaml(*c);
  for (const char* key : {"search:", "selfplay:", "resign:", "train:", "loop:", "inference:", "cpuct_init: 2.5"})
    EXPECT_NE(yaml.find(key), std::string::npos) << key << " missing from\n" << yaml;
  const auto again = parse_run_config(yaml, "resolved.yaml");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(to_yaml(*again), yaml);
}

// `play` is the `search` section with its own keys on top: a --set of the search reaches it unless
// play sets that key, and the resolved YAML keeps only play's own keys, so that it reads back the
// same way.
TEST(RunConfig, PlayIsTheSearchWithThePlayKeysOnTop) {
  const char* yaml = "search:\n  contempt: 0.3\n  cpuct_init: 2\nplay:\n  leaf_quiescence: 1\n  cpuct_init: 1.5\n";
  const auto c = parse_run_config(yaml, "run.yaml", {"search.full_visits=48", "search.cpuct_init=3"});
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_FLOAT_EQ(c->play.contempt, 0.3f);
  EXPECT_EQ(c->play.full_visits, 48);
  EXPECT_FLOAT_EQ(c->play.cpuct_init, 1.5f);
  EXPECT_FLOAT_EQ(c->play.leaf.quiescence, 1.0f);
  EXPECT_FLOAT_EQ(c->search.leaf.quiescence, 0.0f);  // self-play is untouched
  EXPECT_FLOAT_EQ(c->selfplay.search.leaf.quiescence, 0.0f);
  const std::string resolved = to_yaml(*c);
  EXPECT_NE(resolved.find("play:\n  cpuct_init: 1.5\n  leaf_quiescence: 1\nselfplay:"), std::string::npos) << resolved;
  EXPECT_EQ(play_changes(*c), "cpuct_init: 1.5, leaf_quiescence: 1");
  const auto again = parse_run_config(resolved, "resolved.yaml", {"search.contempt=0.1"});
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_FLOAT_EQ(again->play.contempt, 0.1f);
  EXPECT_FLOAT_EQ(again->play.cpuct_init, 1.5f);

  const auto plain = parse_run_config("search:\n  contempt: 0.3\n", "run.yaml");
  ASSERT_TRUE(plain.ok()) << plain.error();
  EXPECT_FLOAT_EQ(plain->play.contempt, 0.3f);
  EXPECT_EQ(to_yaml(*plain).find("\nplay:"), std::string::npos) << to_yaml(*plain);
  EXPECT_EQ(play_changes(*plain), "");
  expect_error("play:\n  leaf_quiesence: 1\n", "run.yaml:2: unknown key 'play.leaf_quiesence'");
  expect_error("play:\n  leaf_full_plies: 9\n", "'play.leaf_full_plies' must be in 0..3");
}

// `network_selfplay` is the `search` section with its own keys on top, as `play` is: the search
// of self-play games a network plays, while the bootstrap's games search as `search`.
TEST(RunConfig, NetworkSelfplayIsTheSearchWithItsKeysOnTop) {
  const char* yaml = "search:\n  full_visits: 40\nnetwork_selfplay:\n  leaf_quiescence: 1\n  leaf_win_moves: 3\n";
  const auto c = parse_run_config(yaml, "run.yaml", {"search.cheap_visits=12"});
  ASSERT_TRUE(c.ok()) << c.error();
  ASSERT_TRUE(c->selfplay.network_search.has_value());
  const search::SearchConfig& network = *c->selfplay.network_search;
  EXPECT_EQ(network.full_visits, 40);
  EXPECT_EQ(network.cheap_visits, 12);
  EXPECT_FLOAT_EQ(network.leaf.quiescence, 1.0f);
  EXPECT_EQ(network.leaf.win_moves, 3);
  EXPECT_FLOAT_EQ(c->selfplay.search.leaf.quiescence, 0.0f);  // the bootstrap's search is untouched
  EXPECT_FLOAT_EQ(c->play.leaf.quiescence, 0.0f);
  EXPECT_FLOAT_EQ(c->selfplay.search_for({.prior = true}).leaf.quiescence, 1.0f);
  EXPECT_FLOAT_EQ(c->selfplay.search_for({.prior = false, .value = true}).leaf.quiescence, 0.0f);
  const std::string resolved = to_yaml(*c);
  EXPECT_NE(resolved.find("network_selfplay:\n  leaf_quiescence: 1\n  leaf_win_moves: 3\n"), std::string::npos)
      << resolved;
  const auto again = parse_run_config(resolved, "resolved.yaml");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(to_yaml(*again), resolved);
  const auto plain = parse_run_config("search:\n  contempt: 0.3\n", "run.yaml");
  ASSERT_TRUE(plain.ok()) << plain.error();
  EXPECT_EQ(to_yaml(*plain).find("network_selfplay:"), std::string::npos) << to_yaml(*plain);
  expect_error("network_selfplay:\n  leaf_quiesence: 1\n", "run.yaml:2: unknown key 'network_selfplay.leaf_quiesence'");
}

// The quickstart ships the play-time leaf search of E18 (docs/BENCHMARKS.md); its bootstrap and
// matches search without it, and its networks' self-play with it but for the full plies (E29).
TEST(RunConfig, QuickstartPlaysWithTheLeafSearch) {
  for (const char* name : {"quickstart", "cpu-long"}) {
    const auto c = load_run_config(name);
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_FLOAT_EQ(c->play.leaf.quiescence, 1.0f) << name;
    EXPECT_EQ(c->play.leaf.full_plies, 3) << name;
    EXPECT_EQ(c->play.leaf.win_moves, 3) << name;
    EXPECT_FLOAT_EQ(c->play.leaf.king_hunt, 1.0f) << name;
    EXPECT_FLOAT_EQ(c->search.leaf.quiescence, 0.0f) << name;
    EXPECT_EQ(c->play.full_visits, c->search.full_visits) << name;
  }
  const auto quickstart = load_run_config("quickstart");
  ASSERT_TRUE(quickstart.ok()) << quickstart.error();
  const search::SearchConfig& network = quickstart->selfplay.search_for({.prior = true});
  EXPECT_FLOAT_EQ(network.leaf.quiescence, 1.0f);
  EXPECT_EQ(network.leaf.full_plies, 0);
  EXPECT_EQ(network.leaf.win_moves, 3);
  EXPECT_FLOAT_EQ(network.leaf.king_hunt, 1.0f);
  EXPECT_FLOAT_EQ(quickstart->selfplay.search_for({.prior = false, .value = false}).leaf.quiescence, 0.0f);
  EXPECT_FALSE(quickstart->selfplay.resign.enabled);  // sharp material values resign won games
  // Its games carry material in the search's value; three quarters of the value target teach it (E35).
  EXPECT_DOUBLE_EQ(quickstart->train.value_target_search, 0.75);
  // At 64 visits the networks' full searches force a quarter of KataGo's playouts, and the
  // trainer mirrors rows a <-> h (E38); the bootstrap keeps the default k.
  EXPECT_FLOAT_EQ(network.forced_playouts_k, 0.25f);
  EXPECT_FLOAT_EQ(quickstart->search.forced_playouts_k, 2.0f);
  EXPECT_TRUE(quickstart->train.mirror);
  // The networks' self-play gives the king hunt a tenth of a saturated leaf's value, so that a
  // large lead presses its won ending (E40); the shipped play search does not (not measured there).
  EXPECT_FLOAT_EQ(network.leaf.hunt_share, 0.1f);
  EXPECT_FLOAT_EQ(quickstart->play.leaf.hunt_share, 0.0f);
}

// cpu-long anneals its learning rate over the steps a 2-core run makes (docs/BENCHMARKS.md,
// "cpu-long"): the full rate after the warm-up, a tenth of it by the last generations.
TEST(RunConfig, CpuLongAnnealsItsLearningRate) {
  const auto c = load_run_config("cpu-long");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->train.lr_schedule, train::LrSchedule::Cosine);
  EXPECT_NEAR(train::learning_rate_at(c->train, c->train.warmup_steps), c->train.optimizer.learning_rate, 1e-12);
  EXPECT_NEAR(train::learning_rate_at(c->train, 12'200), 0.1 * c->train.optimizer.learning_rate, 1e-12);
  EXPECT_GT(train::learning_rate_at(c->train, 12'000), 0.1 * c->train.optimizer.learning_rate);
}

// Rules across the fields of a section are the section's own (train/train_config.h), reported at
// the key's line.
TEST(RunConfig, RulesAcrossFieldsNameTheKey) {
  expect_error("train:\n  window_floor: 100\n  window_cap: 10\n",
               "run.yaml:3: 'train.window_cap' must be at least 'train.window_floor'");
}

TEST(RunConfig, TrainerSetupCarriesWhatTheTrainerNeeds) {
  const RunConfig c =
      parse_run_config("seed: 5\nnet: tiny\nprofile: shatranj\ntrain:\n  batch_size: 16\n", "run.yaml").take_or_throw();
  const train::TrainerSetup setup = trainer_setup(c, "runs/x");
  EXPECT_EQ(setup.seed, 5u);
  EXPECT_EQ(setup.net.name, "tiny");
  EXPECT_EQ(setup.spec.game, "shatranj");
  EXPECT_EQ(setup.train.batch_size, 16);
  EXPECT_EQ(setup.run_dir, "runs/x");
  RunConfig bad = c;
  bad.profile = "nosuch";
  EXPECT_THROW(trainer_setup(bad, "runs/x"), Error);
}

TEST(TrainConfigYaml, UnknownKeyNamesTheFileAndTheKey) {
  const auto r = parse_run_config("net: tiny\ntrain:\n  batch_size: 64\n  batchsize: 32\n", "runs/x/config.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("runs/x/config.yaml"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("train.batchsize"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find(":4"), std::string::npos) << r.error();  // the line

  const std::string file = testing::TempDir() + "/sz-run-config-test-train.yaml";
  std::ofstream(file) << "train:\n  replay_ratoi: 4\n";
  const auto loaded = load_run_config(file);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find(file), std::string::npos) << loaded.error();
  EXPECT_NE(loaded.error().find("train.replay_ratoi"), std::string::npos) << loaded.error();

  const auto range = parse_run_config("train:\n  batch_size: 0\n", "r.yaml");
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.error().find("train.batch_size"), std::string::npos) << range.error();
  const auto choice = parse_run_config("train:\n  optimizer: adam\n", "r.yaml");
  ASSERT_FALSE(choice.ok());
  EXPECT_NE(choice.error().find("sgd | adamw"), std::string::npos) << choice.error();
}

TEST(TrainConfigYaml, ResolvedConfigRoundTrips) {
  const auto c = parse_run_config(
                     "train:\n  batch_size: 512\n  optimizer: adamw\n  lr_schedule: cosine\n  replay_ratio: 2.5\n"
                     "  precision: bfloat16\n  window_floor: 1000\n",
                     "a.yaml", {"train.learning_rate=0.005"})
                     .take_or_throw();
  EXPECT_EQ(c.train.batch_size, 512);
  EXPECT_EQ(c.train.optimizer.kind, models::OptimizerKind::AdamW);
  EXPECT_EQ(c.train.lr_schedule, train::LrSchedule::Cosine);
  EXPECT_EQ(c.train.precision, train::TrainPrecision::BFloat16);
  EXPECT_DOUBLE_EQ(c.train.optimizer.learning_rate, 0.005);
  const auto back = parse_run_config(to_yaml(c), "b.yaml").take_or_throw();
  EXPECT_EQ(to_yaml(back), to_yaml(c));
  EXPECT_EQ(back.train.window_floor, 1000);
  EXPECT_DOUBLE_EQ(back.train.replay_ratio, 2.5);
  EXPECT_DOUBLE_EQ(back.train.optimizer.weight_decay, c.train.optimizer.weight_decay);
}

}  // namespace
}  // namespace sz::run
