#include "rundir/loop_state.h"

#include <filesystem>
#include <set>

#include "core/atomic_file.h"
#include "core/key_value_lines.h"
#include "core/parse_number.h"
#include "core/read_file.h"
#include "models/checkpoint_meta.h"
#include "rundir/checkpoint_files.h"
#include "rundir/run_paths.h"

namespace sz::rundir {

namespace fs = std::filesystem;

namespace {

// Bounds of generation.txt's numbers: beyond any run (loop.generations stops at a million), and
// far enough from the int64 limit that the loop's sums of steps cannot overflow.
constexpr int kMaxGeneration = 1'000'000;
constexpr int64_t kMaxStep = 1'000'000'000'000;

}  // namespace

std::string read_adopted(const std::string& run_dir) {
  const fs::path file = RunPaths(run_dir).adopted();
  std::error_code ec;
  if (!fs::exists(file, ec)) return "";
  std::string line = read_file(file.string());
  line = line.substr(0, line.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (line.empty()) return "";
  const fs::path named(line);
  // Where it may be: relative to the run (written so since adopted.txt held paths relative to the
  // working directory), absolute or relative to the working directory (older runs), or, for such
  // a path from another working directory, the same checkpoint file in this run's models/.
  std::vector<fs::path> places = {fs::path(run_dir) / named, named};
  if (checkpoint_step(named.filename().string()) >= 0)
    places.push_back(fs::path(RunPaths(run_dir).models()) / named.filename());
  for (const fs::path& place : places) {
    if (!fs::is_regular_file(place, ec)) continue;
    try {
      models::read_checkpoint_meta(place.string());
    } catch (const Error& e) {
      throw Error(file.string() + ": the adopted checkpoint cannot be read: " + e.what());
    }
    return place.string();
  }
  throw Error(file.string() + ": names '" + line + "', which is not there (looked in " + run_dir +
              " and the working directory); self-play would fall back on the bootstrap player");
}

void write_adopted(const std::string& run_dir, const std::string& checkpoint) {
  const RunPaths paths(run_dir);
  const fs::path models = paths.models();
  const fs::path path(checkpoint);
  // In this run's models/ (as every checkpoint the loop adopts is): relative to the run.
  std::error_code ec;
  const bool ours = fs::equivalent(path.parent_path(), models, ec);
  const std::string text = ours ? "models/" + path.filename().string() : fs::absolute(path, ec).string();
  write_file_atomically(paths.adopted(), text + "\n");
}

Result<GenerationTraining> generation_training_from_text(std::string_view text, std::string_view source) {
  GenerationTraining g;
  std::set<std::string, std::less<>> seen;
  for (const KeyValueLine& kv : key_value_lines(text)) {
    bool ok = kv.has_separator && !seen.count(kv.key);
    if (kv.key == "generation")
      ok = ok && parse_number(kv.value, g.generation) && g.generation >= 0 && g.generation <= kMaxGeneration;
    else if (kv.key == "from_step")
      ok = ok && parse_number(kv.value, g.from_step) && g.from_step >= 0 && g.from_step <= kMaxStep;
    else if (kv.key == "steps")
      ok = ok && parse_number(kv.value, g.steps) && g.steps >= 0 && g.steps <= kMaxStep;
    else if (kv.key == "done")
      ok = ok && (kv.value == "true" || kv.value == "false"), g.done = kv.value == "true";
    else
      ok = false;
    if (!ok) return fail(std::string(source) + ": bad line '" + std::string(kv.line) + "'");
    seen.insert(std::string(kv.key));
  }
  if (seen.size() != 4) return fail(std::string(source) + ": needs generation, from_step, steps and done");
  return g;
}

GenerationTraining read_generation_training(const std::string& run_dir) {
  const std::string path = RunPaths(run_dir).generation();
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  return generation_training_from_text(read_file(path), path).take_or_throw();
}

void write_generation_training(const std::string& run_dir, const GenerationTraining& g) {
  write_file_atomically(RunPaths(run_dir).generation(),
                        "generation: " + std::to_string(g.generation) + "\nfrom_step: " + std::to_string(g.from_step) +
                            "\nsteps: " + std::to_string(g.steps) + "\ndone: " + (g.done ? "true" : "false") + "\n");
}

}  // namespace sz::rundir
