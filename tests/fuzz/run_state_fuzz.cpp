// libFuzzer target: the state files a run reads back when it resumes. The input's parts, split at
// NUL bytes: models/generation.txt (the loop's progress), models/current.txt and
// models/adopted.txt (the trainer's and self-play's checkpoint; written into a scratch run whose
// models/ holds a file that is not a checkpoint), a trainer state (a checkpoint's, or
// model-<step>.state of older runs) and a checkpoint's metadata text. Each reader may refuse its
// file, naming it, and nothing may crash; what generation.txt gives must not overflow the loop's
// arithmetic on it.
#include <cstdint>
#include <string>

#include "core/error.h"
#include "fuzz_files.h"
#include "models/checkpoint_meta.h"
#include "rundir/checkpoint_files.h"
#include "rundir/loop_state.h"
#include "train/trainer_state.h"

namespace {

void generation(std::string_view text) {
  const auto g = sz::rundir::generation_training_from_text(text, "fuzz/generation.txt");
  if (!g) return sz::fuzz::expect_named(g.error(), "fuzz/generation.txt");
  // What run/loop.cpp computes from it: UBSan reports an overflow.
  volatile int64_t end = g->from_step + g->steps;
  volatile int next = g->generation + 1;
  (void)end, (void)next;
}

void pointers(std::string_view current, std::string_view adopted) {
  using namespace sz::rundir;
  const std::string& run = sz::fuzz::scratch_run();
  sz::fuzz::write_bytes(run + "/models/model-00000005.pt", "not a checkpoint");
  sz::fuzz::write_bytes(run + "/models/current.txt", current);
  sz::fuzz::write_bytes(run + "/models/adopted.txt", adopted);
  try {
    (void)read_current(run + "/models");
  } catch (const sz::Error& e) {
    sz::fuzz::expect_named(e.what(), "current.txt");
  }
  try {
    (void)read_adopted(run);
  } catch (const sz::Error& e) {
    sz::fuzz::expect_named(e.what(), "adopted.txt");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto files = sz::fuzz::split_files(data, size, 5);
  generation(files[0]);
  pointers(files[1], files[2]);
  if (const auto state = sz::train::state_from_text(files[3], "fuzz.state"); !state)
    sz::fuzz::expect_named(state.error(), "fuzz.state");
  if (const auto meta = sz::models::meta_from_text(files[4], "fuzz.pt"); !meta)
    sz::fuzz::expect_named(meta.error(), "fuzz.pt");
  return 0;
}
