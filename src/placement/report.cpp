#include "placement/report.h"

#include <cmath>
#include <filesystem>
#include <memory>

#include "core/atomic_file.h"
#include "core/error.h"
#include "placement/logistic.h"
#include "plot/gnuplot.h"

namespace sz::placement {

namespace fs = std::filesystem;

namespace {

constexpr const char* kColours[2] = {"white", "black"};

std::string num(double v) { return plot::number(v); }

// A CSV file: a header line, then rows of already formatted fields.
class Csv {
 public:
  explicit Csv(const std::vector<std::string>& columns) { row(columns); }
  void row(const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) text_ += (i ? "," : "") + fields[i];
    text_ += "\n";
  }
  void write(const std::string& path, std::vector<std::string>& written) const {
    write_file_atomically(path, text_);
    written.push_back(path);
  }

 private:
  std::string text_;
};

std::vector<std::string> score_fields(const eval::MatchScore& s) {
  const eval::Interval i = score_interval(s);
  return {std::to_string(s.games()),
          std::to_string(s.wins),
          std::to_string(s.draws),
          std::to_string(s.losses),
          num(s.score()),
          num(i.lower),
          num(i.upper)};
}
const std::vector<std::string> kScoreColumns = {"games", "wins", "draws", "losses", "score", "lower95", "upper95"};

std::string board_tics() {
  std::string s = "set xtics (";
  for (int f = 0; f < 8; ++f) s += std::string(f ? ", " : "") + "'" + char('a' + f) + "' " + std::to_string(f);
  s += ")\nset ytics (";
  for (int r = 0; r < 8; ++r) s += std::string(r ? ", " : "") + "'" + char('1' + r) + "' " + std::to_string(r);
  return s + ")\n";
}

class Writer {
 public:
  Writer(const ProfileStats& stats, const std::string& dir, const ReportOptions& options) : stats_(stats), dir_(dir) {
    fs::create_directories(dir);
    if (!options.gnuplot.empty()) plotter_ = std::make_unique<plot::Plotter>(dir, options.gnuplot);
  }
  std::string path(const std::string& name) const { return (fs::path(dir_) / name).string(); }
  void draw(const plot::Chart& chart, const std::vector<std::string>& columns,
            const std::vector<std::vector<double>>& rows, plot::Size size = {}) {
    if (plotter_) written.push_back(plotter_->draw(chart, columns, rows, size));
  }

  void heat(int colour, bool board) {
    const Heat h = board ? stats_.board_heat(colour) : stats_.heat[size_t(colour)];
    const std::string name = std::string("heat_") + kColours[colour] + (board ? "_board" : "_mover");
    const double games = double(std::max<int64_t>(stats_.games, 1));
    Csv csv({"man", "square", "count", "per_game"});
    std::vector<std::vector<double>> rows;
    for (int s = 0; s < 64; ++s) {
      rows.push_back({double(s % 8), double(s / 8)});
      for (size_t m = 0; m < size_t(kManTypes); ++m) rows.back().push_back(double(h[m][size_t(s)]) / games);
    }
    for (size_t m = 0; m < size_t(kManTypes); ++m)
      for (int s = 0; s < 64; ++s)
        if (h[m][size_t(s)]) {
          csv.row({std::string(1, kMen[m]), square_name(s), std::to_string(h[m][size_t(s)]),
                   num(double(h[m][size_t(s)]) / games)});
        }
    csv.write(path(name + ".csv"), written);
    std::string plot = "set multiplot layout 1,5 title " +
                       plot::quoted(std::string(kColours[colour]) + "'s men per game, " +
                                    (board ? "real board" : "own frame (a1 = own left back corner)") + ", " +
                                    stats_.profile + ", " + std::to_string(stats_.games) + " games") +
                       "\nset size ratio -1\nunset key\nset xrange [-0.5:7.5]\nset yrange [-0.5:7.5]\n" + board_tics() +
                       "set palette defined (0 'white', 1 'dark-red')\nset cbrange [0:*]\nunset xlabel\nunset ylabel\n";
    for (size_t m = 0; m < size_t(kManTypes); ++m)
      plot += "set title '" + std::string(kManNames[m]) + "'\nplot DATA using 1:2:" + std::to_string(m + 3) +
              " with image\n";
    draw({name, "", "", "", "", "", 0, plot + "unset multiplot"}, {"file", "rank", "K", "F", "S", "N", "R"}, rows,
         {1800, 420});
  }

  void order(int colour) {
    const std::string name = std::string("order_") + kColours[colour];
    std::vector<std::string> columns = {"drop"};
    for (char m : kMen) columns.emplace_back(1, m);
    Csv csv(columns);
    std::vector<std::vector<double>> rows;
    for (size_t k = 0; k < size_t(kMenPerSide); ++k) {
      std::vector<std::string> fields = {std::to_string(k + 1)};
      rows.push_back({double(k + 1)});
      int64_t total = 0;
      for (const int64_t n : stats_.order[size_t(colour)][k]) total += n;
      for (const int64_t n : stats_.order[size_t(colour)][k]) {
        fields.push_back(std::to_string(n));
        rows.back().push_back(total ? double(n) / double(total) : 0.0);
      }
      csv.row(fields);
    }
    csv.write(path(name + ".csv"), written);
    draw({name, std::string("The order of ") + kColours[colour] + "'s placement (" + stats_.profile + ")",
          "drop of the side (1 = its first)", "share of games placing this man", "linespoints lw 2",
          "set yrange [0:1.02]\nset xtics 1\n", kManTypes, ""},
         columns, rows);
  }

  void formations(int colour, const ReportOptions& options, const FormationValues& values) {
    const std::string name = std::string("formations_") + kColours[colour];
    const auto top = top_formations(stats_, colour, options.top);
    const auto& value_map = values[size_t(colour)];
    std::vector<std::string> columns = {"rank", "share"};
    columns.insert(columns.end(), kScoreColumns.begin(), kScoreColumns.end());
    if (!value_map.empty()) columns.insert(columns.end(), {"net_value_games", "net_value_reply", "net_reply"});
    columns.push_back("formation");
    Csv csv(columns);
    std::vector<std::vector<double>> rows;
    for (size_t r = 0; r < top.size(); ++r) {
      const auto& [text, score] = top[r];
      std::vector<std::string> fields = {std::to_string(r + 1), num(double(score.games()) / double(stats_.games))};
      for (std::string& f : score_fields(score)) fields.push_back(std::move(f));
      if (!value_map.empty()) {
        const auto it = value_map.find(text);
        if (it == value_map.end())
          fields.insert(fields.end(), {"", "", ""});
        else
          fields.insert(fields.end(), {num(it->second.games_value), num(it->second.reply_value), it->second.reply});
      }
      fields.push_back(text);
      csv.row(fields);
      const eval::Interval i = score_interval(score);
      rows.push_back({double(r + 1), score.score(), i.lower, i.upper, double(score.games())});
    }
    csv.write(path(name + ".csv"), written);
    if (rows.empty()) return;
    draw({name,
          std::string("The most frequent ") + kColours[colour] + " formations (" + stats_.profile +
              "): score with 95% interval; see " + name + ".csv",
          "rank of the formation by frequency", "score of its side", "", "set yrange [0:1]\nset xtics 1\n", 0,
          "plot DATA using 1:2:3:4 with yerrorbars lw 2 title 'score'"},
         {"rank", "score", "lower", "upper", "games"}, rows);
  }

  void features() {
    Csv csv({"side", "feature", "value", "games", "wins", "draws", "losses", "score", "lower95", "upper95"});
    std::vector<std::vector<double>> rows;
    for (int colour : {-1, 0, 1})
      for (const FeatureRow& row : results_by_feature(stats_, colour)) {
        std::vector<std::string> fields = {colour < 0 ? "both" : kColours[colour],
                                           feature_info()[size_t(row.feature)].name,
                                           feature_value_text(row.feature, row.value)};
        for (std::string& f : score_fields(row.score)) fields.push_back(std::move(f));
        csv.row(fields);
        const eval::Interval i = score_interval(row.score);
        if (colour < 0) rows.push_back({double(row.feature), double(row.value), row.score.score(), i.lower, i.upper});
      }
    csv.write(path("features.csv"), written);
    std::string plot = "set multiplot layout 3,4 title " +
                       plot::quoted("Score by formation feature, both sides, 95% Wilson intervals (" + stats_.profile +
                                    ", " + std::to_string(stats_.games) + " games)") +
                       "\nunset key\nset yrange [0:1]\nset offsets 0.5, 0.5, 0, 0\nunset xlabel\nunset ylabel\n";
    for (int f = 0; f < kFeatures; ++f)
      plot += "set title '" + std::string(feature_info()[size_t(f)].name) +
              "'\nplot DATA using ($1 == " + std::to_string(f) + " ? $2 : NaN):3:4:5 with yerrorbars lw 2\n";
    draw({"features", "", "", "", "", "", 0, plot + "unset multiplot"}, {"feature", "value", "score", "lower", "upper"},
         rows, {1600, 1000});
  }

  void logistic() {
    const std::vector<int> columns = fitted_features(stats_);
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    for (const SideRow& row : stats_.sides) {
      x.emplace_back();
      for (const int c : columns) x.back().push_back(c < 0 ? double(row.colour == 0) : double(row.features[size_t(c)]));
      y.push_back(row.score);
    }
    Csv csv({"term", "coefficient", "std_error", "z", "p_value"});
    std::vector<std::vector<double>> rows;
    try {
      const LogisticFit fit = fit_logistic(x, y);
      for (size_t j = 0; j < fit.coefficient.size(); ++j) {
        const std::string term = j == 0               ? "intercept"
                                 : columns[j - 1] < 0 ? "white"
                                                      : feature_info()[size_t(columns[j - 1])].name;
        const double z = fit.std_error[j] > 0 ? fit.coefficient[j] / fit.std_error[j] : NAN;
        csv.row({term, num(fit.coefficient[j]), num(fit.std_error[j]), num(z), num(two_sided_p(z))});
        rows.push_back({double(j), fit.coefficient[j], fit.coefficient[j] - 1.96 * fit.std_error[j],
                        fit.coefficient[j] + 1.96 * fit.std_error[j]});
      }
      if (!fit.converged) csv.row({"# the fit did not converge in " + std::to_string(fit.iterations) + " iterations"});
    } catch (const Error& e) {
      csv.row({std::string("# no fit: ") + e.what()});
    }
    csv.write(path("logistic.csv"), written);
    if (rows.empty()) return;
    std::string tics = "set xtics rotate by -30 (";
    for (size_t j = 0; j < rows.size(); ++j) {
      const std::string term = j == 0               ? "intercept"
                               : columns[j - 1] < 0 ? "white"
                                                    : feature_info()[size_t(columns[j - 1])].name;
      tics += std::string(j ? ", " : "") + "'" + term + "' " + std::to_string(j);
    }
    draw({"logistic", "Logistic fit of the score on the features (" + stats_.profile + "), 95% intervals", "",
          "coefficient (logit per unit)", "", tics + ")\nset offsets 0.5, 0.5, 0, 0\nset xzeroaxis lw 2\n", 0,
          "plot DATA using 1:2:3:4 with yerrorbars lw 2 title 'coefficient'"},
         {"term", "coefficient", "lower", "upper"}, rows, {1200, 600});
  }

  std::vector<std::string> written;

 private:
  const ProfileStats& stats_;
  std::string dir_;
  std::unique_ptr<plot::Plotter> plotter_;
};

}  // namespace

std::vector<int> fitted_features(const ProfileStats& stats) {
  std::vector<int> columns = {-1};  // White: the first move's edge
  for (int f = 0; f < kFeatures; ++f) {
    if (!feature_info()[size_t(f)].in_fit) continue;
    bool varies = false;
    for (const SideRow& row : stats.sides)
      varies = varies || row.features[size_t(f)] != stats.sides[0].features[size_t(f)];
    if (varies) columns.push_back(f);
  }
  return columns;
}

std::vector<std::string> write_report(const ProfileStats& stats, const std::string& dir, const ReportOptions& options,
                                      const FormationValues& values) {
  Writer w(stats, dir, options);
  for (int colour = 0; colour < 2; ++colour) {
    w.heat(colour, false);
    w.heat(colour, true);
    w.order(colour);
    w.formations(colour, options, values);
  }
  w.features();
  w.logistic();
  return w.written;
}

}  // namespace sz::placement
