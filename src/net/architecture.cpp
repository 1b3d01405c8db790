#include "net/architecture.h"

#include <algorithm>
#include <utility>

namespace sz::net {

namespace {

// Each field of a field list as (key, text), in order; with `net`, only the fields that shape it.
struct FieldTexts {
  const NetConfig* net = nullptr;
  std::vector<std::pair<std::string, std::string>> items;

  template <typename T>
  void num(const char* key, const T& value, T, T) {
    add(key, std::to_string(value));
  }
  void flag(const char* key, const bool& value) { add(key, value ? "true" : "false"); }
  void text(const char* key, const std::string& value) { add(key, value); }
  void check(bool, const char*, const std::string&) {}
  std::string path(const char* key) const { return key; }
  void add(const char* key, std::string value) {
    if (!net || field_in_use(*net, key)) items.emplace_back(key, std::move(value));
  }
};

// The architecture's fields, the encoding first (a different encoding is the more fundamental
// mismatch). The network's name is left out: it is only a label.
FieldTexts field_texts(Architecture a) {
  FieldTexts texts;
  fields(texts, a.spec);
  texts.net = &a.net;
  fields(texts, a.net);
  std::erase_if(texts.items, [](const auto& item) { return item.first == "name"; });
  texts.net = nullptr;
  return texts;
}

}  // namespace

std::string describe(const Architecture& a) {
  const auto& n = a.net;
  const auto& s = a.spec;
  std::string text = n.name + ": " + std::to_string(n.blocks) + " x " + std::to_string(n.channels);
  if (n.global_pool_every > 0) text += ", global pooling every " + std::to_string(n.global_pool_every);
  if (n.spatial_policy) text += ", spatial policy";
  text += n.moves_left ? ", WDL + moves-left" : ", WDL";
  text += ", " + s.game + " (" + std::to_string(s.binary_planes) + " + " + std::to_string(s.scalar_features) + " -> " +
          std::to_string(s.action_space) + "), encoder " + std::to_string(s.encoder_version) + ", actions " +
          std::to_string(s.action_space_version);
  return text;
}

std::vector<std::string> architecture_differences(const Architecture& want, const Architecture& found) {
  const FieldTexts wanted = field_texts(want), stored = field_texts(found);
  std::vector<std::string> differences;
  for (const auto& item : wanted.items) {
    // Named references, not a structured binding: clang 14 (the fuzz targets') cannot capture one.
    const auto& key = item.first;
    const auto& value = item.second;
    // A field that shapes only one of the two networks differs through the field that turns it on.
    const auto other =
        std::find_if(stored.items.begin(), stored.items.end(), [&](const auto& s) { return s.first == key; });
    if (other != stored.items.end() && other->second != value)
      differences.push_back(key + ": checkpoint " + other->second + ", expected " + value);
  }
  return differences;
}

std::string join_differences(const std::vector<std::string>& diffs) {
  std::string text;
  for (const auto& d : diffs) text += (text.empty() ? "" : "; ") + d;
  return text;
}

}  // namespace sz::net
