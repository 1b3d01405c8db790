// soak_check RUN_DIR: what scripts/soak.sh asks of a loop run that was killed and resumed many
// times and then ran to its end. The expectations come from the run's own config.yaml, not from
// the files the loop wrote: every game index of the run once, every generation trained once (its
// network at the step its steps end on), every rating and final match on record once, every
// checkpoint loads, no temporary file is left. Prints one line per finding and a `figures:` line
// that soak.sh adds up; exits 1 if anything is wrong, 2 when the run cannot be checked at all.
//
// It expects each generation to train all its steps: a config whose replay ratio caps them (far
// fewer positions than steps x batch) would read as skipped steps.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "games/registry.h"
#include "models/checkpoint.h"
#include "run/ladder.h"
#include "run/run_config.h"
#include "rundir/checkpoint_files.h"
#include "rundir/loop_state.h"
#include "rundir/run_plots.h"
#include "selfplay/game_slot.h"
#include "selfplay/selfplay.h"

namespace {

namespace fs = std::filesystem;
using namespace sz;

struct Figures {
  int64_t games = 0, lost = 0, duplicated = 0, damaged_shards = 0;
  int generations = 0, skipped = 0, repeated = 0;
  int matches = 0, missing_matches = 0, double_matches = 0, unexpected_matches = 0;
  int checkpoints = 0, unloadable = 0, metric_steps_missing = 0;
  int temporaries = 0;
  std::vector<std::string> problems;

  void problem(const std::string& what) { problems.push_back(what); }
};

// The steps at which generation g (1-based) ends its training.
int64_t step_of(const run::LoopConfig& lc, int g) {
  const int64_t first = lc.bootstrap_train_steps > 0 ? lc.bootstrap_train_steps : lc.train_steps_per_generation;
  return first + int64_t(g - 1) * lc.train_steps_per_generation;
}

int64_t games_of(const run::LoopConfig& lc, int generations) {
  const int64_t first = lc.bootstrap_games > 0 ? lc.bootstrap_games : lc.games_per_generation;
  return first + int64_t(generations - 1) * lc.games_per_generation;
}

void check_games(const run::RunConfig& config, Figures& f) {
  const std::string dir = config.run_dir() + "/games";
  const selfplay::GamesOnDisk on_disk =
      selfplay::scan_games(dir, selfplay::worker_seed(config.seed, ""), [&](const std::string& w) { f.problem(w); });
  const int64_t want = games_of(config.loop, config.loop.generations);
  std::set<uint64_t> have(on_disk.indices.begin(), on_disk.indices.end());
  f.games = int64_t(on_disk.indices.size()) + on_disk.duplicates;
  f.duplicated = on_disk.duplicates;
  for (int64_t i = 0; i < want; ++i)
    if (!have.count(uint64_t(i))) ++f.lost;
  const int64_t extra = on_disk.distinct() - (want - f.lost);
  if (f.lost) f.problem(std::to_string(f.lost) + " of the " + std::to_string(want) + " games are missing");
  if (f.duplicated) f.problem(std::to_string(f.duplicated) + " games are in the shards twice");
  if (extra) f.problem(std::to_string(extra) + " games beyond the run's " + std::to_string(want));
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir + "/damaged", ec)) {
    ++f.damaged_shards;
    f.problem("damaged shard " + entry.path().string());
  }
}

// The networks: one per generation, at the step its training ends; the trainer's and the
// loop's state files agree.
void check_generations(const run::RunConfig& config, const run::Ladder& ladder, Figures& f) {
  const run::LoopConfig& lc = config.loop;
  std::map<int, int> seen;
  for (const run::LadderNetwork& n : ladder.networks()) {
    ++seen[n.generation];
    if (n.generation < 1 || n.generation > lc.generations || n.step != step_of(lc, n.generation))
      f.problem("networks.jsonl: generation " + std::to_string(n.generation) + " at step " + std::to_string(n.step) +
                ", expected step " + std::to_string(step_of(lc, n.generation)));
  }
  for (int g = 1; g <= lc.generations; ++g) {
    if (seen[g] == 0) ++f.skipped, f.problem("generation " + std::to_string(g) + " has no network");
    if (seen[g] > 1) ++f.repeated, f.problem("generation " + std::to_string(g) + " has " + std::to_string(seen[g]));
  }
  f.generations = int(seen.size());
  const std::string final_model = rundir::checkpoint_file_name(step_of(lc, lc.generations));
  const std::string models = config.run_dir() + "/models";
  if (const std::string current = rundir::read_current(models); fs::path(current).filename() != final_model)
    f.problem("current.txt names " + current + ", not " + final_model);
  if (const std::string adopted = rundir::read_adopted(config.run_dir()); fs::path(adopted).filename() != final_model)
    f.problem("adopted.txt names " + adopted + ", not " + final_model);
  const rundir::GenerationTraining t = rundir::read_generation_training(config.run_dir());
  if (t.generation != lc.generations - 1 || !t.done)
    f.problem("generation.txt: generation " + std::to_string(t.generation) + (t.done ? " done" : " not done") +
              ", expected " + std::to_string(lc.generations - 1) + " done");
}

using MatchKey = std::tuple<int64_t, int64_t, bool>;  // a's step, b's step, final

// The matches the loop plays: each rated network against the rate_previous before it and the
// anchor, then the final network against the first and the anchor.
std::set<MatchKey> expected_matches(const run::RunConfig& config) {
  const run::LoopConfig& lc = config.loop;
  const bool anchored = !lc.anchor.empty();
  std::set<MatchKey> want;
  for (int g = 1; g <= lc.generations && lc.rate_games > 0; ++g) {
    if ((g - 1) % lc.rate_every != 0) continue;
    for (int before = g - 1; before >= 1 && before >= g - lc.rate_previous; --before)
      want.insert({step_of(lc, g), step_of(lc, before), false});
    if (anchored) want.insert({step_of(lc, g), run::kAnchorStep, false});
  }
  if (lc.final_eval_games > 0) {
    if (lc.generations > 1) want.insert({step_of(lc, lc.generations), step_of(lc, 1), true});
    if (anchored) want.insert({step_of(lc, lc.generations), run::kAnchorStep, true});
  }
  return want;
}

void check_matches(const run::RunConfig& config, const run::Ladder& ladder, Figures& f) {
  if (ladder.set_aside() > 0) f.problem(std::to_string(ladder.set_aside()) + " matches under other conditions");
  const std::set<MatchKey> want = expected_matches(config);
  std::map<MatchKey, int> seen;
  for (const run::LadderMatch& m : ladder.matches()) ++seen[{m.a_step, m.b_step, m.final}];
  auto name = [](const MatchKey& k) {
    return std::to_string(std::get<0>(k)) + " vs " + std::to_string(std::get<1>(k)) +
           (std::get<2>(k) ? " (final)" : "");
  };
  for (const auto& [key, count] : seen) {
    f.matches += count;
    if (!want.count(key)) ++f.unexpected_matches, f.problem("ladder.jsonl: unexpected match " + name(key));
    if (count > 1)
      f.double_matches += count - 1, f.problem("ladder.jsonl: " + name(key) + " " + std::to_string(count) + " times");
  }
  for (const MatchKey& key : want)
    if (!seen.count(key)) ++f.missing_matches, f.problem("ladder.jsonl: match " + name(key) + " is missing");
}

void check_checkpoints(const run::RunConfig& config, Figures& f) {
  const std::string models = config.run_dir() + "/models";
  const game::GameSpec spec = games::new_game(config.profile).take_or_throw("profile")->spec();
  for (const std::string& path : rundir::list_checkpoints(models)) {
    ++f.checkpoints;
    try {
      models::load_network(path, spec);
    } catch (const std::exception& e) {
      ++f.unloadable;
      f.problem(path + ": does not load: " + e.what());
    }
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(models + "/damaged", ec)) {
    ++f.unloadable;
    f.problem("damaged checkpoint " + entry.path().string());
  }
}

// logs/train.jsonl holds a line for every log_every-th step (a resumed trainer repeats some).
void check_metrics(const run::RunConfig& config, Figures& f) {
  std::set<int64_t> steps;
  std::ifstream in(config.run_dir() + "/logs/train.jsonl");
  for (std::string line; std::getline(in, line);)
    if (const auto record = json_numbers(line); record && record->count("step"))
      steps.insert(int64_t(record->at("step")));
  const int64_t last = step_of(config.loop, config.loop.generations);
  for (int64_t step = config.train.log_every; step <= last; step += config.train.log_every)
    if (!steps.count(step))
      ++f.metric_steps_missing, f.problem("train.jsonl: no line for step " + std::to_string(step));
}

// The temporaries of atomic writes ("<file>.tmp<pid>") and of shards (".<name>.h5.tmp").
void check_temporaries(const std::string& run_dir, Figures& f) {
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(run_dir, ec)) {
    if (entry.path().filename().string().find(".tmp") == std::string::npos) continue;
    ++f.temporaries;
    f.problem("temporary left: " + entry.path().string());
  }
}

Figures check(const std::string& run_dir) {
  const run::RunConfig config = run::load_run_config(run_dir + "/config.yaml").take_or_throw("config.yaml");
  if (config.loop.generations < 1) throw Error(run_dir + "/config.yaml: loop.generations must be set for a check");
  Figures f;
  const run::Ladder ladder(run_dir, config.loop.anchor, run::rating_conditions(config));
  check_games(config, f);
  check_generations(config, ladder, f);
  check_matches(config, ladder, f);
  check_checkpoints(config, f);
  check_metrics(config, f);
  check_temporaries(run_dir, f);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: soak_check RUN_DIR\n");
    return 2;
  }
  try {
    const Figures f = check(argv[1]);
    for (const std::string& p : f.problems) std::printf("soak_check: %s\n", p.c_str());
    std::printf(
        "figures: games=%lld lost=%lld duplicated=%lld damaged_shards=%lld generations=%d skipped=%d repeated=%d "
        "matches=%d missing_matches=%d double_matches=%d unexpected_matches=%d checkpoints=%d unloadable=%d "
        "metric_steps_missing=%d temporaries=%d\n",
        static_cast<long long>(f.games), static_cast<long long>(f.lost), static_cast<long long>(f.duplicated),
        static_cast<long long>(f.damaged_shards), f.generations, f.skipped, f.repeated, f.matches, f.missing_matches,
        f.double_matches, f.unexpected_matches, f.checkpoints, f.unloadable, f.metric_steps_missing, f.temporaries);
    return f.problems.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("soak_check: %s: cannot check: %s\n", argv[1], e.what());
    return 2;
  }
}
