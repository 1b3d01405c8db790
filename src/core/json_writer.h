#pragma once
// The one JSON writer: documents (match reports, the ladder, a bundle's model.json) and the logs'
// one-line objects. Objects and arrays nest to any depth; each is laid out as its opener asks:
//
//   Layout::Lines    an item a line, indented two spaces a level; empty: {} or []
//   Layout::Inline   on one line, ", " and ": " between items: {"a": 1, "b": [1, 2]}
//   Layout::Compact  on one line without spaces: {"a":1,"b":2} (the JSON-lines logs)
//
// A container inside an Inline or Compact one takes its parent's layout. Strings are quoted with
// '"' and '\' escaped and control bytes as \u00NN; a non-finite number is written as null. Keys
// are given for an object's members and left out for an array's items; what is already JSON text
// (a field-list visitor's object) goes in through raw(). str() gives the text once every container
// is closed.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sz {

class JsonWriter {
 public:
  enum class Layout : uint8_t { Lines, Inline, Compact };

  // Containers: with a key inside an object, without one as an array's item or the document.
  JsonWriter& object(Layout layout = Layout::Lines) { return item().open('{', layout); }
  JsonWriter& object(std::string_view key, Layout layout = Layout::Lines) { return member(key).open('{', layout); }
  JsonWriter& array(Layout layout = Layout::Lines) { return item().open('[', layout); }
  JsonWriter& array(std::string_view key, Layout layout = Layout::Lines) { return member(key).open('[', layout); }
  JsonWriter& close();  // the innermost open container

  // Values: a string (quoted), a bool, a whole number, a double (printf's `format`, for the
  // digits the field deserves: "%.6g" unless given), or JSON text as it is.
  template <typename T>
  JsonWriter& add(std::string_view key, const T& value) {
    return member(key).scalar(value);
  }
  template <typename T>
  JsonWriter& add(const T& value) {
    return item().scalar(value);
  }
  JsonWriter& add(std::string_view key, double value, const char* format) { return member(key).real(value, format); }
  JsonWriter& add(double value, const char* format) { return item().real(value, format); }
  JsonWriter& raw(std::string_view key, std::string_view json);
  JsonWriter& raw(std::string_view json);

  // The document; throws std::logic_error while a container is open.
  const std::string& str() const;

 private:
  struct Open {
    Layout layout;
    int items;
    char closer;
  };
  JsonWriter& open(char bracket, Layout layout);
  JsonWriter& member(std::string_view key);
  JsonWriter& item();
  JsonWriter& real(double value, const char* format);
  void quoted(std::string_view text);
  template <typename T>
  JsonWriter& scalar(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      text_ += value ? "true" : "false";
    } else if constexpr (std::is_integral_v<T>) {
      text_ += std::to_string(value);
    } else if constexpr (std::is_floating_point_v<T>) {
      real(double(value), "%.6g");
    } else {
      quoted(std::string_view(value));
    }
    return *this;
  }

  std::string text_;
  std::vector<Open> open_;
};

}  // namespace sz
