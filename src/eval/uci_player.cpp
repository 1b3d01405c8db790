// An external UCI engine as an arena player (Fairy-Stockfish, or our own `sittuyin-zero uci`).
// The engine gets the whole game on every move (`position fen <start> moves ...`), as cutechess
// does, so it never depends on state kept between moves.
#include <algorithm>
#include <chrono>

#include "core/split.h"
#include "eval/player.h"
#include "eval/uci_process.h"

namespace sz::eval {

namespace {

// The values of `option name UCI_Variant type combo default D var A var B ...`.
std::vector<std::string> combo_values(const std::string& line) {
  const std::vector<std::string_view> w = split_words(line);
  std::vector<std::string> values;
  for (size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == "var") values.emplace_back(w[i + 1]);
  return values;
}

bool has_option(const UciPlayerOptions& o, std::string_view name) {
  return std::any_of(o.options.begin(), o.options.end(), [&](const auto& kv) { return kv.first == name; });
}

class UciPlayer final : public Player {
 public:
  explicit UciPlayer(const UciPlayerOptions& options) : options_(options) {
    if (options_.nodes > 0)
      go_ = "go nodes " + std::to_string(options_.nodes);
    else if (options_.movetime_ms > 0)
      go_ = "go movetime " + std::to_string(options_.movetime_ms);
    else if (options_.depth > 0)
      go_ = "go depth " + std::to_string(options_.depth);
    else
      go_ = "go nodes 1000";
  }

  void new_game(const game::GameState& start, uint64_t /*seed*/) override {
    const std::string profile(start.profile());
    if (!process_ || dead_)
      launch(profile, start.spec().game);
    else if (profile != profile_)
      choose_variant(profile, start.spec().game);
    try {
      process_->send("ucinewgame");
      process_->send("isready");
      process_->wait_for("readyok", options_.start_timeout_s);
    } catch (const Error& e) {
      dead_ = true;
      throw;
    }
  }

  Result<game::ActionId> choose_move(const GameView& view) override {
    if (!process_ || dead_) return fail(options_.name + ": the engine is not running");
    std::string position = "position fen " + view.start.to_string();
    if (!view.uci_moves.empty()) position += " moves";
    for (const std::string& m : view.uci_moves) position += " " + m;
    std::string answer, complaint;
    try {
      process_->send(position);
      process_->send(go_);
      answer = await_bestmove(complaint);
    } catch (const Error& e) {
      dead_ = true;
      return fail(e.what());
    }
    // An engine that says it rejected our position (ours does) searched some other position.
    if (!complaint.empty()) return fail(options_.name + " rejected the position: " + complaint);
    const std::vector<std::string_view> w = split_words(answer);
    if (w.size() < 2 || w[1] == "(none)" || w[1] == "0000")
      return fail(options_.name + " found no move ('" + answer + "') in " + view.current.to_string());
    auto action = view.current.parse_action(w[1]);
    if (!action) return fail(options_.name + " played an illegal move: " + action.error());
    return *action;
  }

  bool usable() const override { return !dead_; }

 private:
  void launch(const std::string& profile, const std::string& game) {
    process_.reset();  // the old process, if any, is told to quit first
    dead_ = true;
    process_ = std::make_unique<UciProcess>(options_.command, options_.name);
    process_->send("uci");
    variants_.clear();
    for (;;) {
      const std::string line = process_->read_line(options_.start_timeout_s);
      if (line.starts_with("option name UCI_Variant ")) variants_ = combo_values(line), offers_variant_ = true;
      if (line == "uciok" || line.starts_with("uciok ")) break;
    }
    for (const auto& [name, value] : options_.options) process_->send("setoption name " + name + " value " + value);
    profile_.clear();
    choose_variant(profile, game);
    process_->send("isready");
    for (;;) {  // a rejected option fails the match now, not as a forfeit in every game
      const std::string line = process_->read_line(options_.start_timeout_s);
      if (line == "readyok") break;
      if (line.starts_with("info string error") || line.starts_with("No such option"))
        throw Error(options_.name + ": `" + options_.command + "` rejected its set-up: " + line);
    }
    dead_ = false;
  }

  // Reads up to `bestmove`, keeping the first `info string error` line in `complaint`.
  std::string await_bestmove(std::string& complaint) {
    const double limit = options_.movetime_ms / 1000.0 + options_.move_timeout_s;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
    for (;;) {
      const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) throw Error(options_.name + ": no bestmove within " + std::to_string(limit) + " s");
      std::string line = process_->read_line(left);
      if (line.starts_with("bestmove")) return line;
      if (complaint.empty() && line.starts_with("info string error")) complaint = line;
    }
  }

  // Sends UCI_Variant unless the user set it: the profile's name if the engine knows it, else the
  // game's (FSF knows "sittuyin" and "shatranj", not our other profiles).
  void choose_variant(const std::string& profile, const std::string& game) {
    profile_ = profile;
    if (!offers_variant_ || has_option(options_, "UCI_Variant")) return;
    const auto known = [&](const std::string& v) {
      return std::find(variants_.begin(), variants_.end(), v) != variants_.end();
    };
    const std::string variant = known(profile) ? profile : game;
    if (!known(variant))
      throw Error(options_.name + ": the engine's UCI_Variant does not offer '" + profile + "' or '" + game + "'");
    process_->send("setoption name UCI_Variant value " + variant);
  }

  UciPlayerOptions options_;
  std::string go_;
  std::unique_ptr<UciProcess> process_;
  bool dead_ = false;
  bool offers_variant_ = false;
  std::vector<std::string> variants_;
  std::string profile_;  // the profile the engine was set up for
};

}  // namespace

PlayerFactory uci_player_factory(const UciPlayerOptions& options) {
  return [options](int) -> std::unique_ptr<Player> { return std::make_unique<UciPlayer>(options); };
}

}  // namespace sz::eval
