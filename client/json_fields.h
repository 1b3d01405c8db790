#pragma once
// Field lists (the visitor interface of config/section.h: NetConfig's, GameSpec's, the rule
// profile's sections) read from and written to JSON objects, so that the bundle's model.json
// lists each field once, as the YAML files and checkpoints do. Yaml-free and torch-free.
#include <initializer_list>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "core/json.h"
#include "core/json_writer.h"

namespace sz::client {

// Reads fields from one JSON object, strictly: every field must be there (a bundle is written
// whole by `export`; a missing key means a foreign or damaged file), in range, and finish()
// refuses keys no field asked for. Throws sz::Error naming the file and the dotted key.
class JsonFieldReader {
 public:
  explicit JsonFieldReader(JsonAt object) : object_(std::move(object)) { object_.members(); }

  template <typename T>
  void num(const char* key, T& field, T lo, T hi) {
    const JsonAt v = at(key);
    if constexpr (std::is_integral_v<T>) {
      field = T(v.integer(int64_t(lo), int64_t(hi)));
    } else {
      const double x = v.number();
      if (x < double(lo) || x > double(hi))
        throw v.error("must be in " + std::to_string(lo) + ".." + std::to_string(hi));
      field = T(x);
    }
  }
  void flag(const char* key, bool& field) { field = at(key).boolean(); }
  void text(const char* key, std::string& field) { field = at(key).text(); }
  template <typename E>
  void choice(const char* key, E& field, std::initializer_list<std::pair<const char*, E>> names) {
    const JsonAt v = at(key);
    std::string words;
    for (const auto& [name, value] : names) {
      if (v.text() == name) {
        field = value;
        return;
      }
      words += words.empty() ? name : std::string(" | ") + name;
    }
    throw v.error("must be one of " + words + ", not '" + v.text() + "'");
  }
  void range(const char* key, int (&field)[2], int lo, int hi) {
    const JsonAt v = at(key);
    if (v.size() != 2) throw v.error("must be [first, last]");
    field[0] = int(v[0].integer(lo, hi));
    field[1] = int(v[1].integer(field[0], hi));
  }
  void check(bool ok, const char* key, const std::string& what) const {
    if (!ok) throw object_[key].error(what);
  }
  bool has(const char* key) const { return object_.has(key); }
  std::string path(const char* key) const { return object_.path().empty() ? key : object_.path() + "." + key; }

  // Throws for the first key of the object that no field read.
  void finish() const {
    for (const auto& [key, value] : object_.members())
      if (!read_.count(key)) throw Error(object_[key].error("is not a key this runtime knows").what());
  }

 private:
  JsonAt at(const char* key) {
    read_.insert(key);
    return object_[key];
  }
  JsonAt object_;
  std::set<std::string> read_;
};

// Writes fields as the members of a JSON object on one line: `{"blocks": 6, "channels": 64}`
// (core's JsonWriter, Inline).
class JsonFieldWriter {
 public:
  JsonFieldWriter() { w_.object(JsonWriter::Layout::Inline); }

  template <typename T>
  void num(const char* key, const T& field, T, T) {
    if constexpr (std::is_integral_v<T>)
      w_.add(key, field);
    else  // the shortest text that reads back to the same float or double
      w_.add(key, double(field), std::is_same_v<T, float> ? "%.9g" : "%.17g");
  }
  void flag(const char* key, const bool& field) { w_.add(key, field); }
  void text(const char* key, const std::string& field) { w_.add(key, field); }
  template <typename E>
  void choice(const char* key, const E& field, std::initializer_list<std::pair<const char*, E>> names) {
    for (const auto& [name, value] : names)
      if (value == field) w_.add(key, name);
  }
  void range(const char* key, const int (&field)[2], int, int) { w_.array(key).add(field[0]).add(field[1]).close(); }
  void check(bool, const char*, const std::string&) const {}
  std::string path(const char* key) const { return key; }

  // `{...}` of every field written so far.
  std::string object() const {
    JsonWriter done = w_;
    return done.close().str();
  }

 private:
  JsonWriter w_;
};

}  // namespace sz::client
