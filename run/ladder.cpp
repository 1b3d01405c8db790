#include "run/ladder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_writer.h"
#include "core/read_file.h"
#include "rundir/checkpoint_files.h"
#include "rundir/run_paths.h"

namespace sz::run {

namespace fs = std::filesystem;

namespace {

std::string match_line(const LadderMatch& m) {
  JsonWriter w;
  w.object(JsonWriter::Layout::Inline)
      .add("a_step", m.a_step)
      .add("a_generation", m.a_generation)
      .add("b_step", m.b_step)
      .add("b_generation", m.b_generation)
      .add("wins", m.score.wins)
      .add("draws", m.score.draws)
      .add("losses", m.score.losses)
      .add("simulations", m.simulations)
      .add("conditions", m.conditions);
  if (m.final) w.add("final", 1);
  return w.close().str();
}

constexpr double kMaxGames = 1e6;  // more games than any match of a loop plays
constexpr double kMaxStep = 1e12;  // more training steps than any run takes
constexpr double kMaxGeneration = 1e6;
constexpr double kMaxConditions = 9007199254740992.0;  // 2^53: rating_conditions is 53 bits

// Whether `v` is a whole number in [lo, hi]; else `why` says what is wrong with `key`.
bool whole_in(double v, double lo, double hi, const char* key, std::string& why) {
  if (std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi) return true;
  char text[160];
  std::snprintf(text, sizeof text, "%s %.17g is not a whole number in %.17g..%.17g", key, v, lo, hi);
  why = text;
  return false;
}

// A match line, or nullopt for a line that is not JSON (an unfinished line of a killed writer).
// Throws sz::Error, prefixed by `where`, for a line whose keys are missing or values out of range.
std::optional<LadderMatch> parse_match(const std::string& line, const std::string& where) {
  const auto f = json_numbers(line);
  if (!f) return std::nullopt;
  std::string why;
  for (const char* key : {"a_step", "a_generation", "b_step", "b_generation", "wins", "draws", "losses"})
    if (!f->count(key)) throw Error(where + ": no '" + key + "'");
  const bool ok = whole_in(f->at("a_step"), double(kAnchorStep), kMaxStep, "a_step", why) &&
                  whole_in(f->at("b_step"), double(kAnchorStep), kMaxStep, "b_step", why) &&
                  whole_in(f->at("a_generation"), 0, kMaxGeneration, "a_generation", why) &&
                  whole_in(f->at("b_generation"), 0, kMaxGeneration, "b_generation", why) &&
                  whole_in(f->at("wins"), 0, kMaxGames, "wins", why) &&
                  whole_in(f->at("draws"), 0, kMaxGames, "draws", why) &&
                  whole_in(f->at("losses"), 0, kMaxGames, "losses", why) &&
                  (!f->count("simulations") || whole_in(f->at("simulations"), 0, 1e9, "simulations", why)) &&
                  (!f->count("conditions") || whole_in(f->at("conditions"), 0, kMaxConditions, "conditions", why));
  if (!ok) throw Error(where + ": " + why);
  if (f->at("a_step") == f->at("b_step")) throw Error(where + ": a match of a network against itself");
  LadderMatch m;
  m.a_step = int64_t(f->at("a_step"));
  m.b_step = int64_t(f->at("b_step"));
  m.a_generation = int(f->at("a_generation"));
  m.b_generation = int(f->at("b_generation"));
  m.score = {int(f->at("wins")), int(f->at("draws")), int(f->at("losses"))};
  m.simulations = f->count("simulations") ? int(f->at("simulations")) : 0;
  m.conditions = f->count("conditions") ? uint64_t(f->at("conditions")) : 0;
  m.final = f->count("final") && f->at("final") == 1;
  return m;
}

void add_rating(JsonWriter& w, const LadderRating& r) {
  w.object(JsonWriter::Layout::Inline)
      .add("step", r.step)
      .add("generation", r.generation)
      .add("elo", r.rating.elo, "%.1f")
      .add("lower", r.rating.lower, "%.1f")
      .add("upper", r.rating.upper, "%.1f")
      .close();
}

// The text of the file at `path`, "" when there is none.
std::string text_if_there(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec) ? sz::read_file(path) : std::string();
}

}  // namespace

Ladder::Ladder(std::string run_dir, std::string anchor, uint64_t conditions)
    : Ladder(run_dir, std::move(anchor), conditions, text_if_there(rundir::RunPaths(run_dir).ladder_networks()),
             text_if_there(rundir::RunPaths(run_dir).ladder_matches())) {}

Ladder::Ladder(std::string run_dir, std::string anchor, uint64_t conditions, std::string_view networks_text,
               std::string_view matches_text)
    : paths_(run_dir), anchor_(std::move(anchor)), conditions_(conditions) {
  const std::string networks_path = paths_.ladder_networks();
  std::istringstream networks{std::string(networks_text)};
  int number = 0;
  for (std::string line; std::getline(networks, line);) {
    const std::string where = networks_path + ":" + std::to_string(++number);
    const auto f = json_numbers(line);
    if (!f) continue;  // a killed writer's unfinished line
    std::string why;
    if (!f->count("step") || !f->count("generation")) throw Error(where + ": no 'step' or 'generation'");
    if (!whole_in(f->at("step"), 0, kMaxStep, "step", why) ||
        !whole_in(f->at("generation"), 0, kMaxGeneration, "generation", why))
      throw Error(where + ": " + why);
    networks_.push_back({int64_t(f->at("step")), int(f->at("generation"))});
  }
  const std::string matches_path = paths_.ladder_matches();
  std::istringstream matches{std::string(matches_text)};
  number = 0;
  for (std::string line; std::getline(matches, line);) {
    const std::string where = matches_path + ":" + std::to_string(++number);
    const auto m = parse_match(line, where);
    if (!m) continue;
    for (const int64_t step : {m->a_step, m->b_step})
      if (step != kAnchorStep && !known_network(step))
        throw Error(where + ": network of step " + std::to_string(step) + " is not in networks.jsonl");
    if (m->conditions == 0 || m->conditions == conditions_)
      matches_.push_back(*m);
    else
      ++set_aside_;
  }
}

void Ladder::append(const std::string& path, const std::string& line) const {
  fs::create_directories(paths_.eval());
  append_line(path, line);
}

void Ladder::add_network(const LadderNetwork& n) {
  for (const LadderNetwork& known : networks_)
    if (known.step == n.step) return;
  JsonWriter line;
  line.object(JsonWriter::Layout::Inline).add("step", n.step).add("generation", n.generation).close();
  append(paths_.ladder_networks(), line.str());
  networks_.push_back(n);
}

bool Ladder::known_network(int64_t step) const {
  return std::any_of(networks_.begin(), networks_.end(), [&](const LadderNetwork& n) { return n.step == step; });
}

std::optional<LadderMatch> Ladder::final_match(int64_t a_step, int64_t b_step) const {
  for (const LadderMatch& m : matches_)
    if (m.final && m.a_step == a_step && m.b_step == b_step) return m;
  return std::nullopt;
}

bool Ladder::played(int64_t a_step, int64_t b_step) const {
  return std::any_of(matches_.begin(), matches_.end(), [&](const LadderMatch& m) {
    return (m.a_step == a_step && m.b_step == b_step) || (m.a_step == b_step && m.b_step == a_step);
  });
}

void Ladder::record(const LadderMatch& match) {
  LadderMatch stamped = match;
  stamped.conditions = conditions_;
  append(paths_.ladder_matches(), match_line(stamped));
  matches_.push_back(stamped);
}

LadderFit Ladder::fit() const {
  // Players: the anchor (if it played) first, then the networks by generation.
  std::map<int64_t, int> generation_of;
  bool anchored = false;
  for (const LadderMatch& m : matches_) {
    for (const auto& [step, generation] : {std::pair{m.a_step, m.a_generation}, std::pair{m.b_step, m.b_generation}}) {
      if (step == kAnchorStep)
        anchored = true;
      else
        generation_of[step] = generation;
    }
  }
  LadderFit fit;
  fit.anchored = anchored;
  std::vector<int64_t> steps;
  for (const auto& [step, generation] : generation_of) steps.push_back(step);
  std::sort(steps.begin(), steps.end(), [&](int64_t a, int64_t b) { return generation_of[a] < generation_of[b]; });
  if (steps.empty()) return fit;
  std::map<int64_t, int> index;
  std::vector<double> x;
  if (anchored) index[kAnchorStep] = 0, x.push_back(0);
  for (int64_t s : steps) index[s] = int(x.size()), x.push_back(generation_of[s]);
  std::vector<eval::PairResult> results;
  for (const LadderMatch& m : matches_) {
    results.push_back({index[m.a_step], index[m.b_step], m.score});
    fit.games += m.score.games();
  }
  const int anchor = anchored ? 0 : index[steps.front()];
  const std::vector<eval::Rating> ratings = eval::fit_ratings(int(x.size()), results, anchor);
  for (int64_t s : steps) fit.networks.push_back({s, generation_of[s], ratings[size_t(index[s])]});
  fit.trend = eval::fit_trend(x, results, anchored ? 0 : -1);
  return fit;
}

void Ladder::write(const LadderFit& fit) const {
  fs::create_directories(paths_.eval());
  std::string elo;
  JsonWriter doc;
  doc.object()
      .add("format", "sittuyin-zero ladder")
      .add("version", 1)
      .add("ratings_over", fit.anchored ? anchor_ : "the first network")
      .add("games", fit.games)
      .array("networks");
  for (const LadderRating& r : fit.networks) {
    add_rating(doc, r);
    JsonWriter line;
    add_rating(line, r);
    elo += line.str() + "\n";
  }
  doc.close()
      .object("trend_per_generation", JsonWriter::Layout::Inline)
      .add("slope", fit.trend.slope, "%.1f")
      .add("lower", fit.trend.lower, "%.1f")
      .add("upper", fit.trend.upper, "%.1f")
      .add("intercept", fit.trend.intercept, "%.1f")
      .close();
  write_file_atomically(paths_.ladder(), doc.close().str() + "\n");
  write_file_atomically(paths_.elo_log(), elo);
}

std::string describe_rating(const LadderRating& r, const std::string& anchor) {
  char line[256];
  std::snprintf(line, sizeof line, "%s (generation %d): %+.0f Elo [%+.0f, %+.0f] over %s",
                rundir::checkpoint_file_name(r.step).c_str(), r.generation, r.rating.elo, r.rating.lower,
                r.rating.upper, anchor.c_str());
  return line;
}

}  // namespace sz::run
