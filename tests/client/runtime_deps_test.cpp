// What the client runtime pulls in: this test binary links sz_client alone, so the shared
// libraries mapped into it are the runtime's. None may be LibTorch, HDF5, yaml-cpp or TBB.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace sz {
namespace {

TEST(ClientRuntime, LoadsNoTorchHdf5YamlOrTbb) {
  std::ifstream maps("/proc/self/maps");
  ASSERT_TRUE(maps) << "/proc/self/maps is unreadable";
  std::string line;
  int libraries = 0;
  while (std::getline(maps, line)) {
    if (line.find(".so") == std::string::npos) continue;
    ++libraries;
    for (const char* banned : {"libtorch", "libc10", "libhdf5", "libyaml-cpp", "libtbb", "libgomp"})
      EXPECT_EQ(line.find(banned), std::string::npos) << "the client runtime loads " << line;
  }
  EXPECT_GT(libraries, 0);  // the walk saw the C++ runtime at least
}

}  // namespace
}  // namespace sz
