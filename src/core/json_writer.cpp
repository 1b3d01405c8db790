#include "core/json_writer.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace sz {

// `text` in double quotes, with '"' and '\' escaped and control bytes written as \u00NN.
void JsonWriter::quoted(std::string_view text) {
  text_ += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      text_ += '\\';
      text_ += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      text_ += escape;
    } else {
      text_ += c;
    }
  }
  text_ += '"';
}

JsonWriter& JsonWriter::open(char bracket, Layout layout) {
  if (!open_.empty() && open_.back().layout != Layout::Lines) layout = open_.back().layout;
  text_ += bracket;
  open_.push_back({layout, 0, bracket == '{' ? '}' : ']'});
  return *this;
}

JsonWriter& JsonWriter::close() {
  if (open_.empty()) throw std::logic_error("JsonWriter: close() with no container open");
  const Open closing = open_.back();
  open_.pop_back();
  if (closing.layout == Layout::Lines && closing.items > 0) text_ += "\n" + std::string(2 * open_.size(), ' ');
  text_ += closing.closer;
  return *this;
}

JsonWriter& JsonWriter::item() {
  if (open_.empty()) {
    if (!text_.empty()) throw std::logic_error("JsonWriter: a second document");
    return *this;
  }
  Open& o = open_.back();
  if (o.items++ > 0) text_ += o.layout == Layout::Compact ? "," : o.layout == Layout::Inline ? ", " : ",";
  if (o.layout == Layout::Lines) text_ += "\n" + std::string(2 * open_.size(), ' ');
  return *this;
}

JsonWriter& JsonWriter::member(std::string_view key) {
  item();
  quoted(key);
  text_ += open_.empty() || open_.back().layout == Layout::Compact ? ":" : ": ";
  return *this;
}

JsonWriter& JsonWriter::real(double value, const char* format) {
  char digits[64] = "null";
  if (std::isfinite(value)) std::snprintf(digits, sizeof digits, format, value);
  text_ += digits;
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view key, std::string_view json) {
  member(key).text_ += json;
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  item().text_ += json;
  return *this;
}

const std::string& JsonWriter::str() const {
  if (!open_.empty()) throw std::logic_error("JsonWriter: str() with a container open");
  return text_;
}

}  // namespace sz
