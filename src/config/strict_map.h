#pragma once
// Strict reading of YAML mappings, shared by every config loader in config/ (the only module
// that includes yaml-cpp). Every key must be consumed by a reader, or it is reported as unknown;
// every error names the source file, the line and the dotted key.
#include <yaml-cpp/yaml.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.h"

namespace sz::config {

// Reads one YAML mapping strictly: every key must be consumed by a reader, or it is reported.
class StrictMap {
 public:
  StrictMap(const YAML::Node& node, std::string where, std::string_view source)
      : node_(node), where_(std::move(where)), source_(source) {
    if (!node.IsMap()) throw error(node, where_ + " must be a mapping");
  }

  template <typename T>
  void read(const std::string& key, T& out) {
    seen_.insert(key);
    if (const YAML::Node v = node_[key]) {
      try {
        out = v.as<T>();
      } catch (const YAML::Exception&) {
        throw error(v, "'" + path(key) + "' has a value of the wrong type");
      }
    }
  }

  template <typename E>
  void read_enum(const std::string& key, E& out, std::initializer_list<std::pair<const char*, E>> names) {
    seen_.insert(key);
    const YAML::Node v = node_[key];
    if (!v) return;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    std::string choices;
    for (auto [name, value] : names) {
      if (text == name) {
        out = value;
        return;
      }
      choices += std::string(choices.empty() ? "" : " | ") + name;
    }
    throw error(v, "'" + path(key) + "' must be one of " + choices + ", not '" + text + "'");
  }

  void read_range(const std::string& key, int (&out)[2], int lo, int hi) {
    seen_.insert(key);
    const YAML::Node v = node_[key];
    if (!v) return;
    if (!v.IsSequence() || v.size() != 2) throw error(v, "'" + path(key) + "' must be [first, last]");
    int a = 0, b = 0;
    try {
      a = v[0].as<int>();
      b = v[1].as<int>();
    } catch (const YAML::Exception&) {
      throw error(v, "'" + path(key) + "' must hold two whole numbers");
    }
    if (a < lo || b > hi || a > b)
      throw error(v, "'" + path(key) + "' must satisfy " + std::to_string(lo) + " <= first <= last <= " + std::to_string(hi));
    out[0] = a;
    out[1] = b;
  }

  std::optional<StrictMap> child(const std::string& key) {
    seen_.insert(key);
    if (const YAML::Node v = node_[key]) return StrictMap(v, path(key), source_);
    return std::nullopt;
  }

  void check_no_unknown_keys() const {
    for (const auto& kv : node_) {
      const std::string key = kv.first.as<std::string>();
      if (!seen_.count(key)) throw error(kv.first, "unknown key '" + path(key) + "'");
    }
  }

  Error error(const YAML::Node& at, const std::string& what) const {
    const YAML::Mark mark = at.Mark();
    std::string place(source_);
    if (mark.line >= 0) place += ":" + std::to_string(mark.line + 1);
    return Error(place + ": " + what);
  }

  // The dotted path of `key` in the document, for messages: "end.stalemate".
  std::string path(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }

 private:

  YAML::Node node_;
  std::string where_;
  std::string_view source_;
  std::set<std::string> seen_;
};

// Parses YAML text, turning a syntax error into sz::Error naming `source` and the line.
YAML::Node load_yaml(std::string_view text, std::string_view source);

}  // namespace sz::config
