// The one whole-file reader (core/read_file.h): the bytes as written, an empty file as "", and a
// missing file, a directory or a FIFO refused with a message that names the path (a FIFO never
// opened: that would block).
#include "core/read_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sz {
namespace {

std::string scratch(const std::string& name) {
  return testing::TempDir() + "/read-file-" + std::to_string(getpid()) + "-" + name;
}

TEST(ReadFile, ReturnsTheBytesAsWritten) {
  const std::string path = scratch("bytes");
  const std::string bytes("a\0b\r\n\xff", 6);
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(read_file(path), bytes);
  std::ofstream(path, std::ios::binary | std::ios::trunc);
  EXPECT_EQ(try_read_file(path).value(), "");
  std::filesystem::remove(path);
}

TEST(ReadFile, RefusesWhatIsNoFileNamingThePath) {
  const std::string missing = scratch("missing");
  EXPECT_EQ(try_read_file(missing).error(), missing + ": cannot read");
  EXPECT_EQ(try_read_file(missing, "cannot open the model").error(), missing + ": cannot open the model");
  EXPECT_THROW(read_file(missing), Error);
  const std::string dir = scratch("dir");
  std::filesystem::create_directory(dir);
  EXPECT_EQ(try_read_file(dir).error(), dir + ": is a directory, not a file");
  std::filesystem::remove(dir);
  const std::string fifo = scratch("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(try_read_file(fifo).error(), fifo + ": is a FIFO, not a file");  // returns: never opened
  std::filesystem::remove(fifo);
}

}  // namespace
}  // namespace sz
