#pragma once
// The one JSON reader (RFC 8259: objects, arrays, strings with escapes, numbers, true, false,
// null): the bundle's model.json, the run's JSON-lines logs, the ladder. A view of a value with its
// place in the document makes every error name the file and the dotted key: "dir/model.json:
// missing key 'net.blocks'". The one writer is core/json_writer.h.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace sz {

struct Json {
  enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };
  struct Member;  // defined below: a pair<string, Json> here would need Json complete (clang)
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;             // a string's contents, unescaped (UTF-8)
  std::vector<Json> items;      // an array's elements
  std::vector<Member> members;  // an object's, in document order

  const Json* find(std::string_view key) const;  // nullptr when absent (or not an object)
};

struct Json::Member {
  std::string key;
  Json value;
};

// Parses a whole document. Errors: "<source>:<line>:<column>: <what>". A key given twice in an
// object is an error (readers would disagree on which one counts).
Result<Json> parse_json(std::string_view text, std::string_view source);

// A value and its path, for reading a document strictly. Accessors throw sz::Error
// "<source>: '<path>' must be a number" or "<source>: missing key '<path>'".
// One line of a JSON-lines file holding a flat object: its numeric fields (null as NaN; strings,
// booleans and nested values are left out). nullopt when the line is not such an object (a line
// being written, say).
std::optional<std::map<std::string, double>> json_numbers(std::string_view line);


class JsonAt {
 public:
  JsonAt(const Json& value, std::string source, std::string path = "");

  bool has(std::string_view key) const;
  JsonAt operator[](std::string_view key) const;     // a member, which must be there
  size_t size() const;                               // an array's length (throws unless an array)
  JsonAt operator[](size_t i) const;                 // an array's element
  const std::vector<Json::Member>& members() const;  // throws unless an object

  bool boolean() const;
  double number() const;
  int64_t integer(int64_t lo, int64_t hi) const;  // a whole number in [lo, hi]
  const std::string& text() const;

  const Json& value() const { return *value_; }
  const std::string& path() const { return path_; }
  Error error(const std::string& what) const;  // "<source>: '<path>' <what>"

 private:
  const Json* value_;
  std::string source_;
  std::string path_;
};

}  // namespace sz
