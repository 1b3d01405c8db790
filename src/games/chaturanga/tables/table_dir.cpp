#include "games/chaturanga/tables/table_dir.h"

#include <algorithm>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/read_file.h"
#include "games/chaturanga/tables/table_file.h"

namespace sz::chaturanga::tables {

namespace fs = std::filesystem;

std::string rules_path(const std::string& dir, const EndingRules& rules) {
  return (fs::path(dir) / rules_folder(rules)).string();
}

std::vector<std::string> table_files(const std::string& dir, const EndingRules& rules) {
  std::vector<std::string> out;
  const fs::path folder = rules_path(dir, rules);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return out;
  for (const auto& item : fs::directory_iterator(folder, ec))
    if (item.path().extension() == kTableExtension) out.push_back(item.path().string());
  if (ec) throw Error(folder.string() + ": cannot list: " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

std::shared_ptr<const TableSet> load_table_set(const std::string& dir, const EndingRules& rules) {
  const std::vector<std::string> files = table_files(dir, rules);
  if (files.empty()) return nullptr;
  auto set = std::make_shared<TableSet>(rules);
  for (const std::string& path : files) {
    const std::string stem = fs::path(path).stem().string();
    const Result<Material> material = parse_material(stem, rules.game);
    if (!material || !material->canonical() || material->name() != stem)
      throw Error(path + ": not a table's name (" +
                  (material ? "expected " + material->canonical_form().name() : material.error()) + ")");
    set->add(load_table_file(path, rules, *material));
  }
  for (const Table* table : set->tables())
    for (const Material& sub : capture_materials(table->material()))
      if (!set->find(sub))
        throw Error(rules_path(dir, rules) + "/" + table_file_name(table->material()) + ": needs " +
                    table_file_name(sub) + " beside it (a capture leads there)");
  return set;
}

int copy_tables(const std::string& from, const std::string& to, const EndingRules& rules, int max_men) {
  const auto set = load_table_set(from, rules);  // every file checked
  if (!set) throw Error(from + ": no tables of the ending rules " + describe(rules) + " (build them: tables build)");
  const std::string source = rules_path(from, rules), target = rules_path(to, rules);
  fs::create_directories(target);
  int copied = 0;
  for (const Table* t : set->tables()) {
    if (t->material().total() > max_men) continue;
    const std::string name = table_file_name(t->material());
    write_file_atomically(target + "/" + name, read_file(source + "/" + name));
    ++copied;
  }
  if (fs::exists(source + "/" + kRulesNote))
    write_file_atomically(target + "/" + kRulesNote, read_file(source + "/" + kRulesNote));
  return copied;
}

}  // namespace sz::chaturanga::tables
