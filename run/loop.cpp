#include "run/loop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "config/embedded.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/number_text.h"
#include "eval/match_report.h"
#include "eval/material_evaluator.h"
#include "eval/player_spec.h"
#include "eval/start_suite.h"
#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "nn/evaluators.h"
#include "rundir/checkpoint_files.h"
#include "rundir/loop_state.h"
#include "rundir/run_paths.h"
#include "selfplay/selfplay.h"
#include "selfplay/worker_id.h"
#include "train/trainer.h"

namespace sz::run {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kProgressSeconds = 30;  // between progress lines of a long step

double minutes_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count() / 60.0;
}

// The eval suite as a file: a path as given, or a built-in suite written into the run directory.
std::string suite_path(const RunConfig& config) {
  const std::string& suite = config.loop.eval_suite;
  if (suite.empty() || fs::exists(suite)) return suite;
  for (const config::EmbeddedFile& f : config::embedded_files()) {
    if (f.path != suite) continue;
    const std::string path = rundir::RunPaths(config.run_dir()).in_eval(fs::path(suite).filename().string());
    if (!fs::exists(path)) {
      fs::create_directories(fs::path(path).parent_path());
      write_file_atomically(path, std::string(f.text));
    }
    return path;
  }
  throw Error("loop.eval_suite: no file or built-in suite '" + suite + "'");
}

// A network's player for a match of `concurrency` games at once (more than the cores: its games'
// leaves are batched through one evaluator, nn::evaluator_factory).
eval::MatchPlayer mcts_player(const RunConfig& config, const game::GameSpec& spec, const std::string& name,
                              const std::string& model, int concurrency,
                              std::shared_ptr<const game::EndgameTables> tables) {
  eval::MctsPlayerOptions options;
  options.search = config.search;
  options.simulations = eval_simulations(config);
  options.tables = std::move(tables);
  return {name, eval::mcts_player_factory(options, nn::evaluator_factory(model, spec, config.inference, concurrency))};
}

// Games at once in a match: loop.eval_concurrency between networks; against the anchor, whose
// every game starts an engine process of its own, no more than the cores.
int match_concurrency(const LoopConfig& lc, bool against_anchor) {
  if (!against_anchor) return lc.eval_concurrency;
  return std::min(lc.eval_concurrency, std::max(1, int(std::thread::hardware_concurrency())));
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

std::string model_name(int64_t step) { return step == kAnchorStep ? "" : rundir::checkpoint_file_name(step); }

// Adds the wall time of its scope to `total` (seconds).
class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total) {}
  ~Stopwatch() { total_ += std::chrono::duration<double>(Clock::now() - start_).count(); }
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

 private:
  double& total_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace

std::string describe_time_split(const LoopReport& report) {
  const LoopReport::TimeSplit& t = report.time;
  const double other = std::max(0.0, report.seconds - t.selfplay - t.training - t.rating - t.final_matches);
  const double total = std::max(report.seconds, 1e-9);
  std::string out;
  for (const auto& [name, seconds] :
       {std::pair{"self-play", t.selfplay}, std::pair{"training", t.training}, std::pair{"rating", t.rating},
        std::pair{"final matches", t.final_matches}, std::pair{"other", other}}) {
    char part[96];
    std::snprintf(part, sizeof part, "%s%s %.1f min (%.0f%%)", out.empty() ? "" : ", ", name, seconds / 60,
                  100 * seconds / total);
    out += part;
  }
  return out;
}

// One run of the loop: its state and its steps, each a method that fits on a screen.
class LoopRun {
 public:
  LoopRun(const RunConfig& config, const std::atomic<bool>* stop, LoopHooks hooks)
      : config_(config),
        loop_(config.loop),
        stop_(stop),
        hooks_(std::move(hooks)),
        run_(config.run_dir()),
        paths_(run_),
        start_position_(games::new_game(config.profile).take_or_throw("profile")),
        spec_(start_position_->spec()) {}

  LoopReport run();

 private:
  void say(const std::string& line) const {
    if (hooks_.on_line)
      hooks_.on_line(line);
    else
      std::fprintf(stderr, "%s\n", line.c_str());
  }
  bool stopping() const { return stop_ && stop_->load(); }
  bool more_generations(int generation, std::string& reason) const;
  void resolve_anchor();
  void load_tables();
  train::TrainerHooks trainer_hooks();
  std::unique_ptr<selfplay::SelfplayStats> play_generation(int generation);
  bool adopt(const std::string& candidate, int generation, std::string& verdict);
  std::vector<int64_t> rating_opponents(int64_t step) const;
  bool rated(int64_t step) const;
  bool rates(int generation) const { return (generation - 1) % loop_.rate_every == 0; }  // loop.rate_every
  void rate(int64_t step, int generation);
  eval::MatchResult play(const eval::MatchPlayer& a, const eval::MatchPlayer& b, int games, int concurrency,
                         const std::string& label, uint64_t seed, const std::string& pgn = "");
  eval::MatchPlayer network_player(int64_t step, int concurrency) const;
  void record(const eval::MatchResult& match, int64_t a_step, int64_t b_step, bool final = false);
  std::optional<eval::MatchResult> final_match(int64_t a_step, int64_t b_step, const std::string& label, uint64_t seed,
                                               const std::string& file);
  void final_matches(LoopReport& report);

  const RunConfig& config_;
  const LoopConfig& loop_;
  const std::atomic<bool>* stop_;
  LoopHooks hooks_;
  const std::string run_;
  const rundir::RunPaths paths_;
  const std::shared_ptr<const game::GameState> start_position_;  // of the profile's game
  std::shared_ptr<const game::EndgameTables> tables_;            // null: none (tables.men 0)
  const game::GameSpec spec_;
  Clock::time_point start_ = Clock::now();
  std::unique_ptr<train::Trainer> trainer_;
  std::unique_ptr<Ladder> ladder_;
  std::optional<eval::MatchPlayer> anchor_;
  std::string anchor_name_;
  std::vector<std::string> starts_;
};

bool LoopRun::more_generations(int generation, std::string& reason) const {
  if (stopping()) return reason = "stopped (interrupt)", false;
  if (loop_.generations > 0 && generation >= loop_.generations)
    return reason = "loop.generations (" + std::to_string(loop_.generations) + ") done", false;
  if (loop_.max_minutes > 0 && minutes_since(start_) >= loop_.max_minutes)
    return reason = "loop.max_minutes (" + shortest_text(loop_.max_minutes) + ") reached after " +
                    std::to_string(generation) + " of " + std::to_string(loop_.generations) + " generations",
           false;
  return true;
}

// The endgame tables of tables.men men for the profile, built into tables.dir where missing
// (games::build_endgame_tables keeps those there), then loaded.
void LoopRun::load_tables() {
  const TablesConfig& tc = config_.tables;
  if (tc.men == 0) return;
  const games::TablesBuilt built = games::build_endgame_tables(config_.profile, tc.men, tc.dir,
                                                               std::max(1, int(std::thread::hardware_concurrency())),
                                                               [this](const std::string& line) {
                                                                 if (line.find(", kept") == std::string::npos)
                                                                   say("  tables: " + line);
                                                               });
  tables_ = config_tables(config_);
  char line[256];
  std::snprintf(line, sizeof line, "loop: endgame tables of up to %d men in %s: %d built, %d kept, %.0f MB, %.1f s",
                tc.men, tc.dir.c_str(), built.built, built.kept, double(built.bytes) / 1e6, built.seconds);
  say(line);
}

// The anchor player, if the config names one and it can be started here.
void LoopRun::resolve_anchor() {
  if (loop_.anchor.empty() || (loop_.rate_games == 0 && loop_.final_eval_games == 0)) return;
  const eval::PlayerSpec spec = eval::parse_player_spec(loop_.anchor).take_or_throw("loop.anchor");
  try {
    anchor_ = eval::make_match_player(
        spec, config_.search, eval_simulations(config_),
        [&](const std::string& m) {
          return nn::evaluator_factory(m, spec_, config_.inference, match_concurrency(loop_, /*against_anchor=*/true));
        },
        tables_);
    anchor_name_ = spec.name;
  } catch (const Error& e) {
    say(std::string("loop: warning: no anchor, the networks are rated against each other only: ") + e.what());
  }
}

train::TrainerHooks LoopRun::trainer_hooks() {
  train::TrainerHooks hooks;
  hooks.on_checkpoint = hooks_.on_checkpoint;
  auto last = std::make_shared<Clock::time_point>(Clock::now());
  hooks.on_metrics = [this, last](const train::StepMetrics& m) {
    if (std::chrono::duration<double>(Clock::now() - *last).count() < kProgressSeconds) return;
    *last = Clock::now();
    say("  train: " + train::progress_line(m));
  };
  hooks.on_info = [this](const std::string& s) { say("  train: " + s); };
  hooks.on_warning = [this](const std::string& s) { say("  train: warning: " + s); };
  return hooks;
}

std::unique_ptr<selfplay::SelfplayStats> LoopRun::play_generation(int generation) {
  selfplay::SelfplayJob job;
  job.config = config_.selfplay;
  job.start = start_position_;
  job.out_dir = paths_.games();
  job.games = games_after(loop_, generation + 1);
  job.model_id = rundir::read_adopted(run_);
  job.generation = generation + 1;
  job.tables = tables_;
  job.heuristics = heuristics::of_game(spec_.game);
  job.make_evaluator = nn::evaluator_factory(job.model_id, spec_, config_.inference);
  if (job.model_id.empty() && loop_.bootstrap_player == "material") {
    job.model_id = "bootstrap:material";  // recorded with the games: who played them
    job.make_evaluator = [](int) { return std::make_unique<eval::MaterialEvaluator>(); };
    // Its value is a material count, not a win probability: resigning on it ended 95% of the
    // games it resigned as losses that were draws (the false-positive rate selfplay measured).
    job.config.resign.enabled = false;
  }
  job.stop = stop_;
  // The loop's shards are named after its host (or selfplay.shard_prefix), as a worker of that
  // id would name them: it holds that id's lock while it plays, so `selfplay --worker <host>`
  // beside it is refused rather than writing shards of the same names.
  const selfplay::WorkerClaim claim = selfplay::claim_worker_id(job.out_dir, selfplay::writer_base(job.config, ""));
  job.progress_seconds = kProgressSeconds;
  job.on_progress = [this](const selfplay::SelfplayStats& s) { say("  selfplay: " + s.progress_line()); };
  return selfplay::run_selfplay(job);
}

// Adopts `candidate` (after gating, when on); `verdict` says what happened, for the generation's line.
bool LoopRun::adopt(const std::string& candidate, int generation, std::string& verdict) {
  const std::string adopted = rundir::read_adopted(run_);
  verdict = "no new checkpoint";
  if (candidate.empty() || candidate == adopted) return false;
  verdict.clear();
  if (loop_.gating && !adopted.empty()) {
    const int concurrency = match_concurrency(loop_, /*against_anchor=*/false);
    const auto result = play(mcts_player(config_, spec_, "candidate", candidate, concurrency, tables_),
                             mcts_player(config_, spec_, "adopted", adopted, concurrency, tables_), loop_.gating_games,
                             concurrency, "gating", config_.seed + uint64_t(generation));
    const double score = result.pairings.front().score.score();
    verdict = "gating score " + shortest_text(score) + ", ";
    if (score < loop_.gating_score) return verdict += "kept " + fs::path(adopted).filename().string(), false;
  }
  rundir::write_adopted(run_, candidate);
  ladder_->add_network({rundir::checkpoint_step(fs::path(candidate).filename().string()), generation});
  verdict += "adopted " + fs::path(candidate).filename().string();
  return true;
}

eval::MatchPlayer LoopRun::network_player(int64_t step, int concurrency) const {
  return mcts_player(config_, spec_, model_name(step), paths_.checkpoint(step), concurrency, tables_);
}

// A match of games/2 starts x 2 colours, with a progress line every kProgressSeconds.
eval::MatchResult LoopRun::play(const eval::MatchPlayer& a, const eval::MatchPlayer& b, int games, int concurrency,
                                const std::string& label, uint64_t seed, const std::string& pgn) {
  eval::MatchSpec spec;
  spec.players = {a, b};
  spec.profile = config_.profile;
  const int pairs = std::max(1, games / 2);
  if (!starts_.empty()) spec.starts.assign(starts_.begin(), starts_.begin() + std::min<size_t>(pairs, starts_.size()));
  spec.rounds = starts_.empty() ? pairs : (pairs + int(spec.starts.size()) - 1) / int(spec.starts.size());
  spec.concurrency = concurrency;
  spec.seed = seed;
  spec.pgn_path = pgn;
  spec.tables = tables_;
  // Between networks the long drawn tails end as self-play's do (an anchor without a value, never).
  if (config_.selfplay.adjudicate.draws) spec.adjudicate_draws = config_.selfplay.adjudicate;
  spec.stop = stop_;
  auto last = Clock::now();
  const int total = eval::scheduled_games(spec);
  spec.on_game = [&](const eval::GameRecord&, const eval::MatchResult& so_far) {
    if (std::chrono::duration<double>(Clock::now() - last).count() < kProgressSeconds && so_far.games_played < total)
      return;
    last = Clock::now();
    const eval::MatchScore& score = so_far.pairings.front().score;
    char line[256];
    std::snprintf(line, sizeof line, "  %s: %d/%d games, W %d D %d L %d (%.1f min)", label.c_str(), so_far.games_played,
                  total, score.wins, score.draws, score.losses, minutes_since(start_));
    say(line);
  };
  return eval::play_match(spec);
}

void LoopRun::record(const eval::MatchResult& match, int64_t a_step, int64_t b_step, bool final) {
  if (match.stopped) return;  // an interrupted match is played again on resume
  auto generation = [&](int64_t step) {
    for (const LadderNetwork& n : ladder_->networks())
      if (n.step == step) return n.generation;
    return 0;
  };
  LadderMatch m{
      a_step, b_step, generation(a_step), generation(b_step), match.pairings.front().score, eval_simulations(config_)};
  m.final = final;
  ladder_->record(m);
}

// A final match of the network of `a_step` against `b_step` (the anchor: kAnchorStep), played
// once: a rerun (or a run stopped between the two matches) reads a finished one back from the
// ladder instead of playing and counting it again.
std::optional<eval::MatchResult> LoopRun::final_match(int64_t a_step, int64_t b_step, const std::string& label,
                                                      uint64_t seed, const std::string& file) {
  if (const std::optional<LadderMatch> done = ladder_->final_match(a_step, b_step)) {
    eval::MatchResult r;
    r.names = {model_name(a_step), b_step == kAnchorStep ? anchor_name_ : model_name(b_step)};
    r.pairings.push_back({0, 1, done->score, eval::elo_estimate(done->score)});
    r.games_scheduled = r.games_played = done->score.games();
    say("  " + label + ": played before (eval/" + file + ".json)");
    return r;
  }
  const bool anchor = b_step == kAnchorStep;
  const int concurrency = match_concurrency(loop_, anchor);
  const eval::MatchResult result =
      play(network_player(a_step, concurrency), anchor ? *anchor_ : network_player(b_step, concurrency),
           loop_.final_eval_games, concurrency, label, seed, paths_.in_eval(file + ".pgn"));
  if (result.stopped) return result;
  write_file_atomically(paths_.in_eval(file + ".json"), eval::match_json(result));
  record(result, a_step, b_step, /*final=*/true);
  return result;
}

// Whom the network of `step` is rated against: the rate_previous networks adopted before it and
// the anchor.
std::vector<int64_t> LoopRun::rating_opponents(int64_t step) const {
  std::vector<int64_t> opponents;
  if (loop_.rate_games == 0) return opponents;
  const auto& networks = ladder_->networks();
  auto it = std::find_if(networks.rbegin(), networks.rend(), [&](const LadderNetwork& n) { return n.step == step; });
  if (it != networks.rend()) ++it;
  for (; it != networks.rend() && int(opponents.size()) < loop_.rate_previous; ++it) opponents.push_back(it->step);
  if (anchor_) opponents.push_back(kAnchorStep);
  return opponents;
}

bool LoopRun::rated(int64_t step) const {
  const std::vector<int64_t> opponents = rating_opponents(step);
  return std::all_of(opponents.begin(), opponents.end(), [&](int64_t other) { return ladder_->played(step, other); });
}

void LoopRun::rate(int64_t step, int generation) {
  if (loop_.rate_games == 0) return;
  for (const int64_t other : rating_opponents(step)) {
    if (stopping() || ladder_->played(step, other)) continue;
    const std::string label =
        "rating " + model_name(step) + " vs " + (other == kAnchorStep ? anchor_name_ : model_name(other));
    const int concurrency = match_concurrency(loop_, other == kAnchorStep);
    const eval::MatchPlayer opponent = other == kAnchorStep ? *anchor_ : network_player(other, concurrency);
    const auto match = play(network_player(step, concurrency), opponent, loop_.rate_games, concurrency, label,
                            config_.seed ^ (uint64_t(generation) << 20) ^ uint64_t(other + 2));
    record(match, step, other);
  }
  if (stopping()) return;
  const LadderFit fit = ladder_->fit();
  ladder_->write(fit);
  for (const LadderRating& r : fit.networks)
    if (r.step == step) say("  rated " + describe_rating(r, fit.anchored ? anchor_name_ : "the first network"));
}

void LoopRun::final_matches(LoopReport& report) {
  const auto& networks = ladder_->networks();
  if (loop_.final_eval_games == 0 || networks.empty() || stopping()) return;
  const int64_t final_step = networks.back().step, first_step = networks.front().step;
  say("loop: final matches of " + model_name(final_step) + ", " + std::to_string(loop_.final_eval_games) +
      " games each at " + std::to_string(eval_simulations(config_)) + " simulations");
  if (final_step != first_step)
    report.final_vs_first =
        final_match(final_step, first_step, "final vs first", config_.seed ^ 0xF1257ull, "final-vs-first");
  if (anchor_ && !stopping())
    report.final_vs_anchor =
        final_match(final_step, kAnchorStep, "final vs " + anchor_name_, config_.seed ^ 0xA2C40ull, "final-vs-anchor");
  if (stopping()) report.stop_reason += "; final matches stopped (interrupt)";
}

LoopReport LoopRun::run() {
  paths_.create_directories();
  // The trainer's lock first: a loop refused because another works here changes nothing, not
  // even config.yaml (which the running one and later `train --run` read).
  trainer_ = std::make_unique<train::Trainer>(trainer_setup(config_, run_), trainer_hooks());
  // What a loop killed between a file's write and its rename left (the trainer clears models/).
  for (const std::string& dir : {run_, paths_.eval(), paths_.plots(), paths_.plots() + "/.gnuplot"})
    remove_stale_temporaries(dir);
  write_file_atomically(paths_.config(), to_yaml(config_));
  load_tables();
  resolve_anchor();
  const std::string suite = suite_path(config_);
  if (!suite.empty()) {
    const int wanted = std::max({loop_.rate_games, loop_.final_eval_games, loop_.gating_games, 2}) / 2;
    starts_ = eval::read_start_suite(suite, config_.profile, wanted).take_or_throw("loop.eval_suite");
  }
  ladder_ = std::make_unique<Ladder>(run_, anchor_name_, rating_conditions(config_));
  if (ladder_->set_aside() > 0)
    say("loop: " + std::to_string(ladder_->set_aside()) +
        " rating matches on file were played under another search, visit count, anchor or suite: the ratings"
        " leave them out");
  LoopReport report;
  report.anchor = anchor_name_;
  // Which generations are done comes from models/generation.txt, written as each generation's
  // training starts and ends, never from the games on disk: a loop stopped after a generation's
  // games, or self-play workers that added games meanwhile, must not make it skip a training.
  // Runs from before generation.txt count the games, as they always did.
  rundir::GenerationTraining training = rundir::read_generation_training(run_);
  const bool recorded = training.generation >= 0;
  int generation = recorded               ? training.generation + (training.done ? 1 : 0)
                   : trainer_->step() > 0 ? generations_done(loop_, selfplay::count_games(paths_.games()))
                                          : 0;  // no network yet: the first generation's training is to come
  bool unfinished = recorded && !training.done;
  if (const std::string adopted = rundir::read_adopted(run_); !adopted.empty())  // a run from before the ladder
    ladder_->add_network({rundir::checkpoint_step(fs::path(adopted).filename().string()), std::max(generation, 1)});
  for (const LadderNetwork& n : ladder_->networks()) {
    if (stopping() || rated(n.step) || !rates(n.generation)) continue;
    say("loop: rating " + model_name(n.step) + " first (its ratings are missing)");
    Stopwatch watch(report.time.rating);
    rate(n.step, n.generation);
  }
  while (more_generations(generation, report.stop_reason)) {
    auto played = std::make_unique<selfplay::SelfplayStats>();
    if (unfinished) {
      unfinished = false;
      say("generation " + std::to_string(generation + 1) + ": finishing its training (stopped at step " +
          std::to_string(trainer_->step()) + ", to train until step " +
          std::to_string(training.from_step + training.steps) + ")");
    } else {
      {
        Stopwatch watch(report.time.selfplay);
        played = play_generation(generation);
      }
      if (stopping()) continue;
      const bool first_network = rundir::read_adopted(run_).empty();
      training = {generation, trainer_->step(),
                  first_network && loop_.bootstrap_train_steps > 0 ? loop_.bootstrap_train_steps
                                                                   : loop_.train_steps_per_generation,
                  /*done=*/false};
      rundir::write_generation_training(run_, training);
    }
    const int64_t left = std::max<int64_t>(0, training.from_step + training.steps - trainer_->step());
    int steps = 0;
    {
      Stopwatch watch(report.time.training);
      steps = trainer_->train_available(int(left), stop_);
    }
    if (stopping()) continue;  // not counted: run again, the loop finishes this training first
    std::string verdict;
    bool adopted = false;
    {
      Stopwatch watch(report.time.rating);  // a gating match, when gating is on
      adopted = adopt(trainer_->current_checkpoint(), generation + 1, verdict);
    }
    training.done = true;
    rundir::write_generation_training(run_, training);
    ++generation;
    ++report.generations;
    char line[512];
    std::snprintf(line, sizeof line,
                  "generation %d | games %lld (+%lld, %.1f pos/s) | train step %lld (+%d) | %s | %.1f min", generation,
                  static_cast<long long>(selfplay::count_games(paths_.games())),
                  static_cast<long long>(played->games()), played->positions() / std::max(played->seconds(), 1e-9),
                  static_cast<long long>(trainer_->step()), steps, verdict.c_str(), minutes_since(start_));
    say(line);
    say("  selfplay: " + played->progress_line());
    if (const std::string searches = played->search_line(); !searches.empty()) say("  selfplay: " + searches);
    if (adopted && rates(generation)) {
      Stopwatch watch(report.time.rating);
      rate(ladder_->networks().back().step, generation);
    }
  }
  report.generations_total = generation;
  say("loop: " + report.stop_reason);
  {
    Stopwatch watch(report.time.final_matches);
    final_matches(report);
  }
  report.ladder = ladder_->fit();
  if (!report.ladder.networks.empty()) ladder_->write(report.ladder);
  const auto& networks = ladder_->networks();
  if (!networks.empty()) {
    report.first_model = paths_.checkpoint(networks.front().step);
    report.final_model = paths_.checkpoint(networks.back().step);
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  return report;
}

LoopReport run_loop(const RunConfig& config, const std::atomic<bool>* stop, LoopHooks hooks) {
  return LoopRun(config, stop, std::move(hooks)).run();
}

}  // namespace sz::run
