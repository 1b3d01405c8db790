#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "eval/arena.h"
#include "eval/match_report.h"
#include "eval/player_spec.h"
#include "eval/start_suite.h"
#include "games/registry.h"
#include "nn/evaluators.h"
#include "run/run_config.h"

namespace sz::cli {

namespace {

constexpr const char* kUsage = "sittuyin-zero arena --player SPEC --player SPEC [...] [options]";

constexpr const char* kAboutTop =
    R"(Plays a match between two players, or a round robin among more: every start position twice per
pairing, colours swapped. Prints score, W/D/L and the Elo difference with its 95% interval per
pairing, a Bradley-Terry fit with the random mover (else the first player) at 0 Elo, and each
player's wall time a move (CPU time only with no more games at once than cores).

Players (SPEC):
  model:PATH[,SEARCH...]     MCTS with a checkpoint
  uniform[,SEARCH...]        MCTS with a uniform prior and a zero value
  material[,SEARCH...]       MCTS with a uniform prior and a material-count value
    SEARCH settings: sims=N (default --sims); temp=T, the move-choice temperature on visit
    counts, every ply (default 0); and these, by default the config's search section:
)";

constexpr const char* kAboutPlayers = R"(  random                     a random legal mover
  fsf[:nodes=N|movetime=MS|depth=D][,skill=S][,elo=E][,option.NAME=VALUE...]
                             Fairy-Stockfish, found or installed (../shared/tools/fsf-uci);
                             nodes=1 unless a limit is given; skill: Skill Level 0..20; elo:
                             UCI_LimitStrength at UCI_Elo E; e.g. fsf:nodes=1
  uci:COMMAND[,option.NAME=VALUE...][,nodes=N|movetime=MS|depth=D]
                             an external UCI engine (default nodes=1000; no commas in COMMAND)
  any of them: ,name=NAME    how tables, PGN and JSON call it
               ,placement=network|random|fixed:FILE|book:FILE   how it places its men in
                             Sittuyin (default network: its own choice)

Options:
)";

struct ArenaArgs {
  std::vector<std::string> players;
  std::string starts, profile, out, sprt;
  ConfigFlags config;
  int max_starts = 0, rounds = 1, concurrency = 1, sims = 0, max_plies = 1000;
  int64_t seed = -1;
  bool quiet = false;
};

Flags arena_flags(ArenaArgs& a) {
  Flags f(kUsage, kAboutTop + eval::player_search_settings_help(/*indent=*/6) + kAboutPlayers);
  f.texts("--player", "SPEC", a.players, "a player (Players above), repeatable: at least two");
  f.text("--starts", "FILE", a.starts,
         "EPD/FEN start suite, one position per line (default: the start position), e.g. "
         "../shared/testdata/suites/starts-partial.epd");
  f.number("--max-starts", "N", a.max_starts, 1, 1'000'000, "only the first N positions of the suite");
  f.number("--rounds", "N", a.rounds, 1, 1'000'000, "passes over the starts (default 1)");
  f.text("--profile", "NAME", a.profile, "rule profile (default: the config's, sittuyin)");
  f.number("--concurrency", "N", a.concurrency, 1, 1024,
           "games at once, each with its own players and engine processes (default 1); more than the cores: a "
           "network's games share one batched evaluator");
  f.number("--sims", "N", a.sims, 1, 10'000'000,
           "default visits per move of MCTS players (default: search.full_visits)");
  f.number("--max-plies", "N", a.max_plies, 1, 1'000'000, "adjudicate a game still running as a draw (default 1000)");
  f.text("--sprt", "ELO0,ELO1[,ALPHA,BETA]", a.sprt,
         "two players: stop once H0 (elo <= ELO0) or H1 (elo >= ELO1) of the first player over the second is "
         "accepted (alpha, beta: 0.05)");
  f.number("--seed", "N", a.seed, 0, 2'000'000'000, "seeds every player's random choices (default: the config's)");
  f.text("--out", "DIR", a.out, "write DIR/games.pgn (every game) and DIR/results.json");
  f.config(a.config, "run config: search settings of MCTS players, inference of models");
  f.set("--quiet", a.quiet, "no line per game");
  return f;
}

}  // namespace

int arena_command(Args args) {
  ArenaArgs a;
  if (!arena_flags(a).parse(args)) return 0;
  if (a.players.size() < 2) throw Error("give at least two --player SPEC (see --help)");
  const run::RunConfig config = run_config_of(a.config);
  eval::MatchSpec spec;
  spec.profile = a.profile.empty() ? config.profile : a.profile;
  if (!a.starts.empty())
    spec.starts = eval::read_start_suite(a.starts, spec.profile, a.max_starts).take_or_throw("--starts");
  spec.rounds = a.rounds;
  spec.concurrency = a.concurrency;
  spec.max_plies = a.max_plies;
  spec.seed = a.seed >= 0 ? uint64_t(a.seed) : config.seed;
  if (!a.sprt.empty()) spec.sprt = eval::parse_sprt(a.sprt).take_or_throw("--sprt");
  const game::GameSpec game_spec = games::spec_for(spec.profile).take_or_throw("--profile");
  const eval::ModelLoader load_model = [&config, &game_spec, &spec](const std::string& model) {
    return nn::evaluator_factory(model, game_spec, config.inference, spec.concurrency);
  };
  spec.tables = run::config_tables(config);
  if (spec.tables)
    std::fprintf(stderr, "arena: the endgame tables in %s adjudicate the games and guide the MCTS players\n",
                 config.tables.dir.c_str());
  int anchor = -1;
  for (const std::string& text : a.players) {
    const eval::PlayerSpec player = eval::parse_player_spec(text).take_or_throw("--player");
    if (anchor < 0 && player.kind == eval::PlayerSpec::Kind::Random) anchor = int(spec.players.size());
    spec.players.push_back(eval::make_match_player(
        player, config.search, a.sims > 0 ? a.sims : config.search.full_visits, load_model, spec.tables));
    for (size_t i = 0; i + 1 < spec.players.size(); ++i)
      if (spec.players[i].name == spec.players.back().name)
        spec.players.back().name += "#" + std::to_string(spec.players.size());
  }
  spec.anchor = std::max(anchor, 0);
  if (!a.out.empty()) {
    std::filesystem::create_directories(a.out);
    spec.pgn_path = a.out + "/games.pgn";
  }
  if (!a.quiet) spec.on_game = eval::print_game_line;
  const std::atomic<bool>& stop = stop_on_interrupt();
  spec.stop = &stop;
  const eval::MatchResult result = eval::play_match(spec);
  std::fputs(eval::format_match_table(result).c_str(), stdout);
  if (!a.out.empty()) write_file_atomically(a.out + "/results.json", eval::match_json(result));
  return exit_status(stop);
}

}  // namespace sz::cli
