#pragma once
// Two checkpoints compared exactly, tensor by tensor (weights, batch-norm statistics, optimiser
// state, the trainer's state, metadata): what "resumes as if never stopped" means in the tests.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <string>

#include "models/checkpoint.h"
#include "rundir/checkpoint_files.h"

namespace sz::train::test {

// LibTorch names each parameter's optimiser state by the address of the parameter's tensor in the
// process that saved it (param_groups/<g>/params/<i> holds the address, state/<address> the
// state). Two processes save different addresses for the same state: compare through the
// parameter's place instead.
struct Addresses {
  std::map<std::string, std::string> a, b;  // address -> "param_groups/<g>/params/<i>"
  static std::map<std::string, std::string> of(torch::serialize::InputArchive& root) {
    std::map<std::string, std::string> places;
    torch::serialize::InputArchive optimizer, groups;
    if (root.try_read("optimizer", optimizer) && optimizer.try_read("param_groups", groups))
      collect(groups, "", places);
    return places;
  }
  static void collect(torch::serialize::InputArchive& archive, const std::string& at,
                      std::map<std::string, std::string>& out) {
    for (const std::string& key : archive.keys()) {
      torch::serialize::InputArchive sub;
      c10::IValue v;
      if (archive.try_read(key, sub))
        collect(sub, at + key + "/", out);
      else if (archive.try_read(key, v) && v.isString() && (at + key).find("params/") != std::string::npos)
        out[v.toStringRef()] = at + key;
    }
  }
  static std::string canon(const std::map<std::string, std::string>& m, const std::string& s) {
    const auto it = m.find(s);
    return it == m.end() ? s : "<" + it->second + ">";
  }
};

// Every tensor and value of two checkpoint archives, compared exactly (weights, batch-norm
// statistics, optimiser state, metadata).
inline void expect_same_archives(torch::serialize::InputArchive& a, torch::serialize::InputArchive& b,
                                 const std::string& at, const Addresses& addr) {
  std::map<std::string, std::string> keys_a, keys_b;  // canonical -> real
  for (const auto& k : a.keys()) keys_a[Addresses::canon(addr.a, k)] = k;
  for (const auto& k : b.keys()) keys_b[Addresses::canon(addr.b, k)] = k;
  ASSERT_EQ(keys_a.size(), keys_b.size()) << at;
  for (const auto& [canon, key_a] : keys_a) {
    ASSERT_EQ(keys_b.count(canon), 1u) << at << canon;
    const std::string& key_b = keys_b.at(canon);
    torch::Tensor ta, tb;
    if (a.try_read(key_a, ta)) {
      ASSERT_TRUE(b.try_read(key_b, tb)) << at << canon;
      EXPECT_TRUE(ta.sizes() == tb.sizes() && torch::equal(ta, tb)) << at << canon;
      continue;
    }
    torch::serialize::InputArchive sa, sb;
    if (a.try_read(key_a, sa)) {
      ASSERT_TRUE(b.try_read(key_b, sb)) << at << canon;
      expect_same_archives(sa, sb, at + canon + "/", addr);
      continue;
    }
    c10::IValue va, vb;
    a.read(key_a, va);
    b.read(key_b, vb);
    EXPECT_EQ(va.tagKind(), vb.tagKind()) << at << canon;
    if (va.isString()) {
      EXPECT_EQ(Addresses::canon(addr.a, va.toStringRef()), Addresses::canon(addr.b, vb.toStringRef())) << at << canon;
    } else if (va.isInt()) {
      EXPECT_EQ(va.toInt(), vb.toInt()) << at << canon;
    } else if (va.isDouble()) {
      EXPECT_EQ(va.toDouble(), vb.toDouble()) << at << canon;
    }
  }
}

inline void expect_same_checkpoints(const std::string& a, const std::string& b) {
  ASSERT_TRUE(std::filesystem::exists(a)) << a;
  ASSERT_TRUE(std::filesystem::exists(b)) << b;
  torch::serialize::InputArchive xa, xb;
  xa.load_from(a);
  xb.load_from(b);
  const Addresses addr{Addresses::of(xa), Addresses::of(xb)};
  EXPECT_FALSE(addr.a.empty());            // the optimiser state is there
  expect_same_archives(xa, xb, "", addr);  // the trainer's state inside them too
  EXPECT_FALSE(models::read_checkpoint_meta(a).trainer_state.empty());
  EXPECT_FALSE(std::filesystem::exists(rundir::state_path(a)));  // no file beside the checkpoint any more
}

}  // namespace sz::train::test
