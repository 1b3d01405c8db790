// The house's shape (docs/ARCHITECTURE.md), checked on every test run against the table of layers
// read from that file: a file includes only its own module and the modules its layer lists, a
// CMake target links only their libraries, and the third-party headers stay in their modules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_paths.h"

namespace sz {
namespace {

namespace fs = std::filesystem;

struct Module {
  std::string name;
  std::string folder;                 // relative to the source root
  std::set<std::string> may_include;  // the modules below it that it may name
};

// The text between the parentheses of `cell` left out (remarks, not module names), the rest split
// at commas: "core, games (the rules core), search" -> core, games, search.
std::set<std::string> module_list(const std::string& cell) {
  std::string names;
  int depth = 0;
  for (const char c : cell) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth == 0 && c != ')') names += c;
  }
  std::set<std::string> out;
  std::stringstream in(names);
  for (std::string name; std::getline(in, name, ',');) {
    name.erase(0, name.find_first_not_of(" `"));
    name.erase(name.find_last_not_of(" `") + 1);
    if (!name.empty()) out.insert(name);
  }
  return out;
}

// docs/ARCHITECTURE.md, "Layers": the one list, read from the table there (module, folder, the
// modules it may include). A new edge is a design decision: it goes into that table.
std::vector<Module> read_layers() {
  const std::string path = test::source_dir() + "/docs/ARCHITECTURE.md";
  std::ifstream in(path);
  std::vector<Module> list;
  bool in_layers = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_layers = line == "## Layers";
    if (!in_layers || line.rfind("| ", 0) != 0 || line.rfind("| module |", 0) == 0) continue;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
    if (cells.size() >= 3) list.push_back({cells[0], cells[1], module_list(cells[2])});
  }
  return list;
}

const std::vector<Module>& modules() {
  static const std::vector<Module> list = read_layers();
  return list;
}

// The module an include path names ("search/tree.h" -> search, "models/network.h" -> models).
std::string module_named_by(const std::string& include) {
  const std::string first = include.substr(0, include.find('/'));
  for (const Module& m : modules())
    if (m.name == first) return m.name;
  return "";
}

struct Include {
  std::string file;  // relative to the source root
  int line = 0;
  std::string path;  // as written between the quotes or brackets
  bool angled = false;
};

std::vector<Include> includes_of(const Module& m) {
  std::vector<Include> out;
  const fs::path root = fs::path(test::source_dir()) / m.folder;
  static const std::regex include_line(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
    std::ifstream in(entry.path());
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
      std::smatch match;
      if (std::regex_search(text, match, include_line))
        out.push_back({fs::relative(entry.path(), test::source_dir()).string(), line, match[2], match[1] == "<"});
    }
  }
  return out;
}

// The table reads: every module has a folder that exists, and lists only modules of the table.
TEST(Layering, TheTableOfLayersReadsFromTheArchitectureDoc) {
  std::set<std::string> names;
  for (const Module& m : modules()) names.insert(m.name);
  EXPECT_GE(names.size(), 20u);
  for (const char* name : {"core", "game", "games", "heuristics", "search", "client", "run", "cli", "bench"})
    EXPECT_TRUE(names.count(name)) << name;
  for (const Module& m : modules()) {
    EXPECT_TRUE(fs::is_directory(fs::path(test::source_dir()) / m.folder)) << m.name << ": " << m.folder;
    for (const std::string& below : m.may_include) EXPECT_TRUE(names.count(below)) << m.name << " lists " << below;
  }
}

TEST(Layering, EveryIncludeGoesToItsOwnModuleOrOneItsLayerAllows) {
  int checked = 0;
  for (const Module& m : modules()) {
    for (const Include& inc : includes_of(m)) {
      if (inc.angled) continue;
      const std::string target = module_named_by(inc.path);
      ASSERT_FALSE(target.empty()) << inc.file << ":" << inc.line << ": \"" << inc.path
                                   << "\" names no module; includes are written from the module's folder";
      ++checked;
      EXPECT_TRUE(target == m.name || m.may_include.count(target))
          << inc.file << ":" << inc.line << ": " << m.name << " includes " << inc.path << " (" << target
          << "), which its layer does not allow (docs/ARCHITECTURE.md)";
    }
  }
  EXPECT_GT(checked, 100);  // the walk found the sources
}

// One of our CMake targets: the module it belongs to and the targets it links.
struct Target {
  std::string module;
  std::string file;  // the CMakeLists.txt that declares it
  std::vector<std::string> links;
};

// The module whose folder holds `path` (relative to the source root): the longest folder that is
// a prefix of it; "" for none.
std::string module_of_path(const std::string& path) {
  std::string best, best_folder;
  for (const Module& m : modules())
    if ((path == m.folder || path.rfind(m.folder + "/", 0) == 0) && m.folder.size() > best_folder.size()) {
      best = m.name;
      best_folder = m.folder;
    }
  return best;
}

// The commands `name(...)` of a CMake file, each as its words (comments dropped).
std::vector<std::vector<std::string>> cmake_commands(const fs::path& file, const std::set<std::string>& names) {
  std::ifstream in(file);
  std::string text;
  for (std::string line; std::getline(in, line);) text += line.substr(0, line.find('#')) + "\n";
  std::vector<std::vector<std::string>> out;
  static const std::regex command(R"(\b([a-z_]+)\s*\(([^()]*)\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), command); it != std::sregex_iterator(); ++it) {
    if (!names.count((*it)[1])) continue;
    std::vector<std::string> words{(*it)[1]};
    std::stringstream args((*it)[2].str());
    for (std::string w; args >> w;) words.push_back(w);
    out.push_back(words);
  }
  return out;
}

// Our libraries and programs, from the CMakeLists.txt of the modules' folders and the top level
// (tests/ and web/ aside). A target's module is that of its first source file named literally,
// else that of its folder, else its name's (sz_game: game).
std::map<std::string, Target> cmake_targets() {
  std::map<std::string, Target> targets;
  const fs::path root = test::source_dir();
  std::vector<fs::path> files = {root / "CMakeLists.txt"};
  for (const Module& m : modules())
    if (fs::exists(root / m.folder / "CMakeLists.txt") && m.name != "web")
      files.push_back(root / m.folder / "CMakeLists.txt");
  files.push_back(root / "src" / "CMakeLists.txt");
  std::vector<std::pair<std::string, std::vector<std::string>>> links;
  for (const fs::path& file : files) {
    const std::string dir = fs::relative(file.parent_path(), root).lexically_normal().string();
    for (const auto& words : cmake_commands(file, {"add_library", "add_executable", "target_link_libraries"})) {
      if (words.size() < 2) continue;
      if (words[0] == "target_link_libraries") {
        links.emplace_back(words[1], std::vector<std::string>(words.begin() + 2, words.end()));
        continue;
      }
      std::string module;
      for (size_t i = 2; i < words.size() && module.empty(); ++i) {
        std::string source = words[i];
        if (source.rfind("${PROJECT_SOURCE_DIR}/", 0) == 0)
          source = source.substr(std::string("${PROJECT_SOURCE_DIR}/").size());
        else if (source.find('$') == std::string::npos && source.find('.') != std::string::npos)
          source = (fs::path(dir) / source).lexically_normal().string();
        else
          continue;
        module = module_of_path(source);
      }
      if (module.empty()) module = module_of_path(dir);
      if (module.empty() && words[1].rfind("sz_", 0) == 0) module = module_of_path("src/" + words[1].substr(3));
      targets[words[1]] = {module, fs::relative(file, root).string(), {}};
    }
  }
  for (const auto& [name, linked] : links)
    if (targets.count(name))
      for (const std::string& l : linked)
        if (targets.count(l)) targets[name].links.push_back(l);
  return targets;
}

// The link graph keeps the layers too: a library or program links only targets of its own module
// and of those its layer may include (an edge that no include shows, such as the cli calling
// bench's functions through declarations of its own, shows here).
TEST(Layering, EveryTargetLinksOnlyItsOwnModuleOrOnesItsLayerAllows) {
  const std::map<std::string, Target> targets = cmake_targets();
  std::map<std::string, const Module*> by_name;
  for (const Module& m : modules()) by_name[m.name] = &m;
  int edges = 0;
  for (const auto& [name, t] : targets) {
    ASSERT_TRUE(by_name.count(t.module)) << t.file << ": " << name << " belongs to no module of the table";
    for (const std::string& l : t.links) {
      const std::string& below = targets.at(l).module;
      ++edges;
      EXPECT_TRUE(below == t.module || by_name.at(t.module)->may_include.count(below))
          << t.file << ": " << name << " (" << t.module << ") links " << l << " (" << below
          << "), which its layer does not allow (docs/ARCHITECTURE.md)";
    }
  }
  EXPECT_GE(targets.size(), 20u);
  EXPECT_GE(edges, 40);
  EXPECT_EQ(targets.count("sz_heuristics") ? targets.at("sz_heuristics").module : "", "heuristics");
  EXPECT_EQ(targets.count("sz_cli") ? targets.at("sz_cli").module : "", "cli");
}

// Third-party headers stay in the modules that own them: HDF5 in data, yaml-cpp in config,
// LibTorch where networks are built, run and trained (a torch include costs ~20 s to compile),
// ONNX's protobuf classes in the exporter (the clients' runtime reads model.onnx without them).
TEST(Layering, ThirdPartyHeadersStayInTheirModules) {
  const std::map<std::string, std::set<std::string>> owners = {
      {"hdf5", {"data"}},
      {"H5", {"data"}},
      {"yaml-cpp", {"config"}},
      {"Eigen", {"eval", "placement", "client", "web"}},
      {"torch", {"models", "nn", "train", "bench"}},
      {"ATen", {"models", "nn", "train", "bench"}},
      {"c10", {"models", "nn", "train", "bench"}},
      {"onnx/", {"bundle"}},
      {"google/protobuf", {"bundle"}},
  };
  for (const Module& m : modules())
    for (const Include& inc : includes_of(m)) {
      if (!inc.angled) continue;
      for (const auto& [prefix, allowed] : owners) {
        if (inc.path.rfind(prefix, 0) != 0) continue;
        EXPECT_TRUE(allowed.count(m.name)) << inc.file << ":" << inc.line << ": <" << inc.path << "> in " << m.name;
      }
    }
}

// The game clients' runtime links no yaml-cpp and no torch: of the games it names the rules core
// but not the YAML-backed profile files or the registry over them, of the network's description
// (net) it links the rows' library alone, never the presets' reader; and the rules core itself
// reads no config.
TEST(Layering, TheClientRuntimeIsYamlFreeAndTorchFree) {
  const std::set<std::string> banned = {"games/registry.h", "games/chaturanga/rule_profiles.h"};
  int checked = 0;
  for (const Module& m : modules()) {
    for (const Include& inc : includes_of(m)) {
      if (inc.angled) continue;
      if (m.name == "client") {
        ++checked;
        EXPECT_FALSE(banned.count(inc.path))
            << inc.file << ":" << inc.line << ": the client runtime includes " << inc.path;
      }
      if (m.name == "games" && inc.file != "src/games/chaturanga/rule_profiles.cpp" &&
          inc.file != "src/games/registry.cpp") {
        EXPECT_NE(module_named_by(inc.path), "config")
            << inc.file << ":" << inc.line << ": the rules core reads config";
      }
    }
  }
  EXPECT_GT(checked, 10);
  for (const auto& [name, t] : cmake_targets()) {
    if (t.module != "client") continue;
    for (const std::string& l : t.links) {
      EXPECT_TRUE(l != "sz_net" && l != "sz_config" && l != "sz_models")
          << t.file << ": " << name << " links " << l;
    }
  }
}

}  // namespace
}  // namespace sz
