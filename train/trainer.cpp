#include "train/trainer.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <thread>

#include "core/error.h"
#include "game/registry.h"
#include "models/checkpoint.h"
#include "models/training.h"
#include "nn/net_runner.h"
#include "train/batch_loader.h"
#include "train/precision.h"
#include "train/run_files.h"
#include "train/schedule.h"
#include "train/shard_catalog.h"
#include "train/window.h"

namespace sz::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

models::OptimizerConfig optimizer_config(const TrainConfig& c) {
  models::OptimizerConfig o;
  o.kind = c.optimizer == OptimizerChoice::AdamW ? models::OptimizerKind::AdamW : models::OptimizerKind::Sgd;
  o.learning_rate = c.learning_rate;
  o.momentum = c.momentum;
  o.weight_decay = c.weight_decay;
  o.adam_beta1 = c.adam_beta1;
  o.adam_beta2 = c.adam_beta2;
  return o;
}

models::LossWeights loss_weights(const TrainConfig& c) {
  models::LossWeights w;
  w.policy = c.policy_weight;
  w.wdl = c.wdl_weight;
  w.moves_left = c.moves_left_weight;
  return w;
}

models::Architecture architecture_of(const config::RunConfig& c) {
  return {config::load_net_config(c.net).take_or_throw("net '" + c.net + "'"),
          game::spec_for(c.profile).take_or_throw("profile '" + c.profile + "'")};
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void print_to_stderr(const std::string& prefix, const std::string& line) {
  std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
}

// Sums over the steps since the last metric line.
struct Interval {
  int64_t steps = 0;
  double loss = 0, policy = 0, wdl = 0, moves_left = 0;
  Clock::time_point start = Clock::now();
  double wait_at_start = 0;
};

}  // namespace

struct Trainer::Impl {
  config::RunConfig config;
  TrainConfig tc;
  std::string run_dir, models_dir, logs_dir;
  TrainerHooks hooks;
  std::unique_ptr<FileLock> lock;
  models::Architecture arch;
  torch::Device device{torch::kCPU};
  models::Network net{nullptr};
  models::OptimizerConfig opt_config;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::vector<torch::Tensor> parameters;
  std::unique_ptr<MixedPrecision> precision;
  std::unique_ptr<ShardCatalog> catalog;
  std::shared_ptr<const Window> window;
  std::unique_ptr<BatchLoader> loader;
  TrainerState state;
  std::string current;  // the newest checkpoint's path
  int64_t checkpoint_step = -1;
  int64_t steps_since_refresh = 0;
  Interval interval;
  std::FILE* metrics = nullptr;

  Impl(const config::RunConfig& c, std::string dir, TrainerHooks h);
  ~Impl();
  void warn(const std::string& s) const { hooks.on_warning ? hooks.on_warning(s) : print_to_stderr("warning: ", s); }
  void info(const std::string& s) const { hooks.on_info ? hooks.on_info(s) : print_to_stderr("train: ", s); }
  std::string waiting_message() const;
  void create_network();
  std::string checkpoint_to_resume();
  void resume(const std::string& checkpoint);
  void refresh();
  int64_t steps_allowed() const;
  int train_capped(int max_steps, const std::atomic<bool>* stop);
  void train_step();
  void write_metrics();
  std::string save_checkpoint();
};

Trainer::Impl::Impl(const config::RunConfig& c, std::string dir, TrainerHooks h)
    : config(c), tc(c.train), run_dir(std::move(dir)), hooks(std::move(h)), arch(architecture_of(c)) {
  models_dir = (fs::path(run_dir) / "models").string();
  logs_dir = (fs::path(run_dir) / "logs").string();
  fs::create_directories(models_dir);
  fs::create_directories(logs_dir);
  lock = std::make_unique<FileLock>((fs::path(models_dir) / ".trainer.lock").string(), "trainer");
  prune_checkpoints(models_dir, /*keep=*/0);  // a killed trainer's temporaries
  if (tc.threads > 0) nn::set_torch_threads(tc.threads);
  device = torch::Device(nn::resolve_device(tc.device));
  precision = std::make_unique<MixedPrecision>(tc.precision, device);
  opt_config = optimizer_config(tc);
  create_network();
  state.seed = config.seed;
  if (const std::string checkpoint = checkpoint_to_resume(); !checkpoint.empty()) resume(checkpoint);
  if (precision->loss_scale > 0 && state.loss_scale > 0) {
    precision->loss_scale = state.loss_scale;
    precision->good_steps = state.loss_scale_good_steps;
  }
  catalog = std::make_unique<ShardCatalog>((fs::path(run_dir) / "games").string(), arch.spec,
                                           [this](const std::string& s) { warn(s); });
  LoaderOptions lo;
  lo.batch.seed = state.seed;
  lo.batch.batch_size = tc.batch_size;
  lo.batch.sampling = {tc.recent_share, tc.recent_positions};
  lo.batch.value_target_search = tc.value_target_search;
  lo.capacity = tc.prefetch_batches;
  lo.action_space = arch.spec.action_space;
  lo.moves_left = arch.net.moves_left && tc.moves_left_weight > 0;
  lo.device = device;
  loader = std::make_unique<BatchLoader>(lo);
  const std::string metrics_path = (fs::path(logs_dir) / "train.jsonl").string();
  metrics = std::fopen(metrics_path.c_str(), "a");
  if (!metrics) throw Error(metrics_path + ": cannot open for appending");
}

Trainer::Impl::~Impl() {
  loader.reset();  // joins the thread before the window goes
  if (metrics) std::fclose(metrics);
}

void Trainer::Impl::create_network() {
  torch::manual_seed(config.seed);  // torch initialises weights from its global generator
  net = models::Network(arch);
  net->to(device);
  net->train();
  optimizer = models::make_optimizer(net, opt_config);
  parameters = net->parameters();
}

namespace {

// Why the checkpoint at `path` cannot be resumed from, or "" when it can: its tensors match their
// checksum and its state file reads, at the same step.
std::string unreadable_reason(const std::string& path) {
  try {
    const models::CheckpointMeta meta = models::read_checkpoint_meta(path);
    const std::string sidecar = state_path(path);
    const TrainerState state = state_from_text(read_file(sidecar), sidecar).take_or_throw();
    if (state.step != meta.step)
      return sidecar + ": step " + std::to_string(state.step) + ", but the checkpoint is at step " +
             std::to_string(meta.step);
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace

// models/current.txt names the checkpoint to resume from, but a newer one that reads completely
// wins (a trainer killed between writing it and current.txt), and without current.txt the newest
// readable one is taken, with a warning naming it: a trainer never starts afresh over
// checkpoints, and never writes over one. Newer checkpoints that cannot be read are moved into
// models/damaged/ (warned). Checkpoints of which none reads, without current.txt, are an error.
std::string Trainer::Impl::checkpoint_to_resume() {
  const std::string pointer = (fs::path(models_dir) / "current.txt").string();
  std::string named, pointer_problem = pointer + " is missing";
  try {
    named = read_current(models_dir);
  } catch (const Error& e) {
    pointer_problem = e.what();
  }
  const int64_t named_step = named.empty() ? -1 : train::checkpoint_step(fs::path(named).filename().string());
  std::string chosen;
  std::vector<std::pair<std::string, std::string>> unreadable;  // newer than current, with why
  for (const std::string& path : list_checkpoints(models_dir)) {
    if (train::checkpoint_step(fs::path(path).filename().string()) <= named_step) break;
    const std::string why = unreadable_reason(path);
    if (why.empty()) {
      chosen = path;
      break;
    }
    unreadable.emplace_back(path, why);
  }
  if (named.empty() && chosen.empty() && !unreadable.empty()) {
    std::string list;
    for (const auto& [path, why] : unreadable) list += "\n  " + why;
    throw Error(pointer_problem + " and no checkpoint in " + models_dir + " can be read; refusing to start a " +
                "fresh network over them (move them away to start afresh):" + list);
  }
  for (const auto& [path, why] : unreadable) {
    std::string why_not;
    const std::string moved = move_checkpoint_to_damaged(path, &why_not);
    warn("skipping checkpoint " + why +
         (moved.empty() ? " (could not move it: " + why_not + ")" : " (moved to " + moved + ")"));
  }
  if (chosen.empty()) return named;
  warn(named.empty()
           ? pointer_problem + "; resuming from " + chosen + ", the newest readable checkpoint"
           : pointer + " names " + named + ", but " + chosen +
                 " is newer and complete (a trainer stopped before it updated current.txt); resuming from it");
  write_current(models_dir, fs::path(chosen).filename().string());
  return chosen;
}

void Trainer::Impl::resume(const std::string& checkpoint) {
  const std::string kind(models::optimizer_name(opt_config.kind));
  const models::CheckpointMeta meta = models::read_checkpoint_meta(checkpoint);
  if (!meta.optimizer.empty() && meta.optimizer != kind) {
    warn(checkpoint + ": holds " + meta.optimizer + " state but train.optimizer is " + kind +
         "; the weights are kept, the optimiser starts afresh");
    models::load_checkpoint(checkpoint, net);
  } else {
    models::load_checkpoint(checkpoint, net, meta.optimizer.empty() ? nullptr : optimizer.get(), kind);
  }
  const std::string sidecar = state_path(checkpoint);
  state = state_from_text(read_file(sidecar), sidecar).take_or_throw();
  if (state.step != meta.step)
    throw Error(sidecar + ": step " + std::to_string(state.step) + " but " + checkpoint + " is at step " +
                std::to_string(meta.step));
  if (state.seed != config.seed)
    warn(sidecar + ": the run was trained with seed " + std::to_string(state.seed) + "; keeping it, not " +
         std::to_string(config.seed) + ", so that the batches go on as they were");
  current = checkpoint;
  checkpoint_step = state.step;
}

void Trainer::Impl::refresh() {
  steps_since_refresh = 0;
  if (!catalog->refresh() && window) return;
  const int64_t size = window_size(tc, catalog->total_positions());
  window = Window::build(*catalog, size, window.get());  // may mark shards bad: totals shrink
  state.positions_seen = catalog->total_positions();
  state.window_positions = window->size();
  state.window_shards = int64_t(window->num_shards());
  state.newest_shard = window->newest_shard();
}

int64_t Trainer::Impl::steps_allowed() const {
  const int64_t total = catalog->total_positions();
  return total < tc.min_positions || !window || window->size() == 0 ? 0 : allowed_steps(tc, total);
}

std::string Trainer::Impl::waiting_message() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "waiting for games at step %lld: %lld positions allow %lld steps (replay ratio %g, batch %d, "
                "at least %lld positions)",
                static_cast<long long>(state.step), static_cast<long long>(catalog->total_positions()),
                static_cast<long long>(steps_allowed()), tc.replay_ratio, tc.batch_size,
                static_cast<long long>(tc.min_positions));
  return buf;
}

int Trainer::Impl::train_capped(int max_steps, const std::atomic<bool>* stop) {
  refresh();
  const int64_t room = std::max<int64_t>(0, steps_allowed() - state.step);
  const int n = int(std::min<int64_t>(max_steps, room));
  int done = 0;
  for (; done < n && !(stop && stop->load()); ++done) {
    if (steps_since_refresh >= tc.refresh_every) refresh();
    if (!window || window->size() == 0) break;  // every shard turned out damaged
    train_step();
    if (state.step % tc.log_every == 0) write_metrics();
    if (state.step % tc.checkpoint_every == 0) save_checkpoint();
  }
  return done;
}

void Trainer::Impl::train_step() {
  if (!loader->running_at(window.get(), state.step)) loader->start(window, state.step);
  const models::LossBatch batch = loader->next(state.step);
  const double lr = learning_rate_at(tc, state.step);
  models::set_learning_rate(*optimizer, lr);
  net->train();
  optimizer->zero_grad();
  models::Losses losses;
  {
    MixedPrecision::Guard autocast(*precision);
    const models::NetOutput out = net->forward(batch.input);
    losses = models::compute_losses(out, batch, loss_weights(tc));
  }
  precision->backward_and_step(losses.total, *optimizer, parameters);
  const double total = tc.policy_weight * losses.policy + tc.wdl_weight * losses.wdl +
                       (batch.moves_left.defined() ? tc.moves_left_weight * losses.moves_left : 0.0);
  if (!std::isfinite(total))
    throw Error("training diverged at step " + std::to_string(state.step) + " (loss " + std::to_string(total) +
                "); the last checkpoint is " + (current.empty() ? "none" : current) + "; lower train.learning_rate");
  ++state.step;
  ++steps_since_refresh;
  state.samples += tc.batch_size;
  Interval& i = interval;
  ++i.steps;
  i.loss += total;
  i.policy += losses.policy;
  i.wdl += losses.wdl;
  i.moves_left += losses.moves_left;
}

void Trainer::Impl::write_metrics() {
  Interval& i = interval;
  if (i.steps == 0) return;
  const double seconds = std::chrono::duration<double>(Clock::now() - i.start).count();
  StepMetrics m;
  m.step = state.step;
  m.loss = i.loss / double(i.steps);
  m.policy = i.policy / double(i.steps);
  m.wdl = i.wdl / double(i.steps);
  m.moves_left = i.moves_left / double(i.steps);
  m.learning_rate = learning_rate_at(tc, state.step - 1);
  m.samples_per_s = seconds > 0 ? double(i.steps * tc.batch_size) / seconds : 0;
  m.loader_wait = seconds > 0 ? (loader->wait_seconds() - i.wait_at_start) / seconds : 0;
  m.window = state.window_positions;
  m.window_shards = state.window_shards;
  m.positions_seen = state.positions_seen;
  m.samples = state.samples;
  const std::string line = metrics_json(m, unix_now()) + "\n";
  // One line at a time: a reader (plot) never sees half a line for long. A full disk is an
  // error here like anywhere else, not metrics silently lost.
  if (std::fputs(line.c_str(), metrics) < 0 || std::fflush(metrics) != 0)
    throw Error((fs::path(logs_dir) / "train.jsonl").string() + ": cannot write: " + std::strerror(errno));
  interval = Interval{};
  interval.wait_at_start = loader->wait_seconds();
  if (hooks.on_metrics) hooks.on_metrics(m);
}

std::string Trainer::Impl::save_checkpoint() {
  if (state.step == checkpoint_step) return current;
  state.loss_scale = precision->loss_scale;
  state.loss_scale_good_steps = precision->good_steps;
  const std::string name = checkpoint_file_name(state.step);
  const std::string path = (fs::path(models_dir) / name).string();
  std::error_code ec;
  if (fs::exists(path, ec))  // checkpoint_to_resume starts after every checkpoint there is
    throw Error(path + ": exists already; a trainer never writes over a checkpoint (resumed from " +
                (current.empty() ? "none" : current) + ")");
  write_file_atomically(state_path(path), state_to_text(state));  // first: current.txt never names half a pair
  models::CheckpointMeta meta;
  meta.step = state.step;
  if (window) meta.profiles = window->profiles();
  models::save_checkpoint(path, net, optimizer.get(), models::optimizer_name(opt_config.kind), meta);
  write_current(models_dir, name);
  current = path;
  checkpoint_step = state.step;
  prune_checkpoints(models_dir, tc.keep_checkpoints);
  if (hooks.on_checkpoint) hooks.on_checkpoint(path);
  return path;
}

Trainer::Trainer(const config::RunConfig& config, std::string run_dir, TrainerHooks hooks)
    : impl_(std::make_unique<Impl>(config, std::move(run_dir), std::move(hooks))) {}

Trainer::~Trainer() = default;

int Trainer::train_available(int max_steps, const std::atomic<bool>* stop) {
  const int done = impl_->train_capped(max_steps, stop);
  if (impl_->state.step != impl_->checkpoint_step && impl_->state.step > 0) impl_->save_checkpoint();
  return done;
}

int64_t Trainer::train(int64_t steps, const std::atomic<bool>* stop) {
  Impl& m = *impl_;
  int64_t done = 0;
  bool announced = false;
  const auto stopped = [&] { return stop && stop->load(); };
  while ((steps < 0 || done < steps) && !stopped()) {
    const int64_t want = steps < 0 ? std::numeric_limits<int>::max() : steps - done;
    const int n = m.train_capped(int(std::min<int64_t>(want, std::numeric_limits<int>::max())), stop);
    done += n;
    if (n > 0) announced = false;
    if (n > 0 || stopped() || (steps >= 0 && done >= steps)) continue;
    if (!announced) m.info(m.waiting_message());
    announced = true;
    const auto until = Clock::now() + std::chrono::duration<double>(m.tc.poll_seconds);
    while (Clock::now() < until && !stopped()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (m.state.step > 0) m.save_checkpoint();
  return done;
}

std::string Trainer::save_checkpoint() { return impl_->save_checkpoint(); }
std::string Trainer::current_checkpoint() const { return impl_->current; }
int64_t Trainer::step() const { return impl_->state.step; }
int64_t Trainer::positions_seen() const { return impl_->catalog->total_positions(); }
int64_t Trainer::steps_allowed() const { return impl_->steps_allowed(); }
const std::string& Trainer::run_dir() const { return impl_->run_dir; }
std::shared_ptr<models::NetworkImpl> Trainer::network() const { return impl_->net.ptr(); }

}  // namespace sz::train
