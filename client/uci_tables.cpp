#include "client/uci_tables.h"

#include <algorithm>
#include <sstream>

#include "games/chaturanga/state.h"

namespace sz::client {

namespace {

std::vector<std::string> words(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::unique_ptr<game::GameState> new_state(const chaturanga::RuleProfile& rules, const std::string& fen) {
  if (fen.empty()) return std::make_unique<chaturanga::State>(chaturanga::Position::start(rules));
  auto pos = chaturanga::Position::from_fen(fen, rules);
  if (!pos) return nullptr;
  return std::make_unique<chaturanga::State>(*pos);
}

// "score mate N" (moves, as UCI counts them) or "score cp 0".
std::string score_of(const game::TableResult& r) {
  if (r.verdict == game::TableVerdict::Draw) return "score cp 0";
  const int moves = (r.plies_to_end + 1) / 2;
  return "score mate " + std::to_string(r.verdict == game::TableVerdict::Win ? moves : -moves);
}

}  // namespace

UciTables::UciTables(std::shared_ptr<const Bundle> bundle)
    : bundle_(std::move(bundle)), variant_(bundle_->profiles.front().get()), state_(new_state(*variant_, "")) {}

std::optional<std::vector<std::string>> UciTables::intercept(std::string_view line, bool engine_busy) {
  const std::vector<std::string> tokens = words(line);
  if (tokens.empty()) return std::nullopt;
  if (tokens[0] == "setoption" && tokens.size() >= 5 && tokens[1] == "name" && tokens[2] == "UCI_Variant" &&
      tokens[3] == "value") {
    if (const chaturanga::RuleProfile* p = bundle_->profile(tokens[4])) {
      variant_ = p;
      state_ = new_state(*variant_, "");
    }
  } else if (tokens[0] == "ucinewgame") {
    state_ = new_state(*variant_, "");
  } else if (tokens[0] == "position" && !engine_busy) {
    follow_position(tokens);
  } else if (tokens[0] == "go" && !engine_busy) {
    return answer_go(tokens);
  }
  return std::nullopt;
}

void UciTables::follow_position(const std::vector<std::string>& tokens) {
  size_t i = 1;
  std::string fen;
  if (i < tokens.size() && tokens[i] == "fen")
    for (++i; i < tokens.size() && tokens[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + tokens[i];
  else if (i < tokens.size() && tokens[i] == "startpos")
    ++i;
  state_ = new_state(*variant_, fen);
  if (i < tokens.size() && tokens[i] == "moves")
    for (++i; state_ && i < tokens.size(); ++i) {
      const auto action = state_->parse_action(tokens[i]);
      game::ActionId legal[game::kMaxActions];
      const int n = state_->legal_actions(legal);
      if (!action || std::find(legal, legal + n, *action) == legal + n)
        state_.reset();  // the engine names it
      else
        state_->apply(*action);
    }
}

std::optional<std::vector<std::string>> UciTables::answer_go(const std::vector<std::string>& tokens) {
  for (const std::string& t : tokens)
    if (t == "infinite" || t == "ponder" || t == "perft") return std::nullopt;  // the engine's: bestmove after stop
  const game::EndgameTables* tables = state_ ? bundle_->tables_for(variant_) : nullptr;
  if (!tables || state_->outcome().over()) return std::nullopt;
  const auto value = tables->probe(*state_);
  game::ActionId best[game::kMaxActions];
  const int n = value ? tables->best_actions(*state_, best) : 0;
  if (n == 0) return std::nullopt;
  const std::string move = state_->action_to_string(best[0]);
  return std::vector<std::string>{"info depth 1 " + score_of(*value) + " nodes 0 pv " + move +
                                      " string endgame tables: " + std::to_string(value->plies_to_end) +
                                      " plies to the end" + (value->plies_exact ? "" : " at least"),
                                  "bestmove " + move};
}

}  // namespace sz::client
