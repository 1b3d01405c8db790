#include "placement/placements.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "placement/network_values.h"
#include "placement/report.h"
#include "placement/statistics.h"
#include "plot/gnuplot.h"

namespace sz::placement {

namespace fs = std::filesystem;

namespace {

constexpr int kWarningsPerFolder = 5;

// Names the sources in output folders: a run's games/ by the run, else the folder's own name.
std::vector<std::string> source_labels(const std::vector<std::string>& folders) {
  std::vector<std::string> labels;
  std::set<std::string> taken;
  for (const std::string& folder : folders) {
    fs::path p = fs::path(folder).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    std::string label =
        p.filename() == "games" && p.has_parent_path() ? p.parent_path().filename().string() : p.filename().string();
    if (label.empty() || label == "." || label == "..") label = "games";
    std::string unique = label;
    for (int n = 2; taken.count(unique); ++n) unique = label + "-" + std::to_string(n);
    taken.insert(unique);
    labels.push_back(unique);
  }
  return labels;
}

class Progress {
 public:
  explicit Progress(const std::function<void(const std::string&)>& out) : out_(out) {}
  void report(const std::string& line, bool force = false) {
    const auto now = std::chrono::steady_clock::now();
    if (!out_ || (!force && now - last_ < std::chrono::seconds(1))) return;
    last_ = now;
    out_(line);
  }

 private:
  const std::function<void(const std::string&)>& out_;
  std::chrono::steady_clock::time_point last_{};
};

using Groups = std::map<std::string, ProfileStats>;  // by profile

void read_folder(const std::string& folder, Groups& groups, PlacementSummary& summary, Progress& progress) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw Error(folder + ": no such folder of shards");
  const std::vector<std::string> shards = data::list_shards(folder);
  if (shards.empty()) throw Error(folder + ": no shards (*.h5) in it");
  int warned = 0;
  int64_t games = 0;
  for (size_t i = 0; i < shards.size(); ++i) {
    const data::ShardReader reader = data::ShardReader::open(shards[i]);
    if (reader.info().spec.game != "sittuyin") {
      throw Error(shards[i] + ": a shard of " + reader.info().spec.game +
                  " games; placements reads Sittuyin's (only it has a placement phase)");
    }
    const std::vector<data::GameInfo> infos = reader.read_games();
    for (size_t g = 0; g < infos.size(); ++g) {
      const Result<PlacedGame> placed =
          games::replay_placement(infos[g].profile, infos[g].start_fen, infos[g].moves, infos[g].result);
      if (!placed) {
        ++summary.skipped;
        if (warned++ < kWarningsPerFolder) {
          summary.warnings.push_back(shards[i] + ": game " + std::to_string(g) + " skipped: " + placed.error());
        }
        continue;
      }
      ProfileStats& stats = groups[placed->profile];
      stats.profile = placed->profile;
      stats.add(*placed);
      ++games;
    }
    progress.report(folder + ": " + std::to_string(i + 1) + "/" + std::to_string(shards.size()) + " shards, " +
                        std::to_string(games) + " games",
                    i + 1 == shards.size());
  }
  if (warned > kWarningsPerFolder) {
    summary.warnings.push_back(folder + ": " + std::to_string(warned - kWarningsPerFolder) + " more games skipped");
  }
  summary.games += games;
}

double feature_mean(const ProfileStats& stats, int feature) {
  double sum = 0;
  for (const SideRow& row : stats.sides) sum += row.features[size_t(feature)];
  return stats.sides.empty() ? 0 : sum / double(stats.sides.size());
}

std::string summary_line(const std::string& source, const ProfileStats& s) {
  std::string line = source + "," + s.profile + "," + std::to_string(s.games) + "," + std::to_string(s.white.wins) +
                     "," + std::to_string(s.white.draws) + "," + std::to_string(s.white.losses) + "," +
                     plot::number(s.white.score());
  for (int c = 0; c < 2; ++c) {
    const auto top = top_formations(s, c, 1);
    line += "," + std::to_string(s.formations[size_t(c)].size()) + "," +
            (top.empty() ? std::string(",") : std::to_string(top[0].second.games()) + "," + top[0].first);
  }
  for (int f = 0; f < kFeatures; ++f)
    if (feature_info()[size_t(f)].in_fit) line += "," + plot::number(feature_mean(s, f));
  return line + "\n";
}

std::string summary_header() {
  std::string header =
      "source,profile,games,white_wins,draws,black_wins,white_score,white_formations,top_white_count,top_white,"
      "black_formations,top_black_count,top_black";
  for (int f = 0; f < kFeatures; ++f)
    if (feature_info()[size_t(f)].in_fit) header += std::string(",mean_") + feature_info()[size_t(f)].name;
  return header + "\n";
}

}  // namespace

PlacementSummary run_placements(const PlacementOptions& options) {
  if (options.games.empty()) throw Error("no folder of games given");
  if (options.out.empty()) throw Error("no output folder given");
  PlacementSummary summary;
  Progress progress(options.progress);
  const std::vector<std::string> labels = source_labels(options.games);
  std::string table = summary_header();
  const std::unique_ptr<search::Evaluator> net = options.model ? options.model(0) : nullptr;
  for (size_t i = 0; i < options.games.size(); ++i) {
    Groups groups;
    read_folder(options.games[i], groups, summary, progress);
    for (const auto& [profile, stats] : groups) {
      fs::path dir = fs::path(options.out);
      if (options.games.size() > 1) dir /= labels[i];
      dir /= profile;
      FormationValues values;
      if (options.model) values = formation_values(stats, *net, options.top, options.progress);
      const ReportOptions report{options.top, options.gnuplot};
      for (std::string& path : write_report(stats, dir.string(), report, values))
        summary.written.push_back(std::move(path));
      table += summary_line(labels[i], stats);
      if (options.progress) options.progress("wrote " + dir.string());
    }
  }
  fs::create_directories(options.out);
  const std::string path = (fs::path(options.out) / "summary.csv").string();
  write_file_atomically(path, table);
  summary.written.push_back(path);
  return summary;
}

}  // namespace sz::placement
