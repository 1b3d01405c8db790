// The house's shape (docs/ARCHITECTURE.md), checked on every test run: a file includes only its
// own module and the modules its layer lists, and the third-party headers stay in their modules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
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

// docs/ARCHITECTURE.md, "Layers": the one list. A new edge is a design decision: add it there
// and here together.
const std::vector<Module>& modules() {
  static const std::vector<Module> list = {
      {"core", "src/core", {}},
      {"config", "src/config", {"core"}},
      {"plot", "src/plot", {"core"}},
      {"game", "src/game", {"core"}},
      {"games", "src/games", {"core", "config", "game"}},
      {"data", "src/data", {"core", "game"}},
      {"search", "src/search", {"core", "game"}},
      {"models", "models", {"core", "config", "game"}},
      {"nn", "src/nn", {"core", "game", "search", "models"}},
      {"eval", "src/eval", {"core", "game", "games", "search"}},
      {"selfplay", "selfplay", {"core", "game", "data", "search"}},
      {"placement", "src/placement", {"core", "plot", "game", "games", "data", "search", "eval"}},
      {"train", "train", {"core", "plot", "game", "data", "models", "nn"}},
      {"uci", "src/uci", {"core", "game", "search"}},
      {"client", "client", {"core", "game", "games", "search", "models", "uci"}},
      {"bundle", "src/bundle", {"core", "config", "game", "games", "search", "models", "client"}},
      {"web", "web", {}},  // JavaScript, and the Emscripten shims of web/wasm/ (Eigen's, for client/)
      {"run",
       "run",
       {"core", "config", "plot", "game", "games", "search", "models", "nn", "eval", "selfplay", "train"}},
      {"cli",
       "src/cli",
       {"core", "config", "plot", "game", "games", "data", "search", "models", "nn", "eval", "placement", "selfplay",
        "train", "run", "uci", "client", "bundle"}},
      {"bench",
       "bench",
       {"core", "config", "plot", "game", "games", "data", "search", "models", "nn", "eval", "placement", "selfplay",
        "train", "run", "uci", "client", "bundle", "cli"}},
      {"main", "src/main", {"cli", "bench"}},  // the program: cli's commands and bench's benchmarks
  };
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
// but not the YAML-backed profile files or the registry over them, of models only the torch-free
// architecture headers; and the rules core itself reads no config.
TEST(Layering, TheClientRuntimeIsYamlFreeAndTorchFree) {
  const std::set<std::string> banned = {"games/registry.h", "games/chaturanga/rule_profiles.h"};
  const std::set<std::string> models_allowed = {"models/net_config.h", "models/architecture.h"};
  int checked = 0;
  for (const Module& m : modules()) {
    for (const Include& inc : includes_of(m)) {
      if (inc.angled) continue;
      if (m.name == "client") {
        ++checked;
        EXPECT_FALSE(banned.count(inc.path))
            << inc.file << ":" << inc.line << ": the client runtime includes " << inc.path;
        if (module_named_by(inc.path) == "models") {
          EXPECT_TRUE(models_allowed.count(inc.path))
              << inc.file << ":" << inc.line << ": the client runtime includes " << inc.path << " (torch)";
        }
      }
      if (m.name == "games" && inc.file != "src/games/chaturanga/rule_profiles.cpp" &&
          inc.file != "src/games/registry.cpp") {
        EXPECT_NE(module_named_by(inc.path), "config")
            << inc.file << ":" << inc.line << ": the rules core reads config";
      }
    }
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace sz
