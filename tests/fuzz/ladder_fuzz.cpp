// libFuzzer target: the loop's ladder read back (run/ladder.h): eval/networks.jsonl and
// eval/ladder.jsonl, the input's two parts split at its first NUL byte, then fitted and reported
// as the loop does on a resume. A bad line must fail with an sz::Error naming the file and line;
// nothing may crash, overflow or hang.
#include <cstdint>
#include <string>

#include "core/error.h"
#include "fuzz_files.h"
#include "run/ladder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sz::run;
  const auto files = sz::fuzz::split_files(data, size, 2);
  try {
    const Ladder ladder("fuzz-run", "anchor", /*conditions=*/7, files[0], files[1]);
    for (const LadderNetwork& n : ladder.networks()) {
      (void)ladder.played(n.step, kAnchorStep);
      (void)ladder.final_match(n.step, kAnchorStep);
    }
    const LadderFit fit = ladder.fit();
    for (const LadderRating& r : fit.networks) (void)describe_rating(r, ladder.anchor());
  } catch (const sz::Error& e) {
    sz::fuzz::expect_named(e.what(), "fuzz-run/eval/");
  }
  return 0;
}
