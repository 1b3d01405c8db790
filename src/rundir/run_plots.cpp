#include "rundir/run_plots.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "core/error.h"
#include "core/json.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "plot/gnuplot.h"
#include "rundir/run_paths.h"

namespace sz::rundir {

namespace fs = std::filesystem;

namespace {

using Record = std::map<std::string, double>;

// --- reading -------------------------------------------------------------------------------

std::vector<Record> read_jsonl(const std::string& path, PlotReport& report) {
  std::vector<Record> records;
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    auto record = json_numbers(line);
    if (record && record->count("step")) {
      records.push_back(std::move(*record));
    } else if (in.peek() != EOF) {  // the last line may be one being written: no warning
      report.warnings.push_back(path + ":" + std::to_string(number) + ": not a metric line, skipped");
    }
  }
  // A resumed trainer repeats the steps after its last checkpoint: keep each step's last line.
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.at("step") < b.at("step"); });
  std::vector<Record> unique;
  for (auto& r : records) {
    if (!unique.empty() && unique.back().at("step") == r.at("step"))
      unique.back() = std::move(r);
    else
      unique.push_back(std::move(r));
  }
  return unique;
}

struct GameRow {
  int64_t plies = 0;
  int result = 0;  // first player's view
  std::string reason;
};

std::vector<GameRow> read_games(const std::string& games_dir, PlotReport& report) {
  std::vector<std::pair<fs::file_time_type, std::string>> shards;
  for (const std::string& path : data::list_shards(games_dir)) {
    std::error_code ec;
    shards.emplace_back(fs::last_write_time(path, ec), path);
  }
  std::sort(shards.begin(), shards.end());
  std::vector<GameRow> games;
  for (const auto& [time, path] : shards) {
    const auto skip = [&](const std::string& warning) { report.warnings.push_back(warning); };
    const std::optional<data::ShardReader> reader = data::open_or_skip(path, skip);
    if (!reader) continue;
    try {
      for (const data::GameInfo& g : reader->read_games())
        games.push_back({g.num_positions, g.result, g.end_reason.empty() ? "unknown" : g.end_reason});
    } catch (const Error& e) {
      skip(data::skip_shard(path, e.what()));
    }
  }
  return games;
}

// --- writing -------------------------------------------------------------------------------

using plot::Chart;

class Plotter {
 public:
  Plotter(const std::string& run_dir, const PlotOptions& options, PlotReport& report)
      : plotter_(RunPaths(run_dir).plots(), options.gnuplot), report_(report) {}

  void draw(const Chart& chart, const std::vector<std::string>& columns, const std::vector<std::vector<double>>& rows) {
    report_.written.push_back(plotter_.draw(chart, columns, rows));
  }
  void skip(const std::string& what) { report_.skipped.push_back(what); }

 private:
  plot::Plotter plotter_;
  PlotReport& report_;
};

// --- the charts ----------------------------------------------------------------------------

void plot_training(Plotter& p, const std::vector<Record>& metrics) {
  if (metrics.empty()) {
    p.skip("loss.png, learning_rate.png: no lines in logs/train.jsonl");
    return;
  }
  const auto value = [](const Record& r, const char* key) {
    const auto it = r.find(key);
    return it == r.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
  };
  bool moves_left = false;
  for (const Record& r : metrics) moves_left = moves_left || value(r, "moves_left") > 0;
  std::vector<std::string> columns = {"step", "total", "policy", "wdl"};
  if (moves_left) columns.push_back("moves_left");
  std::vector<std::vector<double>> losses, rates;
  for (const Record& r : metrics) {
    losses.push_back({value(r, "step"), value(r, "loss"), value(r, "policy"), value(r, "wdl")});
    if (moves_left) losses.back().push_back(value(r, "moves_left"));
    rates.push_back({value(r, "step"), value(r, "lr")});
  }
  p.draw({"loss", "Training loss per head", "training step", "loss", "lines lw 2", "", int(columns.size()) - 1, ""},
         columns, losses);
  p.draw({"learning_rate", "Learning rate", "training step", "learning rate", "lines lw 2", "", 1, ""},
         {"step", "learning_rate"}, rates);
}

void plot_games(Plotter& p, const std::vector<GameRow>& games, int64_t per_point) {
  if (games.empty()) {
    p.skip("game_length.png, results.png, end_reasons.png: no games in games/*.h5");
    return;
  }
  std::set<std::string> reason_set;
  for (const GameRow& g : games) reason_set.insert(g.reason);
  const std::vector<std::string> reasons(reason_set.begin(), reason_set.end());
  std::vector<std::vector<double>> lengths, results, ends;
  for (size_t begin = 0; begin < games.size(); begin += size_t(per_point)) {
    const size_t end = std::min(games.size(), begin + size_t(per_point));
    const double n = double(end - begin), x = double(end);
    double plies = 0, wins = 0, draws = 0, losses = 0;
    std::vector<double> count(reasons.size(), 0.0);
    for (size_t i = begin; i < end; ++i) {
      plies += double(games[i].plies);
      (games[i].result > 0 ? wins : games[i].result < 0 ? losses : draws) += 1;
      count[size_t(std::lower_bound(reasons.begin(), reasons.end(), games[i].reason) - reasons.begin())] += 1;
    }
    lengths.push_back({x, plies / n});
    results.push_back({x, wins / n, draws / n, losses / n});
    ends.push_back({x});
    for (double c : count) ends.back().push_back(c / n);
  }
  const std::string xlabel = "games played (points per " + std::to_string(per_point) + " games)";
  p.draw({"game_length", "Mean game length", xlabel, "plies", "linespoints lw 2", "", 1, ""}, {"games", "plies"},
         lengths);
  p.draw({"results", "Results", xlabel, "share of games", "linespoints lw 2", "set yrange [0:1.02]\n", 3, ""},
         {"games", "first_player_wins", "draws", "second_player_wins"}, results);
  std::vector<std::string> columns = {"games"};
  for (std::string r : reasons) {
    std::replace(r.begin(), r.end(), ' ', '_');
    columns.push_back(r);
  }
  p.draw({"end_reasons", "End reasons", xlabel, "share of games", "linespoints lw 2", "set yrange [0:1.02]\n",
          int(reasons.size()), ""},
         columns, ends);
}

// The hook for ratings: the loop's evaluation writes eval/elo.jsonl (step, elo, lower, upper).
void plot_elo(Plotter& p, const std::vector<Record>& elo) {
  std::vector<std::vector<double>> rows;
  for (const Record& r : elo) {
    if (!r.count("elo")) continue;
    const double e = r.at("elo");
    rows.push_back({r.at("step"), e, r.count("lower") ? r.at("lower") : e, r.count("upper") ? r.at("upper") : e});
  }
  if (rows.empty()) {
    p.skip("elo.png: no ratings in eval/elo.jsonl");
    return;
  }
  p.draw({"elo", "Elo (95% interval)", "training step", "Elo", "", "", 0,
          "plot DATA using 1:2:3:4 with yerrorlines lw 2 title 'Elo'"},
         {"step", "elo", "lower", "upper"}, rows);
}

// The held-out check (logs/heldout.jsonl, train/heldout.h): its losses over steps, and the
// value's calibration by material edge as the newest line has it.
void plot_heldout(Plotter& p, const std::vector<Record>& lines) {
  if (lines.empty()) {
    p.skip("heldout.png, value_by_material.png: no lines in logs/heldout.jsonl");
    return;
  }
  const auto value = [](const Record& r, const std::string& key) {
    const auto it = r.find(key);
    return it == r.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
  };
  std::vector<std::vector<double>> losses;
  for (const Record& r : lines) losses.push_back({value(r, "step"), value(r, "policy"), value(r, "wdl")});
  p.draw({"heldout", "Loss on positions the network never trained on (newer games)", "training step", "loss",
          "linespoints lw 2", "", 2, ""},
         {"step", "policy", "wdl"}, losses);
  std::vector<std::vector<double>> bins;
  const Record& last = lines.back();
  for (int edge = -6; edge <= 6; ++edge) {
    const std::string k = edge < 0 ? "m" + std::to_string(-edge) : edge > 0 ? "p" + std::to_string(edge) : "0";
    if (last.count("n_" + k)) bins.push_back({double(edge), value(last, "predicted_" + k), value(last, "actual_" + k)});
  }
  if (bins.empty()) return p.skip("value_by_material.png: the held-out positions record no material");
  p.draw(
      {"value_by_material",
       "W - L by the mover's material edge, held-out positions at step " + std::to_string(int64_t(value(last, "step"))),
       "material edge (pawns)", "W - L", "linespoints lw 2", "set yrange [-1:1]\n", 2, ""},
      {"edge", "predicted", "actual"}, bins);
}

}  // namespace

PlotReport plot_run(const std::string& run_dir, const PlotOptions& options) {
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) throw Error(run_dir + ": no such run directory");
  // A typo naming another directory would otherwise "plot" it: every plot skipped, exit 0.
  const RunPaths paths(run_dir);
  if (!paths.looks_like_run())
    throw Error(run_dir + ": not a run directory (it has no logs/, games/, models/ or eval/)");
  if (options.games_per_point < 1) throw Error("games per point must be at least 1");
  PlotReport report;
  Plotter plotter(run_dir, options, report);
  plot_training(plotter, read_jsonl(paths.train_log(), report));
  plot_heldout(plotter, read_jsonl(paths.heldout_log(), report));
  plot_games(plotter, read_games(paths.games(), report), options.games_per_point);
  const std::string elo = paths.elo_log();
  if (fs::exists(elo, ec))
    plot_elo(plotter, read_jsonl(elo, report));
  else
    report.skipped.push_back("elo.png: no eval/elo.jsonl yet");
  return report;
}

}  // namespace sz::rundir
