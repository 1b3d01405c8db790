#pragma once
// Players named on a command line (`sittuyin-zero arena --player SPEC`):
//   model:PATH[,SEARCH...]   MCTS with a checkpoint's network
//   uniform[,SEARCH...]      MCTS, uniform prior and zero value
//   material[,SEARCH...]     MCTS, uniform prior, material value
//     SEARCH: sims=N, temp=T, name=X, and the play settings by their player-spec keys
//     (search/play_settings.h: contempt=C, qs=W, qplies=N, full=N, hunt=H, win=N)
//   random[,name=X]                           a random legal mover, seeded per game
//   uci:COMMAND[,option.NAME=VALUE...][,nodes=N|movetime=MS|depth=D][,name=X]
//                                             an external UCI engine (COMMAND has no commas)
//   fsf[:nodes=N|movetime=MS|depth=D][,skill=S][,elo=E][,option.NAME=VALUE...][,name=X]
//                                             Fairy-Stockfish (fsf_engine.h), nodes=1 unless
//                                             a limit is given; skill: Skill Level 0..20; elo:
//                                             UCI_LimitStrength with UCI_Elo E
// Any of them: ,placement=network|random|fixed:FILE|book:FILE  how it places its men in Sittuyin
// (placement_control.h; network, its own choice, by default).
// sims defaults to the caller's budget; temp (move-choice temperature, every ply) to 0; a play
// setting to the caller's search config.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "eval/placement_control.h"
#include "eval/player.h"
#include "search/search_config.h"

namespace sz::eval {

struct PlayerSpec {
  enum class Kind { Model, Uniform, Material, Random, Uci, Fsf };
  Kind kind = Kind::Uniform;
  std::string text;     // as given
  std::string name;     // name=..., else `text`
  std::string model;    // Kind::Model: the checkpoint path
  int simulations = 0;  // 0: the caller's default
  float temperature = 0;
  // The play settings given (search::play_settings), KEY and VALUE as written, in order; each
  // checked when parsed. player_search() applies them.
  std::vector<std::pair<std::string, std::string>> search_settings;
  UciPlayerOptions uci;        // Kind::Uci and Kind::Fsf (whose command is found when played)
  PlacementControl placement;  // placement=...
};

// Strict: an unknown kind or setting, or a bad number, is an error naming it.
Result<PlayerSpec> parse_player_spec(std::string_view text);

// `search` with the spec's play settings on top: the search of an MCTS player.
search::SearchConfig player_search(const PlayerSpec& spec, search::SearchConfig search);

// The help of the play settings' keys, one entry each (`qs=0..1`, the config key it replaces,
// what it does), indented by `indent`: for `arena --help`.
std::string player_search_settings_help(size_t indent);

// The match player for `spec`: MCTS players search with `search` and `default_simulations`
// visits unless the spec says otherwise; `load_model` is called once per model player. An fsf
// player finds (or installs) Fairy-Stockfish here: throws sz::Error naming the spec if it cannot.
// `tables` (null: none) go to the MCTS players (MctsPlayerOptions::tables).
MatchPlayer make_match_player(const PlayerSpec& spec, const search::SearchConfig& search, int default_simulations,
                              const ModelLoader& load_model,
                              std::shared_ptr<const game::EndgameTables> tables = nullptr);

}  // namespace sz::eval
