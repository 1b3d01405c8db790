// The torch-free parts of the trainer: the learning-rate schedules, the replay-ratio cap, the
// trainer's state and its lock (the run directory's files are tests/rundir's).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/file_lock.h"
#include "core/json.h"
#include "core/split.h"
#include "data/test_games.h"
#include "train/schedule.h"
#include "train/trainer_state.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;
using data::test::TempDir;

TEST(Schedule, WarmUpThenConstantStepOrCosine) {
  TrainConfig c;
  c.optimizer.learning_rate = 0.1;
  c.warmup_steps = 10;
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 0), 0.01);
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 9), 0.1);
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 5000), 0.1);
  c.lr_schedule = LrSchedule::Step;
  c.lr_step_every = 100;
  c.lr_step_factor = 0.5;
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 99), 0.1);
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 100), 0.05);
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 250), 0.025);
  c.lr_schedule = LrSchedule::Cosine;
  c.lr_decay_steps = 100;
  c.lr_final_fraction = 0.01;
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 10), 0.1);
  EXPECT_NEAR(learning_rate_at(c, 60), 0.0505, 1e-12);  // half way: the mean of 0.1 and 0.001
  EXPECT_NEAR(learning_rate_at(c, 110), 0.001, 1e-12);
  EXPECT_NEAR(learning_rate_at(c, 100'000), 0.001, 1e-12);
}

TEST(ReplayRatio, CapsStepsBySamplesPerNewPosition) {
  TrainConfig c;
  c.batch_size = 256;
  c.replay_ratio = 4;
  EXPECT_EQ(allowed_steps(c, 0), 0);
  EXPECT_EQ(allowed_steps(c, 63), 0);  // 252 samples: not one batch
  EXPECT_EQ(allowed_steps(c, 64), 1);  // 256 samples
  EXPECT_EQ(allowed_steps(c, 100'000), 1562);
  c.replay_ratio = 0.5;
  EXPECT_EQ(allowed_steps(c, 100'000), 195);
  c.replay_ratio = 0;  // no cap
  EXPECT_GT(allowed_steps(c, 1), int64_t{1} << 60);
}

TEST(TrainerState, RoundTripsAndRefusesUnknownKeys) {
  TrainerState s;
  s.step = 1234;
  s.seed = ~uint64_t{0} - 5;
  s.samples = 1234 * 256;
  s.network_samples = 1000 * 230;
  s.positions_seen = 99'999;
  s.window_positions = 50'000;
  s.window_shards = 7;
  s.newest_shard = "host-w03-000042.h5";
  s.loss_scale = 32768.5;
  s.loss_scale_good_steps = 17;
  const TrainerState back = state_from_text(state_to_text(s), "x.state").take_or_throw();
  EXPECT_EQ(state_to_text(back), state_to_text(s));
  EXPECT_EQ(back.seed, s.seed);
  EXPECT_EQ(back.loss_scale, s.loss_scale);

  const auto unknown = state_from_text(state_to_text(s) + "bogus: 1\n", "runs/r/models/model-00001234.state");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("runs/r/models/model-00001234.state"), std::string::npos) << unknown.error();
  EXPECT_NE(unknown.error().find("bogus"), std::string::npos) << unknown.error();
  const auto missing = state_from_text("format: 1\nstep: 3\n", "y.state");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("lacks seed"), std::string::npos) << missing.error();
  EXPECT_FALSE(state_from_text("format: 2\n", "z.state").ok());
  EXPECT_FALSE(state_from_text("format: 3\n", "z.state").ok());
  // Format 1 had no network_samples: it reads as 0, and the state is written as format 2.
  const std::string text = state_to_text(s);
  std::string old_text;
  for (const std::string_view line : split(text, '\n'))
    if (!line.empty() && !line.starts_with("network_samples") && !line.starts_with("format"))
      old_text += std::string(line) + "\n";
  const TrainerState old = state_from_text("format: 1\n" + old_text, "old.state").take_or_throw();
  EXPECT_EQ(old.network_samples, 0);
  EXPECT_EQ(old.step, s.step);
  EXPECT_EQ(old.format, kTrainerStateVersion);
}

TEST(TrainerLock, OneTrainerPerRunDirectory) {
  TempDir dir;
  const std::string path = dir.file(".trainer.lock");
  auto first = std::make_unique<FileLock>(path, "trainer");
  try {
    FileLock second(path, "trainer");
    FAIL() << "two locks";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another trainer"), std::string::npos) << e.what();
  }
  first.reset();
  FileLock third(path, "trainer");  // free again
}

}  // namespace
}  // namespace sz::train
