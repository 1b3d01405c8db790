// Network configs load strictly from YAML: presets by name, files by path, and every error names
// the file, the line and the key.
#include "net/net_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace sz::models {
namespace {

void expect_error(std::string_view yaml, const std::string& needle, const std::string& line) {
  const auto r = net::parse_net_config(yaml, "net.yaml");
  ASSERT_FALSE(r.ok()) << "accepted: " << yaml;
  EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
  EXPECT_EQ(r.error().rfind("net.yaml:" + line + ":", 0), 0u) << r.error();
}

TEST(NetConfig, PresetsLoadFromAnywhere) {
  const auto names = net::builtin_net_presets();
  for (const char* want : {"tiny", "small", "medium", "large"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  for (const auto& name : names) {
    const auto net = net::load_net_config(name);
    ASSERT_TRUE(net.ok()) << net.error();
    EXPECT_EQ(net->name, name);
  }
  const net::NetConfig small = *net::load_net_config("small");
  EXPECT_EQ(small.blocks, 6);
  EXPECT_EQ(small.channels, 64);
  const net::NetConfig large = *net::load_net_config("large");
  EXPECT_GE(large.blocks, 15);
  EXPECT_EQ(large.channels, 256);
  EXPECT_GT(large.global_pool_every, 0);
}

TEST(NetConfig, MissingKeysKeepTheStructDefaults) {
  const auto net = net::parse_net_config("blocks: 3\n", "net.yaml");
  ASSERT_TRUE(net.ok()) << net.error();
  net::NetConfig want;
  want.blocks = 3;
  EXPECT_EQ(*net, want);
}

TEST(NetConfig, ErrorsNameFileLineAndKey) {
  expect_error("blocks: 2\nchanels: 16\n", "unknown key 'chanels'", "2");
  expect_error("name: x\nblocks: 0\n", "'blocks' must be in 1..64, not 0", "2");
  expect_error("channels: 100000\n", "'channels' must be in", "1");
  expect_error("blocks: two\n", "'blocks' has a value of the wrong type", "1");
  expect_error("blocks: 2\nglobal_pool_every: 3\n", "'global_pool_every' must be at most 'blocks'", "2");
  expect_error("channels: 16\nglobal_pool_every: 1\nglobal_pool_channels: 32\n", "'global_pool_channels'", "3");
  expect_error("moves_left: maybe\n", "'moves_left'", "1");
  const auto syntax = net::parse_net_config("blocks: [1\n", "net.yaml");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.error().rfind("net.yaml:", 0), 0u) << syntax.error();
}

TEST(NetConfig, LoadsAFileByPathAndListsPresetsOtherwise) {
  const std::string path = testing::TempDir() + "/my-net.yaml";
  std::ofstream(path) << "name: mine\nblocks: 3\nchannels: 24\n";
  const auto net = net::load_net_config(path);
  ASSERT_TRUE(net.ok()) << net.error();
  EXPECT_EQ(net->blocks, 3);
  EXPECT_EQ(net->channels, 24);
  const auto missing = net::load_net_config("huge");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("tiny"), std::string::npos) << missing.error();
}

TEST(NetConfig, ValidateChecksConfigsBuiltInCode) {
  net::NetConfig net;
  EXPECT_TRUE(net::validate(net).ok());
  net.channels = 2;
  ASSERT_FALSE(net::validate(net).ok());
  EXPECT_NE(net::validate(net).error().find("'channels'"), std::string::npos);
}

}  // namespace
}  // namespace sz::models
