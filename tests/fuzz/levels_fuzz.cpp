// libFuzzer target: the levels manifest a run's `levels` writes (eval/levels.yaml) and `export
// --levels` reads back (src/bundle/levels_file.h). A manifest that is not one must fail with an
// sz::Error naming the file; nothing may crash.
#include <cstdint>
#include <string_view>

#include "bundle/levels_file.h"
#include "core/error.h"
#include "fuzz_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)sz::bundle::levels_manifest_from_text(text, "fuzz/levels.yaml");
  } catch (const sz::Error& e) {
    sz::fuzz::expect_named(e.what(), "fuzz/levels.yaml");
  }
  return 0;
}
