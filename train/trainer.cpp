#include "train/trainer.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <thread>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/split.h"
#include "models/checkpoint.h"
#include "models/training.h"
#include "nn/net_runner.h"
#include "rundir/checkpoint_files.h"
#include "rundir/run_paths.h"
#include "train/batch_loader.h"
#include "train/checkpoint_resume.h"
#include "train/heldout.h"
#include "train/precision.h"
#include "train/process_group.h"
#include "train/rank_agreement.h"
#include "train/schedule.h"
#include "train/shard_catalog.h"
#include "train/trainer_state.h"
#include "train/weight_average.h"
#include "train/window.h"

namespace sz::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

void print_to_stderr(const std::string& prefix, const std::string& line) {
  std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
}

// Sums over the steps since the last metric line. The losses are summed on the device, in double
// (as the step's losses would be, read one by one), and read only for a metric line or a
// checkpoint: reading a loss waits for the device.
struct Interval {
  int64_t first_step = 0;  // the step count when the interval began
  int64_t steps = 0;
  torch::Tensor sums;  // [loss, policy, wdl, moves_left], double; undefined before the first step
  Clock::time_point start = Clock::now();
  double wait_at_start = 0;
};

enum LossSum { kTotal, kPolicy, kWdl, kMovesLeft, kLossSums };

}  // namespace

struct Trainer::Impl {
  uint64_t seed;
  TrainConfig tc;
  std::string run_dir;
  rundir::RunPaths paths;
  TrainerHooks hooks;
  std::unique_ptr<FileLock> lock;
  net::Architecture arch;
  torch::Device device{torch::kCPU};
  models::Network net{nullptr};
  models::Network averaged{nullptr};  // the weights players get (TrainConfig::average_decay); null: net's
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
  DistributedConfig dist;
  int slices = 1;                       // per batch, over all ranks
  std::unique_ptr<ProcessGroup> group;  // several ranks only
  // Several ranks stop together, at a step they agree on: a rank asked to stop says so in the
  // next collective (the step count's minimum or the gradients' all-reduce), and every rank then
  // ends there, so that none is left waiting for the others until the timeout.
  bool stop_agreed = false;
  bool asked_to_stop(const std::atomic<bool>* stop) const { return stop && stop->load(); }
  // Whether training ends now: alone when asked, with several ranks when they agreed.
  bool stopping(const std::atomic<bool>* stop) const { return stop_agreed || (!group && asked_to_stop(stop)); }

  Impl(TrainerSetup setup, TrainerHooks h);
  bool leader() const { return dist.rank == 0; }  // writes the run's files
  ~Impl();
  void warn(const std::string& s) const { hooks.on_warning ? hooks.on_warning(s) : print_to_stderr("warning: ", s); }
  void info(const std::string& s) const { hooks.on_info ? hooks.on_info(s) : print_to_stderr("train: ", s); }
  std::string waiting_message() const;
  void create_network();
  void resume(const std::string& checkpoint);
  void refresh();
  void use_training_threads() const;
  void score_fresh_games(const std::string& trained_newest);
  bool bootstrap_apart() const;
  WindowSizes window_sizes() const;
  int64_t network_samples_per_step() const;
  int64_t steps_allowed() const;
  int train_capped(int max_steps, const std::atomic<bool>* stop);
  void train_step(bool this_rank_stops);
  models::Network& played() { return averaged ? averaged : net; }
  std::array<torch::Tensor, 3> train_slices(const models::LossBatch& batch, bool this_rank_stops);
  std::array<double, kLossSums> interval_losses() const;
  void write_metrics();
  std::string save_checkpoint();
};

Trainer::Impl::Impl(TrainerSetup setup, TrainerHooks h)
    : seed(setup.seed),
      tc(std::move(setup.train)),
      run_dir(std::move(setup.run_dir)),
      paths(run_dir),
      hooks(std::move(h)),
      arch{std::move(setup.net), std::move(setup.spec)} {
  dist = checked(setup.distributed).take_or_throw("distributed training");
  slices = setup.batch_slices > 0 ? setup.batch_slices : dist.world_size;
  if (slices % dist.world_size != 0 || tc.batch_size % slices != 0)
    throw Error("train.batch_size " + std::to_string(tc.batch_size) + " cannot be cut into " + std::to_string(slices) +
                " slices shared by " + std::to_string(dist.world_size) + " ranks");
  fs::create_directories(paths.models());
  fs::create_directories(paths.logs());
  if (leader()) {
    lock = std::make_unique<FileLock>(paths.trainer_lock(), "trainer");
    rundir::prune_checkpoints(paths.models(), /*keep=*/0);  // a killed trainer's temporaries
    remove_stale_temporaries(paths.models());               // and adopted.txt's, generation.txt's
  }
  use_training_threads();
  device = torch::Device(nn::resolve_device(tc.device));
  if (dist.distributed()) {
    group = std::make_unique<ProcessGroup>(dist, device);
    check_agreement(*group, setup.agreement);
  }
  precision = std::make_unique<MixedPrecision>(tc.precision, device);
  if (slices > 1 && precision->resolved() == TrainPrecision::Float16)
    throw Error("train.precision float16 with several slices or ranks: not supported yet (use bfloat16)");
  create_network();
  state.seed = seed;
  // Rank 0 settles which checkpoint is current (it may repair current.txt); the others wait for
  // it, then read current.txt, so every rank starts from the same weights.
  std::string checkpoint =
      leader() ? checkpoint_to_resume(paths.models(), [this](const std::string& w) { warn(w); }) : "";
  if (group) {
    group->minimum(0);
    if (!leader()) checkpoint = rundir::read_current(paths.models());
  }
  if (!checkpoint.empty()) resume(checkpoint);
  if (precision->loss_scale > 0 && state.loss_scale > 0) {
    precision->loss_scale = state.loss_scale;
    precision->good_steps = state.loss_scale_good_steps;
  }
  catalog = std::make_unique<ShardCatalog>(paths.games(), arch.spec, [this](const std::string& s) { warn(s); });
  LoaderOptions lo;
  lo.batch.seed = state.seed;
  lo.batch.batch_size = tc.batch_size;
  lo.batch.sampling = {tc.recent_share, tc.recent_positions, tc.bootstrap_share};
  lo.batch.value_target_search = tc.value_target_search;
  if (tc.mirror) {
    if (arch.spec.mirror_actions.empty())
      throw Error("train.mirror: the game " + arch.spec.game + " has no mirror symmetry; set train.mirror: false");
    lo.batch.mirror_actions = arch.spec.mirror_actions;
  }
  lo.capacity = tc.prefetch_batches;
  lo.action_space = arch.spec.action_space;
  lo.moves_left = arch.net.moves_left && tc.loss.moves_left > 0;
  lo.device = device;
  loader = std::make_unique<BatchLoader>(lo);
}

Trainer::Impl::~Impl() {
  loader.reset();  // joins the thread before the window goes
}

void Trainer::Impl::create_network() {
  torch::manual_seed(seed);  // torch initialises weights from its global generator
  net = models::Network(arch);
  net->to(device);
  net->train();
  optimizer = models::make_optimizer(net, tc.optimizer);
  parameters = net->parameters();
  if (tc.average_decay > 0) {
    averaged = models::Network(arch);
    averaged->to(device);
    copy_weights(net, averaged);
  }
}

void Trainer::Impl::resume(const std::string& checkpoint) {
  const std::string kind(models::optimizer_name(tc.optimizer.kind));
  const models::CheckpointMeta meta = models::read_checkpoint_meta(checkpoint);
  models::AveragedWeights average{averaged ? &averaged : nullptr};
  if (!meta.optimizer.empty() && meta.optimizer != kind) {
    warn(checkpoint + ": holds " + meta.optimizer + " state but train.optimizer is " + kind +
         "; the weights are kept, the optimiser starts afresh");
    models::load_checkpoint(checkpoint, net, nullptr, {}, &average);
  } else {
    models::load_checkpoint(checkpoint, net, meta.optimizer.empty() ? nullptr : optimizer.get(), kind, &average);
  }
  if (averaged && !average.loaded) copy_weights(net, averaged);  // averaging starts here
  std::string where;
  state = saved_state(checkpoint, meta, where);
  if (state.seed != seed)
    warn(where + ": the run was trained with seed " + std::to_string(state.seed) + "; keeping it, not " +
         std::to_string(seed) + ", so that the batches go on as they were");
  current = checkpoint;
  checkpoint_step = state.step;
}

void Trainer::Impl::refresh() {
  steps_since_refresh = 0;
  bool changed = false;
  if (group) {
    // Rank 0 names the shards and every rank refreshes over its names: each scanning games/ on
    // its own, a shard finished between two ranks' scans gave them different windows.
    std::string listing;
    if (leader())
      for (const std::string& name : catalog->shard_names()) listing += name + '\n';
    listing = group->text_of_rank0(listing);
    std::vector<std::string> names;
    for (const std::string_view name : split(listing, '\n'))
      if (!name.empty()) names.emplace_back(name);
    changed = catalog->refresh(names);
  } else {
    changed = catalog->refresh();
  }
  if (!changed && window) return;
  window = Window::build(*catalog, window_sizes(), window.get());  // may mark shards bad: totals shrink
  state.positions_seen = catalog->total_positions();
  state.window_positions = window->size();
  state.window_shards = int64_t(window->num_shards());
  state.newest_shard = window->newest_shard();
}

// The bootstrap's pool kept apart once the others' positions suffice (TrainConfig::bootstrap_share).
bool Trainer::Impl::bootstrap_apart() const {
  return tc.bootstrap_share < 1 && catalog->bootstrap_positions() > 0 &&
         catalog->network_positions() >= tc.min_positions;
}

WindowSizes Trainer::Impl::window_sizes() const {
  if (!bootstrap_apart()) return {window_size(tc, catalog->total_positions()), 0};
  return {window_size(tc, catalog->network_positions()),
          tc.bootstrap_share > 0 ? window_size(tc, catalog->bootstrap_positions()) : 0};
}

// Samples a step draws from the others' window while the bootstrap's pool is kept apart.
int64_t Trainer::Impl::network_samples_per_step() const {
  Sampling sampling{.bootstrap_share = tc.bootstrap_share};
  return tc.batch_size - bootstrap_rows_in_batch(sampling, tc.batch_size, window ? window->pool_rows() : 0);
}

// The step the replay ratio lets training reach now. With the bootstrap kept apart it counts only
// the others' positions and the samples drawn from them (TrainerState::network_samples).
int64_t Trainer::Impl::steps_allowed() const {
  const int64_t total = catalog->total_positions();
  if (total < tc.min_positions || !window || window->size() == 0) return 0;
  if (!bootstrap_apart() || tc.replay_ratio <= 0) return allowed_steps(tc, total);
  const double room =
      std::floor(double(catalog->network_positions()) * tc.replay_ratio) - double(state.network_samples);
  return state.step + std::max<int64_t>(0, int64_t(room) / std::max<int64_t>(1, network_samples_per_step()));
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

void Trainer::Impl::use_training_threads() const {
  nn::set_torch_threads(tc.threads > 0 ? tc.threads : int(std::max(1u, std::thread::hardware_concurrency())));
}

// The held-out check (train/heldout.h) on the positions of shards newer than `trained_newest`.
void Trainer::Impl::score_fresh_games(const std::string& trained_newest) {
  if (!leader() || state.step == 0 || !window) return;
  const std::vector<int64_t> rows = fresh_rows(*window, trained_newest, tc.heldout_positions);
  if (rows.empty()) return;
  BatchSpec spec;
  spec.seed = state.seed;
  spec.batch_size = std::max(tc.batch_size, 256);
  spec.value_target_search = tc.value_target_search;
  const HeldoutReport report = score_heldout(played(), *window, rows, spec, device, arch.spec.action_space, state.step);
  const std::string path = paths.heldout_log();
  append_line(path, heldout_json(report, unix_now()));
  info(heldout_line(report));
}

int Trainer::Impl::train_capped(int max_steps, const std::atomic<bool>* stop) {
  use_training_threads();  // an evaluator of this process may have set its own count since
  const std::string trained_newest = state.newest_shard;
  refresh();
  score_fresh_games(trained_newest);
  const int64_t room = std::max<int64_t>(0, steps_allowed() - state.step);
  int n = int(std::min<int64_t>(max_steps, room));
  if (group) {  // the ranks step together; -1 from any rank: all stop
    const int64_t agreed = group->minimum(asked_to_stop(stop) ? -1 : n);
    if (agreed < 0) stop_agreed = true;
    n = int(std::max<int64_t>(agreed, 0));
  }
  int done = 0;
  for (; done < n && !stopping(stop); ++done) {
    if (steps_since_refresh >= tc.refresh_every) refresh();
    if (!window || window->size() == 0) break;  // every shard turned out damaged
    train_step(asked_to_stop(stop));
    if (state.step % tc.log_every == 0) write_metrics();
    if (state.step % tc.checkpoint_every == 0) save_checkpoint();
  }
  return done;
}

// `this_rank_stops`: this rank was asked to stop (with several ranks, said in the gradients' all-reduce).
void Trainer::Impl::train_step(bool this_rank_stops) {
  if (!loader->running_at(window.get(), state.step)) loader->start(window, state.step);
  const models::LossBatch batch = loader->next(state.step);
  const double lr = learning_rate_at(tc, state.step);
  models::set_learning_rate(*optimizer, lr);
  net->train();
  optimizer->zero_grad();
  torch::Tensor policy, wdl, moves_left;
  if (slices == 1) {
    models::Losses losses;
    {
      MixedPrecision::Guard autocast(*precision);
      const models::NetOutput out = net->forward(batch.input);
      losses = models::compute_losses(out, batch, tc.loss);
    }
    precision->backward_and_step(losses.total, *optimizer, parameters);
    policy = losses.policy.to(torch::kDouble), wdl = losses.wdl.to(torch::kDouble);
    moves_left = losses.moves_left.to(torch::kDouble);
  } else {
    const std::array<torch::Tensor, 3> heads = train_slices(batch, this_rank_stops);
    policy = heads[0], wdl = heads[1], moves_left = heads[2];
  }
  const double moves_left_weight = batch.moves_left.defined() ? tc.loss.moves_left : 0.0;
  const torch::Tensor total = tc.loss.policy * policy + tc.loss.wdl * wdl + moves_left_weight * moves_left;
  const torch::Tensor step_losses = torch::stack({total, policy, wdl, moves_left});
  Interval& i = interval;
  if (i.steps == 0) i.first_step = state.step;
  i.sums = i.steps == 0 ? step_losses : i.sums + step_losses;
  ++i.steps;
  if (averaged) move_average(averaged, net, average_decay(tc.average_decay, state.step));
  ++state.step;
  ++steps_since_refresh;
  state.samples += tc.batch_size;
  if (bootstrap_apart()) state.network_samples += network_samples_per_step();
}

// This rank's slices of `batch`, each a forward pass and a backward pass of its own, their
// gradients averaged here and over the ranks, then the optimiser's step. Returns this rank's
// mean per-head losses (double).
std::array<torch::Tensor, 3> Trainer::Impl::train_slices(const models::LossBatch& batch, bool this_rank_stops) {
  const int own = slices / dist.world_size;
  const int64_t rows = batch.input.size(0) / slices;
  std::array<torch::Tensor, 3> sums;
  for (int k = 0; k < own; ++k) {
    const int64_t first = (int64_t(dist.rank) * own + k) * rows;
    const auto cut = [&](const torch::Tensor& t) { return t.defined() ? t.narrow(0, first, rows) : t; };
    const models::LossBatch part{cut(batch.input), cut(batch.policy), cut(batch.policy_mask),
                                 cut(batch.legal), cut(batch.wdl),    cut(batch.moves_left)};
    models::Losses losses;
    {
      MixedPrecision::Guard autocast(*precision);
      losses = models::compute_losses(net->forward(part.input), part, tc.loss);
    }
    (losses.total / double(own)).backward();
    const std::array<torch::Tensor, 3> heads{losses.policy, losses.wdl, losses.moves_left};
    for (size_t h = 0; h < heads.size(); ++h) {
      const torch::Tensor mean = heads[h].to(torch::kDouble) / double(own);
      sums[h] = k == 0 ? mean : sums[h] + mean;
    }
  }
  if (group) {
    std::vector<torch::Tensor> grads;
    for (torch::Tensor& p : parameters) {
      if (!p.mutable_grad().defined()) p.mutable_grad() = torch::zeros_like(p);  // the same list on every rank
      grads.push_back(p.mutable_grad());
    }
    if (group->average(grads, this_rank_stops)) stop_agreed = true;
  }
  optimizer->step();
  return sums;
}

// The loss sums of the interval, read from the device (a wait), or zeros before its first step.
// Throws sz::Error when one is not finite: training diverged, and no checkpoint may keep it.
std::array<double, kLossSums> Trainer::Impl::interval_losses() const {
  std::array<double, kLossSums> sums{};
  if (interval.steps == 0) return sums;
  const torch::Tensor host = interval.sums.cpu();
  for (int k = 0; k < kLossSums; ++k) sums[size_t(k)] = host[k].item<double>();
  if (!std::isfinite(sums[kTotal]))
    throw Error("training diverged between step " + std::to_string(interval.first_step) + " and step " +
                std::to_string(state.step) + " (mean loss " + std::to_string(sums[kTotal] / double(interval.steps)) +
                "); the last checkpoint is " + (current.empty() ? "none" : current) + "; lower train.learning_rate");
  return sums;
}

void Trainer::Impl::write_metrics() {
  Interval& i = interval;
  if (i.steps == 0) return;
  const double seconds = std::chrono::duration<double>(Clock::now() - i.start).count();
  const std::array<double, kLossSums> sums = interval_losses();
  StepMetrics m;
  m.step = state.step;
  m.loss = sums[kTotal] / double(i.steps);
  m.policy = sums[kPolicy] / double(i.steps);
  m.wdl = sums[kWdl] / double(i.steps);
  m.moves_left = sums[kMovesLeft] / double(i.steps);
  m.learning_rate = learning_rate_at(tc, state.step - 1);
  m.samples_per_s = seconds > 0 ? double(i.steps * tc.batch_size) / seconds : 0;
  m.loader_wait = seconds > 0 ? (loader->wait_seconds() - i.wait_at_start) / seconds : 0;
  m.window = state.window_positions;
  m.window_shards = state.window_shards;
  m.positions_seen = state.positions_seen;
  m.samples = state.samples;
  // One line at a time (append_line: a reader never sees half a line for long, and a line left
  // unfinished by a killed trainer does not swallow this one). A full disk is an error here like
  // anywhere else, not metrics silently lost.
  if (leader()) append_line(paths.train_log(), metrics_json(m, unix_now()));
  interval = Interval{};
  interval.wait_at_start = loader->wait_seconds();
  if (hooks.on_metrics && leader()) hooks.on_metrics(m);
}

std::string Trainer::Impl::save_checkpoint() {
  if (state.step == checkpoint_step) return current;
  interval_losses();  // never a checkpoint of diverged weights
  state.loss_scale = precision->loss_scale;
  state.loss_scale_good_steps = precision->good_steps;
  const std::string name = rundir::checkpoint_file_name(state.step);
  const std::string path = paths.checkpoint(state.step);
  if (!leader()) {  // rank 0 writes it: the same weights
    current = path;
    checkpoint_step = state.step;
    return path;
  }
  std::error_code ec;
  if (fs::exists(path, ec))  // checkpoint_to_resume starts after every checkpoint there is
    throw Error(path + ": exists already; a trainer never writes over a checkpoint (resumed from " +
                (current.empty() ? "none" : current) + ")");
  models::CheckpointMeta meta;
  meta.step = state.step;
  meta.trainer_state = state_to_text(state);  // in the checkpoint: one file, written atomically
  if (window) meta.profiles = window->profiles();
  models::save_checkpoint(path, net, optimizer.get(), models::optimizer_name(tc.optimizer.kind), meta,
                          averaged ? &averaged : nullptr);
  rundir::write_current(paths.models(), name);
  current = path;
  checkpoint_step = state.step;
  rundir::prune_checkpoints(paths.models(), tc.keep_checkpoints);
  if (hooks.on_checkpoint) hooks.on_checkpoint(path);
  return path;
}

Trainer::Trainer(TrainerSetup setup, TrainerHooks hooks)
    : impl_(std::make_unique<Impl>(std::move(setup), std::move(hooks))) {}

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
  // With several ranks a stop is agreed in train_capped's collectives, never taken alone.
  while ((steps < 0 || done < steps) && !m.stopping(stop)) {
    const int64_t want = steps < 0 ? std::numeric_limits<int>::max() : steps - done;
    const int n = m.train_capped(int(std::min<int64_t>(want, std::numeric_limits<int>::max())), stop);
    done += n;
    if (n > 0) announced = false;
    if (n > 0 || m.stopping(stop) || (steps >= 0 && done >= steps)) continue;
    if (!announced) m.info(m.waiting_message());
    announced = true;
    const auto until = Clock::now() + std::chrono::duration<double>(m.tc.poll_seconds);
    while (Clock::now() < until && !m.asked_to_stop(stop)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (m.stop_agreed && !m.asked_to_stop(stop))
    m.info("rank " + std::to_string(m.dist.rank) + ": another rank was stopped; all stop together at step " +
           std::to_string(m.state.step));
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
