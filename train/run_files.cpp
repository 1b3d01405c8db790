#include "train/run_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include "core/key_value_lines.h"
#include "core/parse_number.h"
#include "core/read_file.h"
#include "models/checkpoint_meta.h"

namespace sz::train {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kCheckpointPrefix = "model-";
constexpr std::string_view kCheckpointSuffix = ".pt";
constexpr std::string_view kStateSuffix = ".state";
constexpr const char* kCurrentFile = "current.txt";
// Bounds of generation.txt's numbers: beyond any run (loop.generations stops at a million), and
// far enough from the int64 limit that the loop's sums of steps cannot overflow.
constexpr int kMaxGeneration = 1'000'000;
constexpr int64_t kMaxStep = 1'000'000'000'000;

std::string errno_text() { return std::strerror(errno); }

// Each key of the text with where it lives in TrainerState; one list for writing and reading.
template <typename V>
void state_fields(V& v, TrainerState& s) {
  v("format", s.format);
  v("step", s.step);
  v("seed", s.seed);
  v("samples", s.samples);
  v("network_samples", s.network_samples);
  v("positions_seen", s.positions_seen);
  v("window_positions", s.window_positions);
  v("window_shards", s.window_shards);
  v("newest_shard", s.newest_shard);
  v("loss_scale", s.loss_scale);
  v("loss_scale_good_steps", s.loss_scale_good_steps);
}

struct TextWriter {
  std::string text;
  void operator()(const char* key, const std::string& value) { text += std::string(key) + ": " + value + "\n"; }
  void operator()(const char* key, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", value);  // round-trips exactly
    (*this)(key, std::string(buf));
  }
  template <typename T>
  void operator()(const char* key, T value) {
    (*this)(key, std::to_string(value));
  }
};

struct TextSetter {
  std::string_view key, value;
  bool found = false, ok = false;
  void operator()(const char* k, std::string& field) {
    if (!match(k)) return;
    field = std::string(value);
    ok = true;
  }
  template <typename T>
  void operator()(const char* k, T& field) {
    if (match(k)) ok = parse_number(value, field);
  }
  bool match(const char* k) {
    if (key != k) return false;
    found = true;
    return true;
  }
};

}  // namespace

std::string state_to_text(const TrainerState& state) {
  TrainerState s = state;  // the field list takes mutable references
  TextWriter w;
  state_fields(w, s);
  return w.text;
}

Result<TrainerState> state_from_text(std::string_view text, std::string_view source) {
  TrainerState s;
  s.format = -1;
  std::set<std::string, std::less<>> seen;
  for (const KeyValueLine& kv : key_value_lines(text)) {
    TextSetter set{kv.key, kv.value};
    if (kv.has_separator) state_fields(set, s);
    if (!set.found) return fail(std::string(source) + ": unknown key in line '" + std::string(kv.line) + "'");
    if (!set.ok) return fail(std::string(source) + ": bad value in line '" + std::string(kv.line) + "'");
    seen.insert(std::string(set.key));
  }
  if (s.format < 1 || s.format > kTrainerStateVersion)
    return fail(std::string(source) + ": trainer state format " + std::to_string(s.format) +
                ", this program reads 1 to " + std::to_string(kTrainerStateVersion));
  if (s.format == 1) seen.insert("network_samples");  // added in format 2; 0 before
  s.format = kTrainerStateVersion;
  std::string missing;
  TextWriter names;  // lists the keys
  state_fields(names, s);
  for (const KeyValueLine& kv : key_value_lines(names.text))
    if (!seen.count(kv.key)) missing += (missing.empty() ? "" : ", ") + std::string(kv.key);
  if (!missing.empty()) return fail(std::string(source) + ": trainer state lacks " + missing);
  return s;
}

std::string checkpoint_file_name(int64_t step) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "model-%08lld.pt", static_cast<long long>(step));
  return buf;
}

int64_t checkpoint_step(std::string_view name) {
  if (!name.starts_with(kCheckpointPrefix) || !name.ends_with(kCheckpointSuffix)) return -1;
  name.remove_prefix(kCheckpointPrefix.size());
  name.remove_suffix(kCheckpointSuffix.size());
  int64_t step = -1;
  if (name.empty() || name.size() > 18 || !parse_number(name, step) || step < 0) return -1;
  return step;
}

std::string state_path(const std::string& checkpoint_path) {
  std::string p = checkpoint_path;
  if (p.ends_with(kCheckpointSuffix)) p.resize(p.size() - kCheckpointSuffix.size());
  return p + std::string(kStateSuffix);
}

std::string read_current(const std::string& models_dir) {
  const std::string current = (fs::path(models_dir) / kCurrentFile).string();
  std::error_code ec;
  if (!fs::exists(current, ec)) return "";
  std::string name = read_file(current);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' ')) name.pop_back();
  if (checkpoint_step(name) < 0)
    throw Error(current + ": does not name a checkpoint (model-<step>.pt): '" + name + "'");
  const std::string path = (fs::path(models_dir) / name).string();
  if (!fs::is_regular_file(path, ec)) throw Error(current + ": names " + name + ", which is not there");
  return path;
}

void write_current(const std::string& models_dir, const std::string& checkpoint_file) {
  write_file_atomically((fs::path(models_dir) / kCurrentFile).string(), checkpoint_file + "\n");
}

std::string read_adopted(const std::string& run_dir) {
  const fs::path file = fs::path(run_dir) / "models" / "adopted.txt";
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
    places.push_back(fs::path(run_dir) / "models" / named.filename());
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
  const fs::path models = fs::path(run_dir) / "models";
  const fs::path path(checkpoint);
  // In this run's models/ (as every checkpoint the loop adopts is): relative to the run.
  std::error_code ec;
  const bool ours = fs::equivalent(path.parent_path(), models, ec);
  const std::string text = ours ? "models/" + path.filename().string() : fs::absolute(path, ec).string();
  write_file_atomically((models / "adopted.txt").string(), text + "\n");
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
  const std::string path = (fs::path(run_dir) / "models" / "generation.txt").string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  return generation_training_from_text(read_file(path), path).take_or_throw();
}

void write_generation_training(const std::string& run_dir, const GenerationTraining& g) {
  write_file_atomically((fs::path(run_dir) / "models" / "generation.txt").string(),
                        "generation: " + std::to_string(g.generation) + "\nfrom_step: " + std::to_string(g.from_step) +
                            "\nsteps: " + std::to_string(g.steps) + "\ndone: " + (g.done ? "true" : "false") + "\n");
}

std::vector<std::string> list_checkpoints(const std::string& models_dir) {
  std::vector<std::pair<int64_t, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(models_dir, ec))
    if (const int64_t step = checkpoint_step(entry.path().filename().string()); step >= 0 && entry.is_regular_file(ec))
      found.emplace_back(step, entry.path().string());
  std::sort(found.rbegin(), found.rend());
  std::vector<std::string> paths;
  for (auto& [step, path] : found) paths.push_back(std::move(path));
  return paths;
}

std::string move_checkpoint_to_damaged(const std::string& path, std::string* why_not) {
  const fs::path dir = fs::path(path).parent_path() / "damaged";
  const std::string target = (dir / fs::path(path).filename()).string();
  std::error_code ec;
  std::string why;
  if (fs::create_directories(dir, ec); ec) {
    why = "cannot create " + dir.string() + ": " + ec.message();
  } else if (fs::exists(target, ec)) {
    why = target + " exists already";
  } else if (std::rename(path.c_str(), target.c_str()) != 0) {
    why = errno_text();
  } else {
    const std::string state = state_path(path);
    if (fs::exists(state, ec)) std::rename(state.c_str(), state_path(target).c_str());
    return target;
  }
  if (why_not) *why_not = why;
  return "";
}

std::vector<std::string> prune_checkpoints(const std::string& models_dir, int keep) {
  std::vector<std::string> deleted;
  std::error_code ec;
  std::vector<std::pair<int64_t, std::string>> checkpoints;
  for (const auto& entry : fs::directory_iterator(models_dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name.starts_with(kCheckpointPrefix) || name.starts_with(kCurrentFile);
    if (ours && name.find(".tmp") != std::string::npos) {
      if (fs::remove(entry.path(), ec)) deleted.push_back(entry.path().string());  // a killed writer's
    } else if (const int64_t step = checkpoint_step(name); step >= 0) {
      checkpoints.emplace_back(step, entry.path().string());
    }
  }
  if (keep <= 0 || int(checkpoints.size()) <= keep) return deleted;
  std::sort(checkpoints.begin(), checkpoints.end());
  const std::string current = read_current(models_dir);
  for (size_t i = 0; i + size_t(keep) < checkpoints.size(); ++i) {
    const std::string& path = checkpoints[i].second;
    if (path == current) continue;
    fs::remove(state_path(path), ec);
    if (fs::remove(path, ec)) deleted.push_back(path);
  }
  return deleted;
}

}  // namespace sz::train
