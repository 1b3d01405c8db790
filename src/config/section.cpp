// The yaml-cpp side of config/section.h: strict mappings, --set overrides, the emitter.
#include "config/section.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include "config/embedded.h"
#include "core/number_text.h"
#include "core/read_file.h"
#include "core/shown_text.h"

namespace sz::config {

namespace {

// A node set from the command line (`--set KEY=VALUE`), not read from the file: an error about
// it names the override instead of a line of the file.
struct Override {
  YAML::Node node;
  std::string text;  // "train.batch_size=x"
};

// What every Section of one document shares: where the text came from and its overrides.
struct Document {
  std::string source;
  std::vector<Override> overrides;
};

YAML::Node load_yaml(std::string_view text, std::string_view source) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    // yaml-cpp's message may quote a byte of the text ("unknown escape character: <byte>").
    throw Error(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": " + shown_text(e.msg, 200));
  }
}

std::string key_text(const YAML::Node& key) { return key.IsScalar() ? key.Scalar() : "(a non-scalar key)"; }

// --set section.key=value: sets (or adds) one scalar in the parsed tree, and notes the nodes it
// made (the value, and any section it created) so that an error about them names the override.
void apply_override(YAML::Node root, const std::string& assignment, std::vector<Override>& overrides) {
  const std::string shown = "--set '" + shown_text(assignment) + "'";
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw Error(shown + ": expected key=value");
  const std::string path = assignment.substr(0, eq);
  std::vector<std::string> keys;
  for (size_t start = 0, dot; start <= path.size(); start = dot + 1) {
    dot = std::min(path.find('.', start), path.size());
    keys.push_back(path.substr(start, dot - start));
  }
  size_t created = keys.size() - 1;  // the first key on the path that did not exist
  YAML::Node node = root;
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next = node[keys[i]];
    if (next && !next.IsMap()) throw Error(shown + ": '" + shown_text(keys[i]) + "' is not a section");
    if (!next) created = std::min(created, i);
    node.reset(next);
  }
  try {
    node[keys.back()] = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw Error(shown + ": " + e.msg);
  }
  YAML::Node set = root;  // the nodes the override created, from the first to the value
  for (size_t i = 0; i < keys.size(); ++i) {
    set.reset(set[keys[i]]);
    if (i >= created) overrides.push_back({set, assignment});
  }
}

}  // namespace

struct Section::Impl {
  YAML::Node node;
  std::string where;  // the dotted path of this mapping, "" for the document
  std::shared_ptr<const Document> document;
  std::set<std::string> seen;

  Impl(const YAML::Node& n, std::string w, std::shared_ptr<const Document> d)
      : node(n), where(std::move(w)), document(std::move(d)) {
    if (!node.IsMap()) throw error(node, (where.empty() ? "the document" : "'" + where + "'") + " must be a mapping");
    check_no_duplicate_keys();
  }

  std::string path(const std::string& key) const { return where.empty() ? key : where + "." + key; }

  const std::string* override_text(const YAML::Node& at) const {
    for (const Override& o : document->overrides)
      if (o.node.is(at)) return &o.text;
    return nullptr;
  }

  // "<file>:<line>: <what>", or "--set <override>: <what>" for a node set on the command line.
  Error error(const YAML::Node& at, const std::string& what) const {
    if (const std::string* text = override_text(at)) return Error("--set " + shown_text(*text) + ": " + what);
    const YAML::Mark mark = at.Mark();
    std::string place = document->source;
    if (mark.line >= 0) place += ":" + std::to_string(mark.line + 1);
    return Error(place + ": " + what);
  }

  // The node of `key` itself: its line is the one to name for a missing value (yaml-cpp marks
  // an empty value at the token after it, often on the next line).
  YAML::Node key_node(const std::string& key) const {
    for (const auto& kv : node)
      if (key_text(kv.first) == key) return kv.first;
    return node;
  }

  // The value of `key` (counted as read), or an undefined node when absent. A key without a
  // value is an error.
  YAML::Node value(const std::string& key) {
    seen.insert(key);
    YAML::Node v = node[key];
    if (v && v.IsNull()) throw error(override_text(v) ? v : key_node(key), "'" + path(key) + "' has no value");
    return v;
  }

  template <typename T>
  void read(const std::string& key, T& out) {
    if (const YAML::Node v = value(key)) {
      try {
        out = v.as<T>();
      } catch (const YAML::Exception&) {
        throw error(v, "'" + path(key) + "' has a value of the wrong type");
      }
    }
  }

  template <typename T>
  void read_number(const char* key, T& field, T lo, T hi) {
    read(key, field);
    if (field < lo || field > hi) {
      std::ostringstream what;
      what << "'" << path(key) << "' must be in " << lo << ".." << hi << ", not " << field;
      const YAML::Node v = node[key];
      throw error(v ? v : node, what.str());
    }
  }

  void check_no_duplicate_keys() const {
    std::map<std::string, int> first_line;
    for (const auto& kv : node) {
      const std::string key = key_text(kv.first);
      const auto [it, fresh] = first_line.emplace(key, kv.first.Mark().line + 1);
      if (!fresh)
        throw error(kv.first, "duplicate key '" + shown_text(path(key)) + "' (first given on line " +
                                  std::to_string(it->second) + ")");
    }
  }
};

Section::Section(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

void Section::num(const char* key, int& field, int lo, int hi) { impl_->read_number(key, field, lo, hi); }
void Section::num(const char* key, int64_t& field, int64_t lo, int64_t hi) { impl_->read_number(key, field, lo, hi); }
void Section::num(const char* key, uint64_t& field, uint64_t lo, uint64_t hi) {
  impl_->read_number(key, field, lo, hi);
}
void Section::num(const char* key, float& field, float lo, float hi) { impl_->read_number(key, field, lo, hi); }
void Section::num(const char* key, double& field, double lo, double hi) { impl_->read_number(key, field, lo, hi); }
void Section::flag(const char* key, bool& field) { impl_->read(key, field); }
void Section::text(const char* key, std::string& field) { impl_->read(key, field); }

int Section::choice_index(const char* key, std::span<const char* const> names) {
  impl_->seen.insert(key);
  const YAML::Node v = impl_->node[key];
  if (!v) return -1;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  std::string choices;
  for (size_t i = 0; i < names.size(); ++i) {
    if (text == names[i]) return int(i);
    choices += std::string(choices.empty() ? "" : " | ") + names[i];
  }
  throw impl_->error(v, "'" + path(key) + "' must be one of " + choices + ", not '" + shown_text(text) + "'");
}

void Section::range(const char* key, int (&field)[2], int lo, int hi) {
  const YAML::Node v = impl_->value(key);
  if (!v) return;
  const std::string where = "'" + path(key) + "'";
  if (!v.IsSequence() || v.size() != 2) throw impl_->error(v, where + " must be [first, last]");
  int first = 0, last = 0;
  try {
    first = v[0].as<int>();
    last = v[1].as<int>();
  } catch (const YAML::Exception&) {
    throw impl_->error(v, where + " must hold two whole numbers");
  }
  if (first < lo || last > hi || first > last)
    throw impl_->error(v, where + " must satisfy " + std::to_string(lo) + " <= first <= last <= " + std::to_string(hi));
  field[0] = first;
  field[1] = last;
}

void Section::check(bool ok, const char* key, const std::string& what) const {
  if (!ok) throw error(key, "'" + path(key) + "' " + what);
}

bool Section::has(const char* key) const { return bool(impl_->node[key]); }

std::optional<Section> Section::child(const char* key) {
  impl_->seen.insert(key);
  if (const YAML::Node v = impl_->node[key])
    return Section(std::make_shared<Impl>(v, impl_->path(key), impl_->document));
  return std::nullopt;
}

std::vector<Section> Section::items(const char* key) {
  impl_->seen.insert(key);
  std::vector<Section> out;
  const YAML::Node v = impl_->node[key];
  if (!v) return out;
  if (!v.IsSequence()) throw impl_->error(v, "'" + impl_->path(key) + "' must be a list");
  for (size_t i = 0; i < v.size(); ++i)
    out.emplace_back(std::make_shared<Impl>(v[i], impl_->path(key) + "[" + std::to_string(i) + "]", impl_->document));
  return out;
}

void Section::finish() const {
  for (const auto& kv : impl_->node) {
    const std::string key = key_text(kv.first);
    if (!impl_->seen.count(key))
      throw impl_->error(impl_->override_text(kv.second) ? kv.second : kv.first,
                         "unknown key '" + shown_text(impl_->path(key)) + "'");
  }
}

Error Section::error(const char* key, const std::string& what) const {
  const YAML::Node v = impl_->node[key];
  return impl_->error(v ? v : impl_->node, what);
}

Error Section::error(const std::string& what) const { return impl_->error(impl_->node, what); }

std::string Section::path(const char* key) const { return impl_->path(key); }

Section read_document(std::string_view text, std::string_view source, const std::vector<std::string>& overrides,
                      bool whole_file) {
  auto document = std::make_shared<Document>();
  document->source = std::string(source);
  YAML::Node root = load_yaml(text, source);
  if (root.IsNull()) {
    if (whole_file) throw Error(std::string(source) + ": the config is empty (a YAML mapping is expected)");
    root = YAML::Node(YAML::NodeType::Map);
  }
  if (root.IsMap())
    for (const std::string& o : overrides) apply_override(root, o, document->overrides);
  try {
    return Section(std::make_shared<Section::Impl>(root, "", document));
  } catch (const YAML::Exception& e) {
    throw Error(std::string(source) + ": " + shown_text(e.what(), 200));
  }
}

// ---- Writer ----

struct Writer::Impl {
  YAML::Emitter out;
  template <typename T>
  void put(const char* key, const T& value) {
    out << YAML::Key << key << YAML::Value << value;
  }
};

Writer::Writer() : impl_(std::make_unique<Impl>()) { impl_->out << YAML::BeginMap; }
Writer::~Writer() = default;

void Writer::num(const char* key, const int& field, int, int) { impl_->put(key, field); }
void Writer::num(const char* key, const int64_t& field, int64_t, int64_t) { impl_->put(key, field); }
void Writer::num(const char* key, const uint64_t& field, uint64_t, uint64_t) { impl_->put(key, field); }
void Writer::num(const char* key, const float& field, float, float) { impl_->put(key, shortest_text(field)); }
void Writer::num(const char* key, const double& field, double, double) { impl_->put(key, shortest_text(field)); }
void Writer::flag(const char* key, const bool& field) { impl_->put(key, field); }
void Writer::text(const char* key, const std::string& field) { impl_->put(key, field); }
void Writer::text(const char* key, const char* value) { impl_->put(key, value); }

void Writer::range(const char* key, const int (&field)[2], int, int) {
  impl_->out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq << field[0] << field[1] << YAML::EndSeq;
}

void Writer::begin(const char* key) { impl_->out << YAML::Key << key << YAML::Value << YAML::BeginMap; }
void Writer::end() { impl_->out << YAML::EndMap; }

std::string Writer::finish() {
  impl_->out << YAML::EndMap;
  return std::string(impl_->out.c_str()) + "\n";
}

// ---- Configs by name ----

std::vector<std::string> builtin_config_names(std::string_view dir) {
  const std::string prefix = std::string(dir) + "/";
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_files()) {
    if (!f.path.starts_with(prefix) || !f.path.ends_with(".yaml")) continue;
    const std::string_view name = f.path.substr(prefix.size(), f.path.size() - prefix.size() - 5);
    if (name.find('/') == std::string_view::npos) names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<ConfigText> find_config_text(std::string_view dir, std::string_view name_or_path, std::string_view what) {
  const std::string wanted = std::string(dir) + "/" + std::string(name_or_path) + ".yaml";
  for (const EmbeddedFile& f : embedded_files())
    if (f.path == wanted) return ConfigText{std::string(f.text), "configs/" + wanted};
  const bool looks_like_path = name_or_path.find('/') != std::string_view::npos || name_or_path.ends_with(".yaml");
  Result<std::string> text = looks_like_path ? try_read_file(std::string(name_or_path)) : fail("not a path");
  if (!text) {
    std::string known;
    for (const std::string& n : builtin_config_names(dir)) known += " " + n;
    return fail("unknown " + std::string(what) + " '" + shown_text(name_or_path) + "' (built in:" + known +
                "; or give a path to a .yaml file)");
  }
  return ConfigText{std::move(text).value(), std::string(name_or_path)};
}

}  // namespace sz::config
