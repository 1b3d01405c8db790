#include "train/loop.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "config/embedded.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "eval/match_report.h"
#include "eval/start_suite.h"
#include "nn/evaluators.h"
#include "selfplay/selfplay.h"
#include "train/run_files.h"
#include "train/trainer.h"

namespace sz::train {

namespace fs = std::filesystem;

namespace {

double minutes_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60.0;
}

// The eval suite as a file: a path as given, or a built-in suite written into the run directory.
std::string suite_path(const config::RunConfig& config) {
  const std::string& suite = config.loop.eval_suite;
  if (suite.empty() || fs::exists(suite)) return suite;
  for (const config::EmbeddedFile& f : config::embedded_files()) {
    if (f.path != suite) continue;
    const std::string path = config.run_dir() + "/eval/" + fs::path(suite).filename().string();
    if (!fs::exists(path)) {
      fs::create_directories(fs::path(path).parent_path());
      write_file_atomically(path, std::string(f.text));
    }
    return path;
  }
  throw Error("loop.eval_suite: no file or built-in suite '" + suite + "'");
}

eval::MatchPlayer mcts_player(const config::RunConfig& config, const std::string& name, const std::string& model) {
  eval::MctsPlayerOptions options;
  options.search = config.search;
  options.simulations = config.loop.eval_simulations > 0 ? config.loop.eval_simulations : config.search.full_visits;
  return {name, eval::mcts_player_factory(options, nn::evaluator_factory(model, config.inference))};
}

// Games the run holds once `generations` generations are done (the first: bootstrap_games).
int64_t games_after(const LoopConfig& lc, int generations) {
  if (generations <= 0) return 0;
  const int64_t first = lc.bootstrap_games > 0 ? lc.bootstrap_games : lc.games_per_generation;
  return first + int64_t(generations - 1) * lc.games_per_generation;
}

// Generations completed by a run holding `games` games (a restarted run picks up from there).
int generations_done(const LoopConfig& lc, int64_t games) {
  int done = 0;
  while (games_after(lc, done + 1) <= games) ++done;
  return done;
}

void append_line(const std::string& path, const std::string& line) {
  std::ofstream out(path, std::ios::app);
  out << line << '\n' << std::flush;  // a full disk shows at the flush
  if (!out) throw Error("cannot append to " + path);
}

}  // namespace

eval::MatchResult match_against_bootstrap(const config::RunConfig& config, const std::string& model, int games,
                                          const std::string& pgn_path) {
  const int total = games > 0 ? games : config.loop.final_eval_games;
  eval::MatchSpec spec;
  spec.players = {mcts_player(config, model.empty() ? "bootstrap-2" : "model", model),
                  mcts_player(config, "bootstrap", "")};
  spec.profile = config.profile;
  const std::string suite = suite_path(config);
  if (!suite.empty())
    spec.starts = eval::read_start_suite(suite, config.profile, (total + 1) / 2).take_or_throw("loop.eval_suite");
  spec.rounds = suite.empty() ? (total + 1) / 2 : 1;
  spec.concurrency = config.loop.eval_concurrency;
  spec.seed = config.seed ^ 0xE7A1ull;
  spec.anchor = 1;
  spec.pgn_path = pgn_path;
  return eval::play_match(spec);
}

LoopReport run_loop(const config::RunConfig& config, const std::atomic<bool>* stop, LoopHooks hooks) {
  const auto start = std::chrono::steady_clock::now();
  auto say = [&](const std::string& line) {
    if (hooks.on_line) hooks.on_line(line);
    else std::fprintf(stderr, "%s\n", line.c_str());
  };
  auto stopping = [&] { return stop && stop->load(); };
  const std::string run = config.run_dir(), games_dir = run + "/games";
  for (const char* sub : {"games", "models", "eval", "logs", "plots"}) fs::create_directories(run + "/" + sub);
  write_file_atomically(run + "/config.yaml", config::to_yaml(config));

  TrainerHooks trainer_hooks;
  trainer_hooks.on_checkpoint = hooks.on_checkpoint;
  Trainer trainer(config, run, trainer_hooks);
  LoopReport report;
  std::string adopted = read_adopted(run);
  const LoopConfig& lc = config.loop;
  int generation = generations_done(lc, selfplay::count_games(games_dir));
  GenerationTraining training = read_generation_training(run);
  bool unfinished = !training.done && training.generation == generation - 1;  // its games are there
  if (unfinished) --generation;
  while (!stopping() && (lc.generations == 0 || generation < lc.generations) &&
         (lc.max_minutes <= 0 || minutes_since(start) < lc.max_minutes)) {
    std::unique_ptr<selfplay::SelfplayStats> played = std::make_unique<selfplay::SelfplayStats>();
    if (unfinished) {
      unfinished = false;
      say("generation " + std::to_string(generation + 1) + ": finishing its training (stopped at step " +
          std::to_string(trainer.step()) + ", to train until step " +
          std::to_string(training.from_step + training.steps) + ")");
    } else {
      selfplay::SelfplayJob job;
      job.config = config.selfplay;
      job.out_dir = games_dir;
      job.games = games_after(lc, generation + 1);
      job.model_id = adopted;
      job.make_evaluator = nn::evaluator_factory(adopted, config.inference);
      job.stop = stop;
      played = selfplay::run_selfplay(job);
      if (stopping()) break;
      const bool first_network = adopted.empty();
      training = {
          generation, trainer.step(),
          first_network && lc.bootstrap_train_steps > 0 ? lc.bootstrap_train_steps : lc.train_steps_per_generation,
          /*done=*/false};
      write_generation_training(run, training);
    }
    const int64_t left = std::max<int64_t>(0, training.from_step + training.steps - trainer.step());
    const int steps = trainer.train_available(int(left), stop);
    if (stopping()) break;  // not counted: run again, the loop finishes this training first
    const std::string candidate = trainer.current_checkpoint();
    std::string verdict = "no new checkpoint";
    if (!candidate.empty() && candidate != adopted) {
      bool adopt = true;
      if (lc.gating && !adopted.empty()) {
        eval::MatchSpec gate;
        gate.players = {mcts_player(config, "candidate", candidate), mcts_player(config, "adopted", adopted)};
        gate.profile = config.profile;
        gate.rounds = std::max(1, lc.gating_games / 2);
        gate.concurrency = lc.eval_concurrency;
        gate.seed = config.seed + uint64_t(generation);
        const auto result = eval::play_match(gate);
        const double score = result.pairings.front().score.score();
        adopt = score >= lc.gating_score;
        verdict = "gating score " + std::to_string(score).substr(0, 5);
      }
      if (adopt) {
        adopted = candidate;
        write_adopted(run, adopted);
        verdict = (lc.gating ? verdict + ", adopted " : "adopted ") + fs::path(candidate).filename().string();
      } else {
        verdict += ", kept " + fs::path(adopted).filename().string();
      }
    }
    training.done = true;
    write_generation_training(run, training);
    ++generation;
    ++report.generations;
    char line[512];
    std::snprintf(line, sizeof line, "generation %d | games %lld (+%lld, %.1f pos/s) | train step %lld (+%d) | %s | %.1f min",
                  generation, static_cast<long long>(selfplay::count_games(games_dir)),
                  static_cast<long long>(played->games()), played->positions() / std::max(played->seconds(), 1e-9),
                  static_cast<long long>(trainer.step()), steps, verdict.c_str(), minutes_since(start));
    say(line);
    say("  selfplay: " + played->progress_line());
    if (lc.eval_every > 0 && generation % lc.eval_every == 0 && !adopted.empty() && !stopping()) {
      const auto m = match_against_bootstrap(config, adopted, lc.eval_games);
      const auto& p = m.pairings.front();
      char json[256];
      std::snprintf(json, sizeof json, "{\"generation\": %d, \"step\": %lld, \"elo\": %.1f, \"lower\": %.1f, \"upper\": %.1f, \"score\": %.4f}",
                    generation, static_cast<long long>(trainer.step()), p.elo.elo, p.elo.lower, p.elo.upper, p.score.score());
      append_line(run + "/eval/elo.jsonl", json);
      say(std::string("  eval vs bootstrap: ") + json);
    }
  }
  report.final_model = adopted;
  if (!stopping() && lc.final_eval_games > 0) {
    report.final_match = match_against_bootstrap(config, adopted, 0, run + "/eval/final.pgn");
    report.final_eval = true;
    write_file_atomically(run + "/eval/final.json", eval::match_json(report.final_match));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace sz::train
