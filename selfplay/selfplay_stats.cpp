#include "selfplay/selfplay_stats.h"

#include <cstdio>

namespace sz::selfplay {

void SelfplayStats::add_game(game::GameResult result, std::string_view reason, int plies, int positions) {
  ++games_;
  positions_ += positions;
  plies_ += plies;
  if (result == game::GameResult::FirstWins)
    ++results_[0];
  else if (result == game::GameResult::SecondWins)
    ++results_[2];
  else
    ++results_[1];
  std::lock_guard lock(reasons_mutex_);
  ++reasons_[std::string(reason)];
}

void SelfplayStats::add_resign_check(bool lost) {
  ++resign_checks_;
  if (!lost) ++resign_false_positives_;
}

void SelfplayStats::add_draw_check(bool decisive) {
  ++draw_checks_;
  if (decisive) ++draw_false_positives_;
}

void SelfplayStats::add_search(bool full, const search::RootSpread& spread, double target_minus_mean) {
  SearchSums& sums = searches_[full ? 0 : 1];
  ++sums.searches;
  sums.moves += spread.moves;
  sums.visited += spread.visited;
  sums.targeted += spread.targeted;
  sums.visits += spread.visits;
  sums.best += spread.best;
  sums.line += spread.line;
  sums.kept += spread.kept;
  sums.target_minus_mean += target_minus_mean;
}

double SelfplayStats::draw_false_positive_rate() const {
  return draw_checks_ ? double(draw_false_positives_) / double(draw_checks_) : -1.0;
}

double SelfplayStats::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double SelfplayStats::resign_false_positive_rate() const {
  return resign_checks_ ? double(resign_false_positives_) / double(resign_checks_) : -1.0;
}

std::map<std::string, int64_t> SelfplayStats::end_reasons() const {
  std::lock_guard lock(reasons_mutex_);
  return reasons_;
}

std::string SelfplayStats::progress_line() const {
  const double secs = std::max(seconds(), 1e-9);
  const int64_t g = games_;
  char head[256];
  std::snprintf(head, sizeof head,
                "games %lld | %.1f pos/s | %.0f evals/s | batch %.1f | length %.1f | W/D/L %lld/%lld/%lld",
                static_cast<long long>(g), double(positions_) / secs, double(evaluations_) / secs, average_batch(),
                g ? double(plies_) / double(g) : 0.0, static_cast<long long>(results_[0].load()),
                static_cast<long long>(results_[1].load()), static_cast<long long>(results_[2].load()));
  std::string line = head;
  std::string reasons;
  for (const auto& [reason, n] : end_reasons())
    reasons += (reasons.empty() ? "" : " ") + reason + " " + std::to_string(n);
  if (!reasons.empty()) line += " | " + reasons;
  const auto rate = [](const char* what, double fp, int64_t checks) {
    char text[64];
    if (fp >= 0)
      std::snprintf(text, sizeof text, " | %s FP %.1f%% of %lld", what, 100 * fp, static_cast<long long>(checks));
    else
      std::snprintf(text, sizeof text, " | %s FP n/a", what);
    return std::string(text);
  };
  return line + rate("resign", resign_false_positive_rate(), resign_checks_) +
         rate("draw", draw_false_positive_rate(), draw_checks_);
}

std::string SelfplayStats::search_line() const {
  std::string line;
  for (const bool full : {true, false}) {
    const SearchSums& sums = searches_[full ? 0 : 1];
    const int64_t n = sums.searches;
    if (n == 0) continue;
    const auto mean = [n](double sum) { return sum / double(n); };
    const double visits = double(sums.visits.load());
    char text[192];
    std::snprintf(text, sizeof text,
                  "%s searches %lld: %.1f moves, %.1f visited, best %.1f of %.1f visits, line %.1f plies",
                  full ? "full" : "cheap", static_cast<long long>(n), mean(double(sums.moves)),
                  mean(double(sums.visited)), mean(double(sums.best)), mean(visits), mean(double(sums.line)));
    std::string part = text;
    if (full) {
      std::snprintf(text, sizeof text,
                    "; the target keeps %.0f%% of the visits on %.1f moves, its W - L %+.3f over the root's mean",
                    visits > 0 ? 100 * sums.kept.load() / visits : 0.0, mean(double(sums.targeted)),
                    mean(sums.target_minus_mean.load()));
      part += text;
    }
    line += (line.empty() ? "" : " | ") + part;
  }
  return line;
}

}  // namespace sz::selfplay
