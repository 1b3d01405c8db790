#include "core/json.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "core/parse_number.h"

namespace sz {

namespace {

constexpr int kMaxDepth = 64;  // deeper documents are refused rather than overflow the stack

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Json document() {
    Json v = value(0);
    skip_space();
    if (pos_ != text_.size()) throw error("unexpected text after the document");
    return v;
  }

 private:
  Error error(const std::string& what) const {
    int line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return Error(std::string(source_) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void expect(char c) {
    skip_space();
    if (peek() != c) throw error(std::string("expected '") + c + "'");
    ++pos_;
  }

  void word(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w) throw error("expected a value");
    pos_ += w.size();
  }

  Json value(int depth) {
    if (depth > kMaxDepth) throw error("nested more than " + std::to_string(kMaxDepth) + " deep");
    skip_space();
    Json v;
    const char c = peek();
    if (c == '{') {
      v.kind = Json::Kind::Object;
      ++pos_;
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return v;
      }
      for (;;) {
        skip_space();
        if (peek() != '"') throw error("expected a key in double quotes");
        std::string key = string();
        if (v.find(key)) throw error("key '" + key + "' given twice");
        expect(':');
        Json member = value(depth + 1);
        v.members.push_back(Json::Member{std::move(key), std::move(member)});
        skip_space();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::Array;
      ++pos_;
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return v;
      }
      for (;;) {
        v.items.push_back(value(depth + 1));
        skip_space();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
      return v;
    }
    if (c == 't' || c == 'f') {
      v.kind = Json::Kind::Bool;
      v.boolean = c == 't';
      word(v.boolean ? "true" : "false");
      return v;
    }
    if (c == 'n') {
      word("null");
      return v;
    }
    v.kind = Json::Kind::Number;
    v.number = number();
    return v;
  }

  double number() {
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-' || text_[pos_] == '+' ||
            text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
      ++pos_;
    const std::string_view t = text_.substr(start, pos_ - start);
    std::optional<double> value = parse_number<double>(t);
    // A number beyond a double's range: from_chars refuses it, strtod reads it as the infinity it
    // is, which JsonAt::number refuses and the logs' readers range-check by key. (from_chars also
    // reads "inf" and "nan", which JSON does not have; the loop above stops before them.)
    if (!value && !t.empty() && (t[0] == '-' || std::isdigit(static_cast<unsigned char>(t[0])))) {
      const std::string digits(t);
      char* end = nullptr;
      const double d = std::strtod(digits.c_str(), &end);
      if (end == digits.c_str() + digits.size()) value = d;
    }
    if (t.empty() || !value || std::isnan(*value)) {
      pos_ = start;
      throw error(t.empty() ? "expected a value" : "bad number '" + std::string(t) + "'");
    }
    return *value;
  }

  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  uint32_t hex4() {
    if (pos_ + 4 > text_.size()) throw error("short \\u escape");
    uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f')
        cp |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        cp |= uint32_t(h - 'A' + 10);
      else
        throw error("bad \\u escape");
    }
    return cp;
  }

  std::string string() {
    ++pos_;  // the opening quote
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) throw error("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) throw error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) throw error("unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {  // a surrogate pair
            pos_ += 2;
            const uint32_t low = hex4();
            if (low < 0xDC00 || low >= 0xE000) throw error("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          throw error(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
};

const char* kind_name(Json::Kind k) {
  switch (k) {
    case Json::Kind::Null:
      return "null";
    case Json::Kind::Bool:
      return "a boolean";
    case Json::Kind::Number:
      return "a number";
    case Json::Kind::String:
      return "a string";
    case Json::Kind::Array:
      return "an array";
    case Json::Kind::Object:
      return "an object";
  }
  return "?";
}

}  // namespace

const Json* Json::find(std::string_view key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

Result<Json> parse_json(std::string_view text, std::string_view source) {
  try {
    return Parser(text, source).document();
  } catch (const Error& e) {
    return fail(e.what());
  }
}

JsonAt::JsonAt(const Json& value, std::string source, std::string path)
    : value_(&value), source_(std::move(source)), path_(std::move(path)) {}

Error JsonAt::error(const std::string& what) const {
  return Error(source_ + ": " + (path_.empty() ? std::string("the document") : "'" + path_ + "'") + " " + what);
}

bool JsonAt::has(std::string_view key) const { return value_->kind == Json::Kind::Object && value_->find(key); }

JsonAt JsonAt::operator[](std::string_view key) const {
  const std::string path = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  if (value_->kind != Json::Kind::Object) throw error("must be an object, not " + std::string(kind_name(value_->kind)));
  const Json* v = value_->find(key);
  if (!v) throw Error(source_ + ": missing key '" + path + "'");
  return JsonAt(*v, source_, path);
}

size_t JsonAt::size() const {
  if (value_->kind != Json::Kind::Array) throw error("must be an array, not " + std::string(kind_name(value_->kind)));
  return value_->items.size();
}

JsonAt JsonAt::operator[](size_t i) const {
  if (i >= size()) throw error("has no element " + std::to_string(i));
  return JsonAt(value_->items[i], source_, path_ + "[" + std::to_string(i) + "]");
}

const std::vector<Json::Member>& JsonAt::members() const {
  if (value_->kind != Json::Kind::Object) throw error("must be an object, not " + std::string(kind_name(value_->kind)));
  return value_->members;
}

bool JsonAt::boolean() const {
  if (value_->kind != Json::Kind::Bool)
    throw error("must be true or false, not " + std::string(kind_name(value_->kind)));
  return value_->boolean;
}

double JsonAt::number() const {
  if (value_->kind != Json::Kind::Number) throw error("must be a number, not " + std::string(kind_name(value_->kind)));
  if (!std::isfinite(value_->number)) throw error("must be a finite number");
  return value_->number;
}

int64_t JsonAt::integer(int64_t lo, int64_t hi) const {
  const double v = number();
  if (v != std::floor(v) || v < double(lo) || v > double(hi))
    throw error("must be a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return int64_t(v);
}

const std::string& JsonAt::text() const {
  if (value_->kind != Json::Kind::String) throw error("must be a string, not " + std::string(kind_name(value_->kind)));
  return value_->text;
}

std::optional<std::map<std::string, double>> json_numbers(std::string_view line) {
  const Result<Json> doc = parse_json(line, "");
  if (!doc || doc->kind != Json::Kind::Object) return std::nullopt;
  std::map<std::string, double> out;
  for (const Json::Member& m : doc->members) {
    if (m.value.kind == Json::Kind::Number) out[m.key] = m.value.number;
    if (m.value.kind == Json::Kind::Null) out[m.key] = std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

}  // namespace sz
