#pragma once
// A tables directory (docs/TABLES.md, "Layout on disk"): one folder per set of ending rules,
// "<game>-<fingerprint>" (ending_rules.h), holding one file per material ("KRSvK.szt") and
// RULES.txt (the rules and the profiles that share them, for people).
#include <memory>
#include <string>
#include <vector>

#include "games/chaturanga/tables/table_set.h"

namespace sz::chaturanga::tables {

inline constexpr char kRulesNote[] = "RULES.txt";

// The folder of `rules`' tables under `dir`.
std::string rules_path(const std::string& dir, const EndingRules& rules);

// Maps and checks every table of `rules` under `dir`: null when there is none. Throws sz::Error
// naming the file when one is damaged, truncated, foreign (another game, rules or format
// version), misnamed, or lacks a table one capture away.
std::shared_ptr<const TableSet> load_table_set(const std::string& dir, const EndingRules& rules);

// The table files present for `rules` under `dir` (paths), sorted.
std::vector<std::string> table_files(const std::string& dir, const EndingRules& rules);

// Copies the tables of `rules` of at most `max_men` men from `from` to `to` (the same layout),
// each checked first and written atomically, with RULES.txt; returns how many. Throws sz::Error
// naming the file at fault, or when `from` holds none.
int copy_tables(const std::string& from, const std::string& to, const EndingRules& rules, int max_men);

}  // namespace sz::chaturanga::tables
