// models::read_checkpoint_meta for the fuzz targets that compile src/rundir/loop_state.cpp without
// LibTorch (CMakeLists.txt says why): every checkpoint fails to open with a named error, as a
// damaged one does, so read_adopted's refusal path runs; the archive itself is LibTorch's.
#include "core/error.h"
#include "models/checkpoint_meta.h"

namespace sz::models {

CheckpointMeta read_checkpoint_meta(const std::string& path) {
  throw Error(path + ": not a readable checkpoint (the fuzz targets open none)");
}

}  // namespace sz::models
