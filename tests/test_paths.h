#pragma once
// Paths the tests need, set by tests/CMakeLists.txt.
#include <string>

namespace sz::test {

inline std::string shared_dir() { return SZ_SHARED_DIR; }
inline std::string testdata(const std::string& file) { return shared_dir() + "/testdata/" + file; }
inline std::string source_dir() { return SZ_SOURCE_DIR; }
inline std::string binary() { return SZ_BINARY; }

}  // namespace sz::test
