#include "games/chaturanga/tables/generator.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include "core/atomic_file.h"
#include "core/error.h"
#include "games/chaturanga/tables/solver.h"
#include "games/chaturanga/tables/table_dir.h"
#include "games/chaturanga/tables/table_file.h"

namespace sz::chaturanga::tables {

namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;
constexpr double kHeartbeatSeconds = 20;

double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

std::string fixed(double x, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

struct RuleGroup {
  EndingRules rules;
  const RuleProfile* profile = nullptr;  // one profile of these rules, to play them
  std::vector<std::string> profile_ids;
  std::string path;
};

struct Job {
  int group = 0;
  Material material;
  uint64_t entries = 0;
  std::vector<int> deps;  // jobs one capture away
  int dependents = 0;
  enum class State { Pending, Running, Done } state = State::Pending;
  std::shared_ptr<const Table> table;  // kept while dependents wait for it
};

class Builder {
 public:
  Builder(const BuildRequest& request, const BuildLog& log) : request_(request), log_(log) {}
  BuildReport run();

 private:
  void plan_groups();
  void plan_jobs(int group);
  void link_jobs();
  void worker();
  int next_ready() const;  // under the lock; -1 when none is ready
  std::shared_ptr<const Table> make_table(const Job& job, const TableSet& smaller, BuiltTable& built);
  void finish(int j, std::shared_ptr<const Table> table, BuiltTable built);
  void log(const std::string& line) {
    std::lock_guard<std::mutex> lock(log_mu_);
    log_(line);
  }

  const BuildRequest& request_;
  const BuildLog& log_;
  std::vector<RuleGroup> groups_;
  std::vector<Job> jobs_;
  std::mutex mu_, log_mu_;  // log_mu_ is never held while taking mu_
  std::condition_variable cv_;
  size_t finished_ = 0;
  std::exception_ptr error_;
  BuildReport report_;
};

void Builder::plan_groups() {
  for (const RuleProfile* p : request_.profiles) {
    const EndingRules rules = ending_rules(*p);
    auto it = std::find_if(groups_.begin(), groups_.end(), [&](const RuleGroup& g) { return g.rules == rules; });
    if (it == groups_.end()) {
      groups_.push_back({rules, p, {}, rules_path(request_.out, rules)});
      it = groups_.end() - 1;
    }
    it->profile_ids.push_back(p->id);
  }
}

void Builder::plan_jobs(int group) {
  const RuleGroup& g = groups_[size_t(group)];
  std::vector<Material> todo;
  for (const Material& m : request_.materials)
    if (m.game == g.rules.game) todo.push_back(m.canonical_form());
  for (size_t i = 0; i < todo.size(); ++i)  // the closure under captures
    for (const Material& sub : capture_materials(todo[i]))
      if (std::find(todo.begin(), todo.end(), sub) == todo.end()) todo.push_back(sub);
  for (const Material& m : todo) {
    Job job;
    job.group = group;
    job.material = m;
    job.entries = Layout(m).size();
    jobs_.push_back(std::move(job));
  }
}

void Builder::link_jobs() {
  std::stable_sort(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) {
    if (a.material.total() != b.material.total()) return a.material.total() < b.material.total();
    return a.entries > b.entries;  // the longest first, so the workers end together
  });
  for (Job& job : jobs_)
    for (const Material& sub : capture_materials(job.material))
      for (size_t k = 0; k < jobs_.size(); ++k)
        if (jobs_[k].group == job.group && jobs_[k].material == sub) {
          job.deps.push_back(int(k));
          ++jobs_[k].dependents;
        }
}

int Builder::next_ready() const {
  for (size_t j = 0; j < jobs_.size(); ++j) {
    if (jobs_[j].state != Job::State::Pending) continue;
    const bool ready = std::all_of(jobs_[j].deps.begin(), jobs_[j].deps.end(),
                                   [&](int d) { return jobs_[size_t(d)].state == Job::State::Done; });
    if (ready) return int(j);
  }
  return -1;
}

std::shared_ptr<const Table> Builder::make_table(const Job& job, const TableSet& smaller, BuiltTable& built) {
  const RuleGroup& g = groups_[size_t(job.group)];
  const std::string path = g.path + "/" + table_file_name(job.material);
  if (!request_.force && fs::exists(path)) {
    try {
      built.kept = true;
      return load_table_file(path, g.rules, job.material);
    } catch (const Error& e) {
      built.kept = false;
      log(std::string("rebuilding: ") + e.what());
    }
  }
  auto beat = SteadyClock::now();
  const SolveProgress progress = [&](std::string_view phase, double done) {
    if (seconds_since(beat) < kHeartbeatSeconds) return;
    beat = SteadyClock::now();
    log("  " + built.folder + "/" + built.name + ": " + std::string(phase) + " " + fixed(100 * done, 0) + "%");
  };
  TableCodes codes = solve_table(*g.profile, job.material, smaller, progress);
  write_table_file(path, g.rules, job.material, codes);
  return table_from_codes(job.material, std::move(codes));
}

void Builder::finish(int j, std::shared_ptr<const Table> table, BuiltTable built) {
  std::lock_guard<std::mutex> lock(mu_);
  Job& job = jobs_[size_t(j)];
  job.state = Job::State::Done;
  if (job.dependents > 0) job.table = std::move(table);
  for (int d : job.deps)
    if (--jobs_[size_t(d)].dependents == 0) jobs_[size_t(d)].table.reset();  // no longer needed
  report_.bytes += built.bytes;
  report_.tables.push_back(built);
  ++finished_;
  log("[" + std::to_string(finished_) + "/" + std::to_string(jobs_.size()) + "] " + built.folder + "/" + built.name +
      ": " + std::to_string(built.entries) + " entries, " + fixed(double(built.bytes) / 1e6, 2) + " MB, " +
      (built.kept ? std::string("kept") : fixed(built.seconds, 2) + " s"));
  cv_.notify_all();
}

void Builder::worker() {
  for (;;) {
    int j;
    TableSet smaller(EndingRules{});
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return error_ || finished_ == jobs_.size() || next_ready() >= 0; });
      if (error_ || finished_ == jobs_.size()) return;
      j = next_ready();
      Job& job = jobs_[size_t(j)];
      job.state = Job::State::Running;
      smaller = TableSet(groups_[size_t(job.group)].rules);
      for (int d : job.deps) smaller.add(jobs_[size_t(d)].table);
    }
    const Job& job = jobs_[size_t(j)];  // its fields are fixed while it runs
    BuiltTable built{fs::path(groups_[size_t(job.group)].path).filename().string(), job.material.name(), job.entries};
    try {
      const auto start = SteadyClock::now();
      std::shared_ptr<const Table> table = make_table(job, smaller, built);
      built.seconds = seconds_since(start);
      built.bytes = fs::file_size(groups_[size_t(job.group)].path + "/" + table_file_name(job.material));
      finish(j, std::move(table), built);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!error_) error_ = std::current_exception();
      cv_.notify_all();
      return;
    }
  }
}

BuildReport Builder::run() {
  const auto start = SteadyClock::now();
  plan_groups();
  for (size_t g = 0; g < groups_.size(); ++g) {
    std::string note = describe(groups_[g].rules) + "\nprofiles:";
    for (const std::string& id : groups_[g].profile_ids) note += " " + id;
    fs::create_directories(groups_[g].path);
    write_file_atomically(groups_[g].path + "/" + kRulesNote, note + "\n");
    plan_jobs(int(g));
  }
  link_jobs();
  const int threads = std::max(1, std::min<int>(request_.threads, int(jobs_.size())));
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) workers.emplace_back([this] { worker(); });
  for (std::thread& t : workers) t.join();
  if (error_) std::rethrow_exception(error_);
  report_.seconds = seconds_since(start);
  return report_;
}

}  // namespace

BuildReport build_tables(const BuildRequest& request, const BuildLog& log) {
  Builder builder(request, log);
  return builder.run();
}

}  // namespace sz::chaturanga::tables
