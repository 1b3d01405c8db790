#pragma once
// Strict reading (and writing) of YAML configs, for every module that has settings: the only
// code that includes yaml-cpp is behind this header (section.cpp), so this header is yaml-free
// and any module may read its own section with it.
//
// A module describes its settings once, as a field list: a function template over a visitor
//
//   template <typename V>
//   void fields(V& v, SearchConfig& c) {
//     v.num("full_visits", c.full_visits, 1, 1'000'000);   // a number and its range
//     v.flag("tree_reuse", c.tree_reuse);
//     v.choice("root_selection", c.root_selection, {{"puct", RootSelection::Puct}, ...});
//     v.check(c.a <= c.b, "a", "must be at most '" + v.path("b") + "'");  // across fields
//   }
//
// and needs no include for it: a Section reads the fields from YAML (range-checked, each error
// naming the file, the line and the dotted key), a Writer writes them back out, and a module's
// other visitors (checkpoint metadata, comparisons, a checker of configs built in code) walk the
// same list. Defaults are the structs' initialisers; an absent key keeps its default.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace sz::config {

// One mapping of a config document: the document itself or a section of it (its `path`:
// "train", "end", "" for the document). Every key must be read, or finish() reports it as unknown;
// a key given twice and a key without a value are errors too (yaml-cpp would keep the first, and
// read the second as the text "null"). Every error is an sz::Error "<file>:<line>: <what>", or
// "--set <override>: <what>" for a value set on the command line. Copies share their state.
class Section {
 public:
  // A number in [lo, hi]: "'train.batch_size' must be in 1..65536, not 0".
  void num(const char* key, int& field, int lo, int hi);
  void num(const char* key, int64_t& field, int64_t lo, int64_t hi);
  void num(const char* key, uint64_t& field, uint64_t lo, uint64_t hi);
  void num(const char* key, float& field, float lo, float hi);
  void num(const char* key, double& field, double lo, double hi);
  void flag(const char* key, bool& field);
  void text(const char* key, std::string& field);
  // One of `names`: "'search.root_selection' must be one of puct | gumbel, not 'x'".
  template <typename E>
  void choice(const char* key, E& field, std::initializer_list<std::pair<const char*, E>> names) {
    std::vector<const char*> words;
    for (const auto& [name, value] : names) words.push_back(name);
    if (const int i = choice_index(key, words); i >= 0) field = (names.begin() + i)->second;
  }
  // [first, last] with lo <= first <= last <= hi.
  void range(const char* key, int (&field)[2], int lo, int hi);
  // Throws error(key, "'<path of key>' <what>") unless `ok`: a rule across fields.
  void check(bool ok, const char* key, const std::string& what) const;

  bool has(const char* key) const;
  // The mapping under `key` (counted as read), or nullopt when the key is absent.
  std::optional<Section> child(const char* key);
  // The mappings of the list under `key` (counted as read), each a Section at "key[i]"; empty when
  // the key is absent. Throws when the value is not a list of mappings.
  std::vector<Section> items(const char* key);
  // Throws for the first key that no reader asked for. Call when every reader is done.
  void finish() const;

  // An error placed at `key`'s value, or at this mapping when the key is absent.
  Error error(const char* key, const std::string& what) const;
  // An error placed at this mapping.
  Error error(const std::string& what) const;
  // The dotted path of `key` in the document, for messages: "end.stalemate".
  std::string path(const char* key) const;

  struct Impl;  // yaml-cpp's side, in section.cpp
  explicit Section(std::shared_ptr<Impl> impl);

 private:
  int choice_index(const char* key, std::span<const char* const> names);  // -1: key absent
  std::shared_ptr<Impl> impl_;
};

// Parses a config text and returns its root mapping. `overrides` are `--set section.key=value`
// strings, applied to the parsed text first; an error about a value they set names the override.
// With `whole_file`, a text without a single key (empty, or comments only) is an error, since it
// would silently run every default. Throws sz::Error naming `source` and the line.
Section read_document(std::string_view text, std::string_view source, const std::vector<std::string>& overrides = {},
                      bool whole_file = false);

// A config type read whole from a text by its field list: T{} with every key of the text read by
// fields(section, out), found by argument-dependent lookup in T's namespace.
template <typename T>
Result<T> parse_config(std::string_view text, std::string_view source, bool whole_file = false) {
  try {
    Section root = read_document(text, source, {}, whole_file);
    T out{};
    fields(root, out);
    root.finish();
    return out;
  } catch (const Error& e) {
    return fail(e.what());
  }
}

// Checks a config built in code (tests, tools) against its field list: every range and every
// rule, each problem in the words a Section would use. The first problem, or "" if none.
class Checker {
 public:
  template <typename T>
  void num(const char* key, const T& field, T lo, T hi) {
    if (!problem_.empty() || (field >= lo && field <= hi)) return;
    std::ostringstream what;
    what << "'" << key << "' must be in " << lo << ".." << hi << ", not " << field;
    problem_ = what.str();
  }
  void flag(const char*, const bool&) {}
  void text(const char*, const std::string&) {}
  template <typename E>
  void choice(const char*, const E&, std::initializer_list<std::pair<const char*, E>>) {}
  void range(const char*, const int (&)[2], int, int) {}
  void check(bool ok, const char* key, const std::string& what) {
    if (problem_.empty() && !ok) problem_ = "'" + std::string(key) + "' " + what;
  }
  std::string path(const char* key) const { return key; }
  const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
};

template <typename T>
std::string config_problem(T config) {
  Checker checker;
  fields(checker, config);
  return checker.problem();
}

// Writes field lists as YAML, every field written out (the resolved config a run keeps beside
// its outputs). The same visitor interface as Section: a module's fields() serves both.
class Writer {
 public:
  Writer();
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void num(const char* key, const int& field, int lo, int hi);
  void num(const char* key, const int64_t& field, int64_t lo, int64_t hi);
  void num(const char* key, const uint64_t& field, uint64_t lo, uint64_t hi);
  void num(const char* key, const float& field, float lo, float hi);  // the shortest text that reads back
  void num(const char* key, const double& field, double lo, double hi);
  void flag(const char* key, const bool& field);
  void text(const char* key, const std::string& field);
  template <typename E>
  void choice(const char* key, const E& field, std::initializer_list<std::pair<const char*, E>> names) {
    for (const auto& [name, value] : names)
      if (value == field) return text(key, name);
  }
  void range(const char* key, const int (&field)[2], int lo, int hi);
  void check(bool, const char*, const std::string&) const {}
  std::string path(const char* key) const { return key; }

  // A nested mapping: begin(key), its fields, end().
  void begin(const char* key);
  void end();
  // Closes the document and returns its YAML, ending in a newline. Call once, last.
  std::string finish();

 private:
  void text(const char* key, const char* value);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A section that overlays another (the run config's `play` over `search`) is written as the keys
// whose YAML differs from the base's, in field order; nothing at all when none differs. Reading it
// back over a copy of the base gives the value again.
template <typename T>
void write_changes(Writer& w, const char* section, T base, T value);
// The same fields as their YAML lines ("key: value"), in field order: for messages.
template <typename T>
std::vector<std::string> changed_fields(T base, T value);

namespace detail {

// The visitor behind write_changes: records each field's YAML (Record), keeps the fields whose YAML
// differs from the recorded (Compare), then writes the kept ones (Write).
class FieldChanges {
 public:
  enum class Pass { Record, Compare, Write };
  explicit FieldChanges(Writer& out) : out_(&out) {}
  void set_pass(Pass pass) { pass_ = pass; }
  bool any() const { return !changed_.empty(); }
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    for (const auto& [key, yaml] : changed_) out.push_back(yaml.substr(0, yaml.find_last_not_of('\n') + 1));
    return out;
  }

  template <typename N>
  void num(const char* key, const N& field, N lo, N hi) {
    visit(key, [&](Writer& w) { w.num(key, field, lo, hi); });
  }
  void flag(const char* key, const bool& field) {
    visit(key, [&](Writer& w) { w.flag(key, field); });
  }
  void text(const char* key, const std::string& field) {
    visit(key, [&](Writer& w) { w.text(key, field); });
  }
  template <typename E>
  void choice(const char* key, const E& field, std::initializer_list<std::pair<const char*, E>> names) {
    visit(key, [&](Writer& w) { w.choice(key, field, names); });
  }
  void range(const char* key, const int (&field)[2], int lo, int hi) {
    visit(key, [&](Writer& w) { w.range(key, field, lo, hi); });
  }
  void check(bool, const char*, const std::string&) const {}
  std::string path(const char* key) const { return key; }

 private:
  template <typename F>
  void visit(const char* key, F write) {
    if (pass_ == Pass::Write) {
      for (const auto& [k, yaml] : changed_)
        if (k == key) write(*out_);
      return;
    }
    Writer one;
    write(one);
    std::string yaml = one.finish();
    if (pass_ == Pass::Record) {
      base_.emplace_back(key, std::move(yaml));
      return;
    }
    for (const auto& [k, base_yaml] : base_)
      if (k == key && base_yaml != yaml) changed_.emplace_back(key, yaml);
  }

  Pass pass_ = Pass::Record;
  Writer* out_;
  // (key, the field's YAML); field lists are short: no map needed
  std::vector<std::pair<std::string, std::string>> base_, changed_;
};

}  // namespace detail

template <typename T>
void write_changes(Writer& w, const char* section, T base, T value) {
  detail::FieldChanges changes(w);
  fields(changes, base);
  changes.set_pass(detail::FieldChanges::Pass::Compare);
  fields(changes, value);
  if (!changes.any()) return;
  changes.set_pass(detail::FieldChanges::Pass::Write);
  w.begin(section);
  fields(changes, value);
  w.end();
}

template <typename T>
std::vector<std::string> changed_fields(T base, T value) {
  Writer unused;
  detail::FieldChanges changes(unused);
  fields(changes, base);
  changes.set_pass(detail::FieldChanges::Pass::Compare);
  fields(changes, value);
  return changes.lines();
}

// A config text by name: configs/<dir>/<name>.yaml compiled into the program, or else the file at
// `name_or_path` if it looks like a path (contains '/' or ends in .yaml). `text` is its contents,
// `source` how messages name it ("configs/nets/tiny.yaml" or the path).
struct ConfigText {
  std::string text;
  std::string source;
};
// "unknown <what> 'x' (built in: a b c; or give a path to a .yaml file)" when neither exists.
Result<ConfigText> find_config_text(std::string_view dir, std::string_view name_or_path, std::string_view what);

// The names of the configs compiled in under configs/<dir>/ (without .yaml), in file-name order.
std::vector<std::string> builtin_config_names(std::string_view dir);

}  // namespace sz::config
