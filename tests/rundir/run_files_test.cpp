// The run directory (src/rundir): its layout, the trainer's checkpoint files and current.txt, and
// the loop's generation.txt. (adopted.txt: tests/run/loop_test.cpp and tests/cli/follow_test.cpp;
// the plots: tests/train/trainer_test.cpp.)
#include <gtest/gtest.h>

#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/test_games.h"
#include "rundir/checkpoint_files.h"
#include "rundir/loop_state.h"
#include "rundir/run_paths.h"

namespace sz::rundir {
namespace {

namespace fs = std::filesystem;
using data::test::TempDir;

TEST(RunPaths, LayoutAndWhatCountsAsARun) {
  TempDir dir;
  const RunPaths paths(dir.str());
  EXPECT_EQ(paths.games(), dir.file("games"));
  EXPECT_EQ(paths.config(), dir.file("config.yaml"));
  EXPECT_EQ(paths.adopted(), dir.file("models/adopted.txt"));
  EXPECT_EQ(paths.train_log(), dir.file("logs/train.jsonl"));
  EXPECT_EQ(paths.elo_log(), dir.file("eval/elo.jsonl"));
  EXPECT_EQ(paths.checkpoint(1000), dir.file("models/model-00001000.pt"));
  EXPECT_EQ(paths.in_eval("final-vs-first.json"), dir.file("eval/final-vs-first.json"));
  // An empty directory (a typo's) is not a run; one the loop set up is.
  EXPECT_FALSE(paths.looks_like_run());
  paths.create_directories();
  for (const std::string& d : {paths.games(), paths.models(), paths.eval(), paths.logs(), paths.plots()})
    EXPECT_TRUE(fs::is_directory(d)) << d;
  EXPECT_TRUE(paths.looks_like_run());
}

TEST(RunFiles, CheckpointNamesCurrentAndPruning) {
  EXPECT_EQ(checkpoint_file_name(1000), "model-00001000.pt");
  EXPECT_EQ(checkpoint_step("model-00001000.pt"), 1000);
  EXPECT_EQ(checkpoint_step("model-123456789.pt"), 123456789);
  EXPECT_EQ(checkpoint_step("model-.pt"), -1);
  EXPECT_EQ(checkpoint_step("model-00001000.pt.tmp42"), -1);
  EXPECT_EQ(state_path("/r/models/model-00000005.pt"), "/r/models/model-00000005.state");

  TempDir dir;
  EXPECT_EQ(read_current(dir.str()), "");
  for (int step : {5, 10, 15, 20}) {
    write_file_atomically(dir.file(checkpoint_file_name(step)), "weights");
    write_file_atomically(state_path(dir.file(checkpoint_file_name(step))), "state");
  }
  write_file_atomically(dir.file("model-00000025.pt.tmp999"), "half");  // a killed writer's
  write_current(dir.str(), checkpoint_file_name(10));
  EXPECT_EQ(read_current(dir.str()), dir.file("model-00000010.pt"));
  const auto deleted = prune_checkpoints(dir.str(), 2);
  // Keeps the newest two and the current one; deletes the temporary.
  EXPECT_TRUE(fs::exists(dir.file("model-00000010.pt")));
  EXPECT_TRUE(fs::exists(dir.file("model-00000015.pt")));
  EXPECT_TRUE(fs::exists(dir.file("model-00000020.pt")));
  EXPECT_FALSE(fs::exists(dir.file("model-00000005.pt")));
  EXPECT_FALSE(fs::exists(dir.file("model-00000005.state")));
  EXPECT_FALSE(fs::exists(dir.file("model-00000025.pt.tmp999")));
  EXPECT_EQ(deleted.size(), 2u);

  write_file_atomically(dir.file("current.txt"), "model-00000099.pt\n");
  try {
    read_current(dir.str());
    FAIL() << "current.txt names a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("current.txt"), std::string::npos) << e.what();
  }
}

TEST(RunFiles, GenerationTrainingRoundTripsAndRefusesWhatTheLoopCannotUse) {
  TempDir dir;
  fs::create_directories(dir.file("models"));
  EXPECT_TRUE(read_generation_training(dir.str()).done);  // none yet: nothing to finish
  write_generation_training(dir.str(), {3, 120, 10, false});
  const GenerationTraining g = read_generation_training(dir.str());
  EXPECT_EQ(g.generation, 3);
  EXPECT_EQ(g.from_step, 120);
  EXPECT_EQ(g.steps, 10);
  EXPECT_FALSE(g.done);
  // Numbers whose sums would overflow in the loop (generation + 1, from_step + steps, which
  // tests/fuzz/run_state_fuzz.cpp computes) and a key given twice are refused, naming the file.
  for (const char* text : {"generation: 2147483647\nfrom_step: 0\nsteps: 1\ndone: true\n",
                           "generation: 1\nfrom_step: 9223372036854775807\nsteps: 1\ndone: false\n",
                           "generation: 1\nfrom_step: 0\nsteps: 9223372036854775807\ndone: false\n",
                           "generation: 1\ngeneration: 2\nfrom_step: 0\nsteps: 1\ndone: true\n"}) {
    const auto r = generation_training_from_text(text, "run/models/generation.txt");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().find("run/models/generation.txt: bad line"), std::string::npos) << r.error();
  }
  write_file_atomically(dir.file("models/generation.txt"), "generation: 1\nsteps: 1\n");
  try {
    read_generation_training(dir.str());
    FAIL() << "a generation.txt without from_step and done";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("models/generation.txt: needs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sz::rundir
