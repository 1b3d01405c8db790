#pragma once
// Strict reading of YAML mappings, shared by every config loader in config/ (the only module
// that includes yaml-cpp). Every key must be consumed by a reader, or it is reported as unknown;
// every error names the source file, the line and the dotted key.
#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/shown_text.h"

namespace sz::config {

// A node set from the command line (`--set KEY=VALUE`), not read from the file: an error about
// it names the override instead of a line of the file.
struct Override {
  YAML::Node node;
  std::string text;  // "train.batch_size=x"
};
using Overrides = std::vector<Override>;

// Reads one YAML mapping strictly: every key must be consumed by a reader, or it is reported.
// A key given twice is an error (yaml-cpp would silently keep the first value), and so is a key
// without a value (yaml-cpp would read it as the text "null").
class StrictMap {
 public:
  // `overrides`, if given, must outlive the map and the maps of its children.
  StrictMap(const YAML::Node& node, std::string where, std::string_view source, const Overrides* overrides = nullptr)
      : node_(node), where_(std::move(where)), source_(source), overrides_(overrides) {
    if (!node.IsMap()) throw error(node, (where_.empty() ? "the document" : "'" + where_ + "'") + " must be a mapping");
    check_no_duplicate_keys();
  }

  template <typename T>
  void read(const std::string& key, T& out) {
    seen_.insert(key);
    if (const YAML::Node v = node_[key]) {
      if (v.IsNull()) throw error(override_text(v) ? v : key_node(key), "'" + path(key) + "' has no value");
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
    throw error(v, "'" + path(key) + "' must be one of " + choices + ", not '" + shown_text(text) + "'");
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
    if (const YAML::Node v = node_[key]) return StrictMap(v, path(key), source_, overrides_);
    return std::nullopt;
  }

  void check_no_unknown_keys() const {
    for (const auto& kv : node_) {
      const std::string key = key_text(kv.first);
      if (!seen_.count(key))
        throw error(override_text(kv.second) ? kv.second : kv.first, "unknown key '" + shown_text(path(key)) + "'");
    }
  }

  // "<file>:<line>: <what>", or "--set <override>: <what>" for a node set on the command line.
  Error error(const YAML::Node& at, const std::string& what) const {
    if (const std::string* text = override_text(at)) return Error("--set " + shown_text(*text) + ": " + what);
    const YAML::Mark mark = at.Mark();
    std::string place(source_);
    if (mark.line >= 0) place += ":" + std::to_string(mark.line + 1);
    return Error(place + ": " + what);
  }

  // The dotted path of `key` in the document, for messages: "end.stalemate".
  std::string path(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }

 private:
  static std::string key_text(const YAML::Node& key) { return key.IsScalar() ? key.Scalar() : "(a non-scalar key)"; }

  // The node of `key` itself: its line is the one to name for a missing value (yaml-cpp marks
  // an empty value at the token after it, often on the next line).
  YAML::Node key_node(const std::string& key) const {
    for (const auto& kv : node_)
      if (key_text(kv.first) == key) return kv.first;
    return node_;
  }

  const std::string* override_text(const YAML::Node& at) const {
    if (overrides_)
      for (const Override& o : *overrides_)
        if (o.node.is(at)) return &o.text;
    return nullptr;
  }

  void check_no_duplicate_keys() const {
    std::map<std::string, int> first_line;
    for (const auto& kv : node_) {
      const std::string key = key_text(kv.first);
      const auto [it, fresh] = first_line.emplace(key, kv.first.Mark().line + 1);
      if (!fresh)
        throw error(kv.first, "duplicate key '" + shown_text(path(key)) + "' (first given on line " +
                                  std::to_string(it->second) + ")");
    }
  }

  YAML::Node node_;
  std::string where_;
  std::string_view source_;
  const Overrides* overrides_ = nullptr;
  std::set<std::string> seen_;
};

// Parses YAML text, turning a syntax error into sz::Error naming `source` and the line.
YAML::Node load_yaml(std::string_view text, std::string_view source);

}  // namespace sz::config
