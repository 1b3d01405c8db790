// The UCI command loop: options, positions, go. The search thread is in uci_search.cpp.
#include "uci/uci_engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <type_traits>

#include "core/help_text.h"
#include "core/parse_number.h"
#include "core/shown_text.h"
#include "core/split.h"

namespace sz::uci {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string join(std::span<const std::string> words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

Result<int64_t> parse_int(std::string_view what, std::string_view text, int64_t lo, int64_t hi) {
  const std::optional<int64_t> v = parse_number<int64_t>(text);
  if (!v || *v < lo || *v > hi)
    return fail(std::string(what) + " wants a whole number in " + std::to_string(lo) + ".." + std::to_string(hi) +
                ", not '" + shown_text(text) + "'");
  return *v;
}

// A play setting's value as its UCI option shows it: times the option's scale (100: percent).
template <typename T>
int64_t option_value(T value, int scale) {
  return int64_t(std::llround(value * scale));
}

// The play settings' option lines.
class PlayOptionLines {
 public:
  template <typename T, typename N>
  void setting(const search::PlaySetting& s, const T& field, N lo, N hi) {
    lines.push_back("option name " + std::string(s.uci) + " type spin default " +
                    std::to_string(option_value(field, s.uci_scale)) + " min " +
                    std::to_string(option_value(lo, s.uci_scale)) + " max " +
                    std::to_string(option_value(hi, s.uci_scale)));
  }
  std::vector<std::string> lines;
};

// Sets the play setting whose option is `key` (lower case) from `value`, a whole number in the
// option's range; found() tells whether one was.
class PlayOptionSetter {
 public:
  PlayOptionSetter(const std::string& key, const std::string& name, const std::string& value)
      : key_(key), name_(name), value_(value) {}
  bool found() const { return found_; }
  const std::string& error() const { return error_; }

  template <typename T, typename N>
  void setting(const search::PlaySetting& s, T& field, N lo, N hi) {
    if (lower(s.uci) != key_) return;
    found_ = true;
    auto v = parse_int("option '" + name_ + "'", value_, option_value(lo, s.uci_scale), option_value(hi, s.uci_scale));
    if (!v)
      error_ = v.error();
    else if constexpr (std::is_integral_v<T>)
      field = T(*v);
    else
      field = T(*v) / T(s.uci_scale);
  }

 private:
  const std::string& key_;
  const std::string& name_;
  const std::string& value_;
  bool found_ = false;
  std::string error_;
};

// The help of one play setting's option: its range, what it defaults to, what it does.
class PlayOptionHelp {
 public:
  PlayOptionHelp(std::string_view section, std::string_view defaults_name)
      : section_(section), defaults_name_(defaults_name) {}
  template <typename T, typename N>
  void setting(const search::PlaySetting& s, const T& field, N lo, N hi) {
    const std::string scale = s.uci_scale == 1 ? "" : " x " + std::to_string(s.uci_scale);
    text += help_entry(s.uci,
                       std::to_string(option_value(lo, s.uci_scale)) + ".." +
                           std::to_string(option_value(hi, s.uci_scale)) + ", default " + section_ + "." + s.key +
                           scale + " (" + std::to_string(option_value(field, s.uci_scale)) + " under " +
                           defaults_name_ + "): " + s.help,
                       /*indent=*/2, /*column=*/20);
  }
  std::string text;

 private:
  std::string section_, defaults_name_;
};

}  // namespace

std::vector<std::string> play_option_lines(const search::SearchConfig& search) {
  PlayOptionLines options;
  search::play_settings(options, search);
  return options.lines;
}

std::string play_options_help(const search::SearchConfig& search, std::string_view section,
                              std::string_view defaults_name) {
  PlayOptionHelp help(section, defaults_name);
  search::play_settings(help, search);
  return help.text;
}

StrengthSetting strength_setting(int level, int simulations) {
  level = std::clamp(level, 0, kMaxStrength);
  const double visits = std::ldexp(double(simulations), level - kMaxStrength);
  return {std::max(1, int(std::lround(visits))), 0.1f * float(kMaxStrength - level)};
}

int q_to_centipawns(float q) {
  const double clamped = std::clamp(double(q), -1.0, 1.0);
  return int(std::lround(290.680623072 * std::tan(1.548090806 * clamped)));
}

Result<GoLimits> parse_go(std::span<const std::string> tokens) {
  GoLimits g;
  constexpr int64_t kBig = int64_t(1) << 40;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "infinite") {
      g.infinite = true;
      continue;
    }
    if (t == "ponder" || t == "searchmoves" || t == "mate") return fail("go: '" + t + "' is not supported");
    static constexpr std::array<std::string_view, 8> kValued = {"nodes", "movetime", "wtime",     "btime",
                                                                "winc",  "binc",     "movestogo", "depth"};
    if (std::find(kValued.begin(), kValued.end(), t) == kValued.end())
      return fail("go: unknown token '" + shown_text(t) + "'");
    if (i + 1 >= tokens.size()) return fail("go: '" + t + "' needs a value");
    // A negative clock is refused, not read as 0: time the engine does not have is no limit it
    // can keep, and a GUI that sends one has lost the game on time already.
    auto v = parse_int("go " + t, tokens[++i], t == "nodes" || t == "depth" ? 1 : 0, kBig);
    if (!v) return fail(v.error());
    const int64_t x = *v;
    if (t == "nodes")
      g.nodes = x;
    else if (t == "movetime")
      g.movetime_ms = x;
    else if (t == "wtime")
      g.time_ms[0] = x;
    else if (t == "btime")
      g.time_ms[1] = x;
    else if (t == "winc")
      g.increment_ms[0] = x;
    else if (t == "binc")
      g.increment_ms[1] = x;
    else if (t == "movestogo")
      g.movestogo = int(std::min<int64_t>(x, 1'000'000));
    else
      g.depth = int(std::min<int64_t>(x, 1'000'000'000));
  }
  return g;
}

int64_t allot_time_ms(int64_t time_left_ms, int64_t increment_ms, int movestogo, int64_t overhead_ms) {
  const int64_t left = std::max<int64_t>(time_left_ms, 0);
  const int moves = movestogo > 0 ? std::min(movestogo, 50) : 30;
  const double share = double(left) / moves + 0.75 * double(increment_ms);
  const double cap = double(left) * (movestogo == 1 ? 0.9 : 0.5);
  return std::max<int64_t>(int64_t(std::min(share, cap)) - overhead_ms, 1);
}

std::span<const UciEngine::SpinOption> UciEngine::spin_options() {
  static constexpr SpinOption kOptions[] = {
      {"Simulations", 800, 1, 100'000'000, &UciEngine::simulations_},
      {"Threads", 1, 1, 256, &UciEngine::threads_},
      {"Strength", kMaxStrength, 0, kMaxStrength, &UciEngine::strength_},
      {"Move Overhead", 30, 0, 5000, &UciEngine::move_overhead_ms_},
      {"Hash", 1024, 1, 1 << 20, &UciEngine::hash_mb_},
  };
  return kOptions;
}

UciEngine::UciEngine(std::ostream& out, UciGames games, EngineModelLoader load_model,
                     const search::SearchConfig& search)
    : out_(out), games_offered_(std::move(games)), load_model_(std::move(load_model)), search_config_(search) {
  if (games_offered_.variants.empty() || !games_offered_.new_game) throw Error("the UCI engine was given no games");
  variant_ = games_offered_.variants.front();
  for (const SpinOption& o : spin_options()) this->*o.field = o.default_value;
  // Timed searches run in chunks of simulations, which Gumbel's sequential halving cannot plan.
  search_config_.root_selection = search::RootSelection::Puct;
  search_config_.tree_reuse = true;
  evaluator_ = std::make_unique<search::UniformEvaluator>();
  reset_position();
  if (games_offered_.load_tables) set_tables(games_offered_.tables_dir);
}

UciEngine::~UciEngine() { stop_search(); }

void UciEngine::emit(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

void UciEngine::reap() {
  if (!busy_ && worker_.joinable()) worker_.join();
}

void UciEngine::wait() {
  if (worker_.joinable()) worker_.join();
}

void UciEngine::stop_search() {
  {
    std::lock_guard lock(stop_mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  wait();
}

void UciEngine::run(std::istream& in) {
  // std::cin is tied to std::cout: each read would flush it, outside out_mutex_, while the
  // search thread writes. Lines are flushed one by one anyway.
  in.tie(nullptr);
  std::string line;
  while (std::getline(in, line)) {
    if (!handle(line)) return;
  }
  if (busy_ && infinite_) stop_search();
  wait();
}

bool UciEngine::handle(std::string_view line) {
  const std::vector<std::string_view> views = split_words(line);
  const std::vector<std::string> words(views.begin(), views.end());
  if (words.empty()) return true;
  const std::string& cmd = words[0];
  const std::span<const std::string> args = std::span(words).subspan(1);
  reap();
  if (cmd == "quit") {
    stop_search();
    return false;
  }
  if (cmd == "stop")
    stop_search();
  else if (cmd == "isready")
    emit("readyok");
  else if (cmd == "uci")
    cmd_uci();
  else if (cmd == "debug" || cmd == "register" || cmd == "ponderhit")
    return true;  // nothing to do
  else if (cmd == "d")
    cmd_display();
  else if (cmd != "setoption" && cmd != "ucinewgame" && cmd != "position" && cmd != "go")
    error("unknown command '" + shown_text(cmd) + "'");
  else if (busy_)
    error("'" + cmd + "' while searching: send 'stop' first");
  else if (cmd == "setoption")
    cmd_setoption(args);
  else if (cmd == "ucinewgame")
    ++games_, search_start_.clear(), reset_position();
  else if (cmd == "position")
    cmd_position(args);
  else
    cmd_go(args);
  return true;
}

void UciEngine::cmd_uci() {
  emit("id name " + games_offered_.name);
  emit("id author the sittuyin-zero authors");
  std::string variants = "option name UCI_Variant type combo default " + games_offered_.variants.front();
  for (const std::string& p : games_offered_.variants) variants += " var " + p;
  emit(variants);
  emit("option name Model type string default <empty>");
  for (const SpinOption& o : spin_options())
    emit("option name " + std::string(o.name) + " type spin default " + std::to_string(o.default_value) + " min " +
         std::to_string(o.lo) + " max " + std::to_string(o.hi));
  for (const std::string& option : play_option_lines(search_config_)) emit(option);
  if (games_offered_.load_tables)
    emit("option name TablesPath type string default " +
         (games_offered_.tables_dir.empty() ? std::string("<empty>") : games_offered_.tables_dir));
  emit("uciok");
}

// setoption name <name, may have spaces> [value <value, may have spaces>]
void UciEngine::cmd_setoption(std::span<const std::string> tokens) {
  if (tokens.empty() || tokens[0] != "name")
    return error("setoption: expected 'name', as in 'setoption name Simulations value 400'");
  const auto value_at = std::find(tokens.begin(), tokens.end(), "value");
  const std::string name = join(std::span(tokens.begin() + 1, value_at));
  if (name.empty()) return error("setoption: the option name is missing");
  const std::string value = value_at == tokens.end() ? "" : join(std::span(value_at + 1, tokens.end()));
  set_option(name, value);
}

void UciEngine::set_option(const std::string& name, const std::string& value) {
  const std::string key = lower(name);
  const auto spin = [&](int lo, int hi, int& field) {
    auto v = parse_int("option '" + name + "'", value, lo, hi);
    if (!v) return error(v.error());
    field = int(*v);
  };
  if (key == "uci_variant") return set_variant(value);
  if (key == "model") return set_model(value == "<empty>" ? "" : value, threads_);
  if (key == "tablespath" && games_offered_.load_tables) return set_tables(value == "<empty>" ? "" : value);
  // The play settings; the next search starts with the new setting.
  PlayOptionSetter play(key, name, value);
  search::play_settings(play, search_config_);
  if (play.found()) {
    if (!play.error().empty()) error(play.error());
    search_.reset();
    return;
  }
  for (const SpinOption& o : spin_options()) {
    if (key != lower(o.name)) continue;
    int v = this->*o.field;
    spin(o.lo, o.hi, v);
    // Threads: a loaded model is loaded again with its new number of inference threads.
    if (o.field == &UciEngine::threads_ && v != threads_ && !model_.empty()) set_model(model_, v);
    this->*o.field = v;
    return;
  }
  error("unknown option '" + shown_text(name) + "'");
}

void UciEngine::set_variant(const std::string& value) {
  auto state = games_offered_.new_game(value, "");
  if (!state) return error("option 'UCI_Variant': " + shown_text(value) + ": " + state.error());
  const bool other_game = (*state)->spec().game != start_->spec().game;
  variant_ = value;
  search_start_.clear();
  reset_position();
  emit("info string variant " + variant_ + " startpos " + start_->to_string());
  if (other_game && !model_.empty()) set_model(model_, threads_);  // a network reads one game's encoding
  if (games_offered_.load_tables) set_tables(tables_dir_);         // the variant's ending rules' tables
}

// The variant's tables in `dir` ("": none); a directory that holds none for it is no error (a
// GUI sets the path once for every variant), a damaged table is.
void UciEngine::set_tables(const std::string& dir) {
  tables_dir_ = dir;
  tables_.reset();
  search_.reset();  // its tree was searched without them, or with others
  if (dir.empty()) return;
  auto loaded = games_offered_.load_tables(variant_, dir);
  if (!loaded) return error("option 'TablesPath': " + loaded.error());
  tables_ = std::move(loaded).value();
}

// In a position of the tables `go` is answered at once with their best move (perfect play), with
// the verdict as a mate score; true when it was.
bool UciEngine::answer_from_tables() {
  if (!tables_) return false;
  const auto value = tables_->probe(*current_);
  std::array<game::ActionId, game::kMaxActions> best{};
  if (!value || tables_->best_actions(*current_, best) == 0) return false;
  const int moves = (value->plies_to_end + 1) / 2;
  const std::string score = value->verdict == game::TableVerdict::Draw  ? "cp 0"
                            : value->verdict == game::TableVerdict::Win ? "mate " + std::to_string(moves)
                                                                        : "mate -" + std::to_string(moves);
  const std::string move = current_->action_to_string(best[0]);
  emit("info depth 1 score " + score + " nodes 0 pv " + move + " string endgame tables: " +
       std::to_string(value->plies_to_end) + " plies to the end" + (value->plies_exact ? "" : " at least"));
  emit("bestmove " + move);
  return true;
}

void UciEngine::set_model(const std::string& model, int threads) {
  if (model.empty()) {
    evaluator_ = std::make_unique<search::UniformEvaluator>();
    model_.clear();
    return;
  }
  if (!load_model_) return error("option 'Model': this build cannot load networks");
  try {
    evaluator_ = load_model_(model, threads, start_->spec());
    model_ = model;
    search_start_.clear();  // the tree's values came from the old network
  } catch (const std::exception& e) {
    error("option 'Model': cannot load '" + shown_text(model) + "': " + e.what());
  }
}

void UciEngine::reset_position() {
  start_ = games_offered_.new_game(variant_, "").take_or_throw("variant");  // checked by set_variant
  current_ = start_->clone();
  moves_.clear();
}

// position startpos|fen <FEN> [moves m1 m2 ...]. A refused command is remembered until the next
// accepted one: `go` then answers `bestmove 0000` with the reason rather than search a position
// the GUI did not mean (cutechess-cli's games from `[-]` FENs were lost that way).
void UciEngine::cmd_position(std::span<const std::string> tokens) {
  refused_position_.clear();
  const std::string problem = set_position(tokens);
  if (problem.empty()) return;
  refused_position_ = problem;
  error(problem);
}

std::string UciEngine::set_position(std::span<const std::string> tokens) {
  if (tokens.empty() || (tokens[0] != "startpos" && tokens[0] != "fen"))
    return "position: expected 'startpos' or 'fen', not '" + (tokens.empty() ? std::string() : shown_text(tokens[0])) +
           "'";
  const auto moves_at = std::find(tokens.begin(), tokens.end(), "moves");
  const bool from_fen = tokens[0] == "fen";
  if (!from_fen && tokens.begin() + 1 != moves_at)
    return "position: unexpected '" + shown_text(tokens[1]) + "' after startpos";
  const std::string fen = from_fen ? join(std::span(tokens.begin() + 1, moves_at)) : "";
  if (from_fen && fen.empty()) return "position: 'fen' needs a FEN";
  auto start = games_offered_.new_game(variant_, fen);
  if (!start) return "position: bad FEN '" + shown_text(fen) + "': " + start.error();
  start_ = std::move(start).value();
  current_ = start_->clone();
  moves_.clear();
  if (moves_at == tokens.end()) return "";
  for (auto it = moves_at + 1; it != tokens.end(); ++it) {
    auto action = current_->parse_action(*it);
    if (!action) {
      return "position: move " + std::to_string(moves_.size() + 1) + " '" + shown_text(*it) +
             "' is not legal; the position stops before it: " + action.error();
    }
    current_->apply(*action);
    moves_.push_back(*action);
  }
  return "";
}

void UciEngine::cmd_display() {
  std::array<game::ActionId, game::kMaxActions> actions{};
  const int n = current_->legal_actions(actions);
  std::string legal;
  for (int i = 0; i < n; ++i) legal += " " + current_->action_to_string(actions[size_t(i)]);
  emit("info string variant " + variant_ + " fen " + current_->to_string());
  emit("info string legal" + legal);
  emit("info string outcome " + std::string(current_->outcome().reason));
}

UciEngine::SearchPlan UciEngine::plan_search(const GoLimits& limits) const {
  const StrengthSetting level = strength_setting(strength_, simulations_);
  SearchPlan plan;
  plan.temperature = level.temperature;
  if (limits.infinite) {
    plan.infinite = true;
    return plan;
  }
  if (limits.nodes > 0) plan.visits = limits.nodes;
  if (limits.depth > 0) plan.visits = plan.visits > 0 ? std::min<int64_t>(plan.visits, limits.depth) : limits.depth;
  if (limits.movetime_ms > 0) plan.time_ms = std::max<int64_t>(limits.movetime_ms - move_overhead_ms_, 1);
  const int side = current_->to_move() == game::Player::First ? 0 : 1;
  if (limits.time_ms[side] >= 0) {
    const int64_t t =
        allot_time_ms(limits.time_ms[side], limits.increment_ms[side], limits.movestogo, move_overhead_ms_);
    plan.time_ms = plan.time_ms > 0 ? std::min(plan.time_ms, t) : t;
  }
  if (plan.visits == 0 && plan.time_ms == 0) plan.visits = level.simulations;
  if (strength_ < kMaxStrength)
    plan.visits = plan.visits > 0 ? std::min<int64_t>(plan.visits, level.simulations) : level.simulations;
  return plan;
}

void UciEngine::cmd_go(std::span<const std::string> tokens) {
  auto limits = parse_go(tokens);
  if (!limits) return error(limits.error());
  std::array<game::ActionId, game::kMaxActions> actions{};
  if (current_->legal_actions(actions) == 0) {
    emit("info string no legal move (" + std::string(current_->outcome().reason) + ")");
    emit("bestmove (none)");
    return;
  }
  if (!refused_position_.empty()) {
    error("go: no position to search, the last 'position' was refused (" + refused_position_ + ")");
    emit("bestmove 0000");
    return;
  }
  if (current_->outcome().over()) return play_over_position();
  if (!limits->infinite && answer_from_tables()) return;
  const SearchPlan plan = plan_search(*limits);
  sync_search();
  stop_ = false;
  infinite_ = plan.infinite;
  busy_ = true;
  worker_ = std::thread([this, plan] { search_main(plan); });
}

// Makes search_'s root the current position, keeping the tree when the current position extends
// the searched one.
void UciEngine::sync_search() {
  const std::string start_fen = start_->to_string();
  const bool extends = !search_start_.empty() && search_start_ == start_fen && search_moves_.size() <= moves_.size() &&
                       std::equal(search_moves_.begin(), search_moves_.end(), moves_.begin());
  if (search_ && extends) {
    for (size_t i = search_moves_.size(); i < moves_.size(); ++i) search_->play(moves_[i]);
  } else {
    const uint64_t seed = (games_ + 1) * 0x9E3779B97F4A7C15ull;
    if (!search_)
      search_ = std::make_unique<search::GameSearch>(search_config_, *current_, seed);
    else
      search_->reset(*current_, seed);
    search_->set_tables(tables_.get());
    heuristics_ = games_offered_.heuristics ? games_offered_.heuristics(current_->spec().game) : nullptr;
    search_->set_heuristics(heuristics_);
  }
  search_start_ = start_fen;
  search_moves_ = moves_;
}

// The rules have ended the game (a claimable draw applied automatically) but a GUI still asks for
// a move: the search cannot run from an ended position, so the evaluator's first choice is played.
void UciEngine::play_over_position() {
  std::array<game::ActionId, game::kMaxActions> actions{};
  const int n = current_->legal_actions(actions);
  std::array<float, game::kMaxActions> priors{};
  search::EvalQuery query{current_.get(), std::span<const game::ActionId>(actions.data(), size_t(n))};
  search::EvalReply reply{};
  reply.priors = std::span<float>(priors.data(), size_t(n));
  evaluator_->evaluate(std::span(&query, 1), std::span(&reply, 1));
  const int best = int(std::max_element(priors.begin(), priors.begin() + n) - priors.begin());
  emit("info string the game is over here (" + std::string(current_->outcome().reason) +
       "); playing the evaluator's first choice");
  emit("bestmove " + current_->action_to_string(actions[size_t(best)]));
}

}  // namespace sz::uci
