#pragma once
// A command's flags, declared once: each flag's names, the name of its value, its help, where
// its value goes and what it accepts. From that one declaration come the parsing, the errors
// (each names the flag) and the --help text:
//
//   Flags flags("sittuyin-zero plot --run DIR [--games-per-point N]", kAbout);
//   flags.text("--run", "DIR", run, "the run directory").required();
//   flags.number("--games-per-point", "N", options.games_per_point, 1, 1'000'000, "games per point");
//   if (!flags.parse(args)) return 0;  // --help: printed
//
// A flag is given as `--name VALUE` (or `--name` alone for a switch); a value may not be empty,
// since an empty one would read as the flag left out. Not thread-safe; one per command run.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace sz::cli {

using Args = std::span<const std::string>;

// True when `args` hold --help or -h anywhere.
bool wants_help(Args args);

// `value` as a whole number in lo..hi, or throws "option FLAG wants a whole number in lo..hi, not
// 'VALUE'".
int64_t parse_whole_number(std::string_view flag, const std::string& value, int64_t lo, int64_t hi);

// `--config FILE` and any `--set KEY=VALUE`, as given (cli/config_args.h loads the run config).
struct ConfigFlags {
  std::string name;  // empty: not given
  std::vector<std::string> overrides;
  bool given() const { return !name.empty() || !overrides.empty(); }
};

class Flags {
 public:
  // `usage`: what follows "usage: " in the help (further forms on lines of their own, indented to
  // line up); `about`: the text between the usage and the list of flags, as it is to be printed.
  explicit Flags(std::string usage, std::string about = "");

  // Parse functions get the flag as given (to name it in an error) and its non-empty value.
  using Parse = std::function<void(std::string_view flag, const std::string& value)>;

  // Each declares one flag. `names`: "--out", or "--out/--dir" for two names of one flag; `value`:
  // the value's name in the help ("DIR"); `help`: its description, wrapped in the list.
  Flags& text(std::string_view names, std::string_view value, std::string& target, std::string_view help);
  // Repeatable: every value is appended.
  Flags& texts(std::string_view names, std::string_view value, std::vector<std::string>& target, std::string_view help);
  // A whole number in lo..hi, into an integer (or a floating-point) target.
  template <typename T>
  Flags& number(std::string_view names, std::string_view value, T& target, int64_t lo, int64_t hi,
                std::string_view help) {
    return custom(
        names, value,
        [&target, lo, hi](std::string_view flag, const std::string& v) {
          target = T(parse_whole_number(flag, v, lo, hi));
        },
        help);
  }
  // Comma-separated whole numbers in lo..hi ("1,16,64"); the list replaces the target's.
  Flags& numbers(std::string_view names, std::string_view value, std::vector<int>& target, int lo, int hi,
                 std::string_view help);
  // One of the names in `choices`, into the value paired with it.
  template <typename T>
  Flags& choice(std::string_view names, std::string_view value, T& target,
                std::initializer_list<std::pair<const char*, T>> choices, std::string_view help) {
    std::vector<std::pair<std::string, T>> list(choices.begin(), choices.end());
    return custom(
        names, value,
        [&target, list](std::string_view flag, const std::string& v) {
          std::vector<std::string> known;
          for (const auto& [name, choice] : list) {
            if (v == name) return void(target = choice);
            known.push_back(name);
          }
          throw Error("option " + std::string(flag) + " wants " + one_of(known) + ", not '" + v + "'");
        },
        help);
  }
  // A switch: present, it sets `target` to true.
  Flags& set(std::string_view names, bool& target, std::string_view help);
  // Any other value: `parse` reads it (and throws sz::Error naming the flag when it is bad).
  Flags& custom(std::string_view names, std::string_view value, Parse parse, std::string_view help);
  // --config FILE and --set KEY=VALUE (repeatable) into `target`.
  Flags& config(ConfigFlags& target, std::string_view config_help,
                std::string_view set_help = "override a config value (repeatable)");

  // The flag declared last may be given more than once (texts() and config's --set already are).
  Flags& repeatable();
  // The flag declared last must be given.
  Flags& required();
  // Text printed after the list of flags.
  Flags& after(std::string text);

  // Reads `args` into the targets, in order. With --help or -h among them, prints the help to
  // stdout instead and returns false (the command then exits with 0). Throws sz::Error naming the
  // flag: one not declared, one without a value or with an empty one, a value its parse refuses,
  // a flag not repeatable given twice, a required flag missing.
  bool parse(Args args);
  // Whether `name` (any of a flag's names) was given to parse().
  bool given(std::string_view name) const;
  // The usage, the about text, the flags (names, value, help, in a column) and the text after.
  std::string help() const;

  // "a", "a or b", "a, b or c".
  static std::string one_of(const std::vector<std::string>& words);

 private:
  struct Flag {
    std::vector<std::string> names;
    std::string value;  // empty: a switch
    std::string help;
    Parse parse;
    bool repeatable = false, required = false;
    int given = 0;
  };
  Flag& add(std::string_view names, std::string_view value, Parse parse, std::string_view help);
  Flag* find(std::string_view name);
  const Flag* find(std::string_view name) const;
  std::string entry(const Flag& f) const;  // "  --name VALUE"

  std::string usage_, about_, after_;
  std::vector<Flag> flags_;
};

}  // namespace sz::cli
