// core/: untrusted text shown in messages, the FNV-1a checksum, lines appended to logs and the
// temporaries of killed writers.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/fnv1a.h"
#include "core/shown_text.h"

namespace sz {
namespace {

// A process that has ended: its pid names no live process (until the system reuses it).
int dead_pid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return int(child);
}

// A writer killed between its write and its rename left "<name>.tmp<pid>" for good (the soak
// found eval/final-vs-first.json.tmp<pid>). Those of ended processes go; a live writer's stays,
// and so does every other name.
TEST(AtomicFile, StaleTemporariesOfEndedWritersAreRemoved) {
  const std::string dir = testing::TempDir() + "/stale-temporaries-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string dead = std::to_string(dead_pid()), live = std::to_string(::getpid());
  const std::vector<std::string> kept = {"config.yaml.tmp" + live, "loss.png.tmp", "notes.tmpx", "ladder.json"};
  for (const std::string& name : kept) std::ofstream(dir + "/" + name) << "x";
  for (const std::string& name : {"ladder.json.tmp" + dead, "model-00000005.pt.tmp" + dead})
    std::ofstream(dir + "/" + name) << "x";
  const std::vector<std::string> removed = remove_stale_temporaries(dir);
  EXPECT_EQ(removed.size(), 2u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/ladder.json.tmp" + dead));
  EXPECT_FALSE(std::filesystem::exists(dir + "/model-00000005.pt.tmp" + dead));
  for (const std::string& name : kept) EXPECT_TRUE(std::filesystem::exists(dir + "/" + name)) << name;
  EXPECT_TRUE(remove_stale_temporaries(dir + "/missing").empty());
  std::filesystem::remove_all(dir);
}

// A line left unfinished by a killed writer stays a line of its own: the next record is whole.
TEST(AppendLine, APartialLastLineDoesNotSwallowTheNextRecord) {
  const std::string path = testing::TempDir() + "/append-line-" + std::to_string(::getpid()) + ".jsonl";
  std::filesystem::remove(path);
  append_line(path, "{\"step\": 1}");
  std::ofstream(path, std::ios::app) << "{\"step\": 2, \"lo";  // killed mid-line
  append_line(path, "{\"step\": 3}");
  append_line(path, "{\"step\": 4}");
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  EXPECT_EQ(all.str(), "{\"step\": 1}\n{\"step\": 2, \"lo\n{\"step\": 3}\n{\"step\": 4}\n");
  std::filesystem::remove(path);
  EXPECT_THROW(append_line("/nonexistent-dir/x.jsonl", "{}"), Error);
}

TEST(ShownText, PrintableTextIsUnchanged) {
  EXPECT_EQ(shown_text("name: quickstart"), "name: quickstart");
  EXPECT_EQ(shown_text(""), "");
  EXPECT_EQ(shown_text("caf\xC3\xA9 \xE2\x99\x9E"), "caf\xC3\xA9 \xE2\x99\x9E");  // UTF-8 stays
}

TEST(ShownText, BinaryBytesAreEscaped) {
  EXPECT_EQ(shown_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(shown_text("\x1B[2J\x7F"), "\\x1B[2J\\x7F");
  EXPECT_EQ(shown_text("tab\there\n"), "tab\\x09here\\x0A");
  // Bytes that are not UTF-8: a lone continuation byte, a truncated sequence, an overlong form.
  EXPECT_EQ(shown_text("\x80\xFF"), "\\x80\\xFF");
  EXPECT_EQ(shown_text("\xE2\x99"), "\\xE2\\x99");
  EXPECT_EQ(shown_text("\xC0\xAF"), "\\xC0\\xAF");
  EXPECT_EQ(shown_text("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a UTF-16 surrogate
}

TEST(ShownText, LongTextIsCutShort) {
  const std::string long_text(200, 'x');
  EXPECT_EQ(shown_text(long_text), std::string(60, 'x') + "...");
  EXPECT_EQ(shown_text(std::string(60, 'x')), std::string(60, 'x'));
  EXPECT_EQ(shown_text("\x01\x02\x03\x04", 2), "\\x01\\x02...");  // an escape counts as one
  EXPECT_EQ(shown_text(std::string(100, '\xFF')).size(), 60u * 4 + 3);
}

TEST(Fnv1a, KnownValues) {
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
  EXPECT_EQ(fnv1a64("bar", 3, fnv1a64("foo", 3)), fnv1a64("foobar", 6));  // continues
}

}  // namespace
}  // namespace sz
