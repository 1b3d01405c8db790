#pragma once
// Rule profiles from YAML (configs/rules/*.yaml, compiled in, or any file by path): the schema of
// a profile file belongs to the game. Strict: an unknown key, a bad value or a missing `id`/`game`
// is an error naming the file, the line and the key (read with config/section.h).
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "games/chaturanga/profile.h"

namespace sz::chaturanga {

// Parses and resolves one profile; `source` names the text in error messages.
Result<RuleProfile> parse_rule_profile(std::string_view yaml, std::string_view source);

// The names of the built-in profiles, `sittuyin` first.
std::vector<std::string> builtin_rule_profiles();

// A profile by built-in name or by path to a YAML file. Loaded once and kept for the life of
// the program (positions hold a reference to their profile). Thread-safe.
Result<const RuleProfile*> rule_profile(std::string_view name_or_path);

}  // namespace sz::chaturanga
