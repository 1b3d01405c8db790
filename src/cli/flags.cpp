#include "cli/flags.h"

#include <algorithm>
#include <cstdio>

#include "core/parse_number.h"
#include "core/split.h"

namespace sz::cli {

namespace {

constexpr size_t kWidth = 100;     // the help's lines wrap here
constexpr size_t kWideEntry = 28;  // a longer "  --name VALUE" does not widen the column

// `text`'s words after `line`, then on lines of their own from `column` on, wrapped at kWidth. A
// newline in `text` starts a new line.
std::string wrapped(std::string line, std::string_view text, size_t column) {
  std::string out;
  const auto end_line = [&] {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    line.clear();
  };
  for (const std::string_view paragraph : split(text, '\n')) {
    bool first_word = true;
    for (const std::string_view word : split_words(paragraph)) {
      if (!first_word && line.size() + 1 + word.size() > kWidth) end_line(), first_word = true;
      line.resize(std::max(line.size(), column), ' ');
      if (!first_word) line += ' ';
      line += word;
      first_word = false;
    }
    end_line();
  }
  return out;
}

}  // namespace

bool wants_help(Args args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

int64_t parse_whole_number(std::string_view flag, const std::string& value, int64_t lo, int64_t hi) {
  const std::optional<int64_t> v = parse_number<int64_t>(value);
  if (!v || *v < lo || *v > hi)
    throw Error("option " + std::string(flag) + " wants a whole number in " + std::to_string(lo) + ".." +
                std::to_string(hi) + ", not '" + value + "'");
  return *v;
}

Flags::Flags(std::string usage, std::string about) : usage_(std::move(usage)), about_(std::move(about)) {}

Flags::Flag& Flags::add(std::string_view names, std::string_view value, Parse parse, std::string_view help) {
  Flag f;
  for (const std::string_view name : split(names, '/')) f.names.emplace_back(name);
  f.value = value;
  f.help = help;
  f.parse = std::move(parse);
  flags_.push_back(std::move(f));
  return flags_.back();
}

Flags& Flags::text(std::string_view names, std::string_view value, std::string& target, std::string_view help) {
  return custom(
      names, value, [&target](std::string_view, const std::string& v) { target = v; }, help);
}

Flags& Flags::texts(std::string_view names, std::string_view value, std::vector<std::string>& target,
                    std::string_view help) {
  add(
      names, value, [&target](std::string_view, const std::string& v) { target.push_back(v); }, help)
      .repeatable = true;
  return *this;
}

Flags& Flags::numbers(std::string_view names, std::string_view value, std::vector<int>& target, int lo, int hi,
                      std::string_view help) {
  return custom(
      names, value,
      [&target, lo, hi](std::string_view flag, const std::string& v) {
        target.clear();
        for (const std::string_view word : split(v, ','))
          target.push_back(int(parse_whole_number(flag, std::string(word), lo, hi)));
      },
      help);
}

Flags& Flags::set(std::string_view names, bool& target, std::string_view help) {
  add(
      names, "", [&target](std::string_view, const std::string&) { target = true; }, help);
  return *this;
}

Flags& Flags::custom(std::string_view names, std::string_view value, Parse parse, std::string_view help) {
  add(names, value, std::move(parse), help);
  return *this;
}

Flags& Flags::config(ConfigFlags& target, std::string_view config_help, std::string_view set_help) {
  text("--config", "FILE", target.name, config_help);
  return texts("--set", "KEY=VALUE", target.overrides, set_help);
}

Flags& Flags::repeatable() {
  flags_.back().repeatable = true;
  return *this;
}

Flags& Flags::required() {
  flags_.back().required = true;
  return *this;
}

Flags& Flags::after(std::string text) {
  after_ = std::move(text);
  return *this;
}

Flags::Flag* Flags::find(std::string_view name) {
  for (Flag& f : flags_)
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) return &f;
  return nullptr;
}

const Flags::Flag* Flags::find(std::string_view name) const { return const_cast<Flags*>(this)->find(name); }

bool Flags::parse(Args args) {
  if (wants_help(args)) {
    std::fputs(help().c_str(), stdout);
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i];
    Flag* f = find(name);
    if (!f) throw Error("unknown option '" + name + "' (see --help)");
    if (f->given++ && !f->repeatable) throw Error("option " + name + " given twice (it takes one value)");
    if (f->value.empty()) {
      f->parse(name, "");
      continue;
    }
    if (i + 1 >= args.size()) throw Error("option " + name + " needs a value");
    // An empty value would read as the option left out (perft --fen '' as the start position,
    // selfplay --model '' as the bootstrap player): the silent default of a typo.
    if (args[i + 1].empty()) throw Error("option " + name + " needs a value, not an empty one");
    f->parse(name, args[++i]);
  }
  // One missing: the error names all that are required.
  std::vector<std::string> required;
  bool missing = false;
  for (const Flag& f : flags_)
    if (f.required) required.push_back(f.names[0]), missing |= !f.given;
  if (missing && required.size() == 1) throw Error(required[0] + " is required (see --help)");
  if (missing) {
    std::string list = one_of(required);
    list.replace(list.rfind(" or "), 4, " and ");
    throw Error(list + " are required (see --help)");
  }
  return true;
}

bool Flags::given(std::string_view name) const {
  const Flag* f = find(name);
  return f && f->given > 0;
}

std::string Flags::entry(const Flag& f) const {
  std::string out = "  " + f.names[0];
  for (size_t k = 1; k < f.names.size(); ++k) out += "/" + f.names[k];
  return f.value.empty() ? out : out + " " + f.value;
}

std::string Flags::help() const {
  std::string out = "usage: " + usage_ + "\n";
  if (!about_.empty()) out += "\n" + about_ + (about_.ends_with('\n') ? "" : "\n");
  size_t column = 0;
  for (const Flag& f : flags_)
    if (entry(f).size() <= kWideEntry) column = std::max(column, entry(f).size() + 2);
  for (const Flag& f : flags_) {
    std::string first = entry(f);  // a wide one: its help two spaces after it
    first.resize(std::max(column, first.size() + 2), ' ');
    out += wrapped(first, f.help, column);
  }
  return out + after_;
}

std::string Flags::one_of(const std::vector<std::string>& words) {
  std::string out;
  for (size_t k = 0; k < words.size(); ++k) out += (k == 0 ? "" : k + 1 == words.size() ? " or " : ", ") + words[k];
  return out;
}

}  // namespace sz::cli
