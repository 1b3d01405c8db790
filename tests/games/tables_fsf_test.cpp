// The tables against Fairy-Stockfish's search (slow; skipped without node, npm or the registry).
// Random table positions with a short mate, a short loss or a draw, some with a count that leaves
// exactly the plies the mate needs or one fewer, go to FSF (`go depth 20`). Where FSF announces a
// mate, the tables must say the same side wins in the same number of moves; where it holds a
// draw (score 0), the tables must say draw. FSF's search is not exhaustive: a mate it does not
// see, or one it finds slower than the fastest (for either side to move: as the loser, FSF then
// reports a longer resistance), is counted, not failed; a faster one would fail. So is a mate on
// the count's last ply that FSF's search scores 0: FSF's own end-of-game test (mated at count
// 33 of 32 is mate: `go` on that position answers `mate 0`) and our rules core count it, but its
// search, depending on depth, does not.
// SZ_TABLES_FSF_SAMPLES scales the positions per material (default 6); SZ_TABLES_FSF_DIR names a
// folder of all tables to check more materials (khon and four-men ones) than the test builds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>

#include "eval/fsf_engine.h"
#include "eval/uci_process.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/tables/probe.h"
#include "tables_fixture.h"

namespace sz::chaturanga::tables {
namespace {

struct Sample {
  std::string fen;
  game::TableResult table;
  bool last_ply = false;  // a count leaves exactly the plies of the mate: mated on its last ply
};

// FSF's last score: a mate in `mate` moves (negative: mated), or `cp` centipawns.
struct FsfScore {
  bool is_mate = false;
  int mate = 0, cp = 0;
};

FsfScore ask(eval::UciProcess& fsf, const std::string& fen) {
  fsf.send("position fen " + fen);
  fsf.send("go depth 20");
  FsfScore score;
  for (;;) {
    const std::string line = fsf.read_line(120);
    if (line.rfind("bestmove", 0) == 0) return score;
    std::istringstream in(line);
    std::string word;
    while (in >> word)
      if (word == "score") {
        std::string kind;
        int value = 0;
        in >> kind >> value;
        score = {kind == "mate", kind == "mate" ? value : 0, kind == "cp" ? value : 0};
      }
  }
}

int moves_of(const game::TableResult& r) { return (r.plies_to_end + 1) / 2; }

// The tables to check: SZ_TABLES_FSF_DIR (a folder of `tables build`, for a record run over more
// materials), else the test's own.
std::shared_ptr<const TableSet> tables_of(const std::string& profile) {
  const char* dir = std::getenv("SZ_TABLES_FSF_DIR");
  if (!dir) return testing::shared_set(profile);
  return load_table_set(dir, ending_rules(*rule_profile(profile).take_or_throw(profile)));
}

// `pos` with the colours exchanged and the board flipped top to bottom: the same value, probed
// through the other orientation of its table.
Position mirrored(const Position& pos) {
  Piece pieces[kMaxMen];
  Square squares[kMaxMen];
  int n = 0;
  for (board8::Bitboard b = pos.pieces(); b;) {
    const Square sq = board8::pop_lsb(b);
    pieces[n] = make_piece(~color_of(pos.piece_on(sq)), type_of(pos.piece_on(sq)));
    squares[n++] = Square(sq ^ 56);
  }
  const Position flipped = Position::from_men(pos.rules(), ~pos.side_to_move(), pieces, squares, n);
  return Position::from_fen(flipped.fen(), pos.rules()).take_or_throw();
}

// Random positions of `material` with a short decisive value or a draw, `per_kind` of each kind;
// every other one mirrored.
std::vector<Sample> samples(const std::string& profile, const std::string& material, int per_kind, uint64_t seed) {
  const RuleProfile& rules = *rule_profile(profile).take_or_throw(profile);
  const auto set = tables_of(profile);
  const Layout layout(parse_material(material, rules.game).take_or_throw(material).canonical_form());
  std::mt19937_64 rng(seed);
  std::vector<Sample> out;
  int wins = 0, losses = 0, draws = 0;
  for (int tries = 0; tries < 2'000'000 && (wins < per_kind || losses < per_kind || draws < per_kind); ++tries) {
    Square sq[kMaxMen];
    Color stm;
    if (!layout.decode(rng() % layout.size(), sq, stm)) continue;
    Piece pieces[kMaxMen];
    for (int s = 0; s < layout.men(); ++s) pieces[s] = layout.piece(s);
    const Position placed = Position::from_men(rules, stm, pieces, sq, layout.men());
    if (!placed.pos_is_ok()) continue;
    const Position fresh = Position::from_fen(placed.fen(), rules).take_or_throw();
    const Position pos = (wins + losses + draws) % 2 ? mirrored(fresh) : fresh;
    if (adjudicate(pos, {}).over()) continue;
    const auto r = probe(*set, pos);
    const bool is_short = r && r->plies_to_end >= 1 && r->plies_to_end <= 11 && r->plies_exact;
    int& kind = !r                                       ? draws
                : r->verdict == game::TableVerdict::Win  ? wins
                : r->verdict == game::TableVerdict::Loss ? losses
                                                         : draws;
    if (!r || kind >= per_kind || (r->verdict != game::TableVerdict::Draw && !is_short)) continue;
    ++kind;
    out.push_back({pos.fen(), *r});
  }
  return out;
}

// Sittuyin K+R vs K with a count running that leaves the mate exactly its plies, or one fewer.
std::vector<Sample> counted_samples(int per_kind) {
  const RuleProfile& rules = *rule_profile("sittuyin").take_or_throw();
  const auto set = testing::shared_set("sittuyin");
  std::vector<Sample> out;
  for (const Sample& s : samples("sittuyin", "KRvK", per_kind, 5)) {
    if (s.table.verdict != game::TableVerdict::Win || s.table.plies_to_end < 3) continue;
    const std::string board = s.fen.substr(0, s.fen.find(" - "));
    for (int slack : {0, -1}) {
      const int ply = 33 - (s.table.plies_to_end + slack);
      const std::string fen = board + " - 32 " + std::to_string(ply) + " 30";
      const auto r = probe(*set, Position::from_fen(fen, rules).take_or_throw(fen));
      out.push_back({fen, *r, slack == 0});
    }
  }
  return out;
}

struct Tally {
  int mates_agree = 0, draws_agree = 0, fsf_slower = 0, fsf_unresolved = 0, differ = 0;
  int last_ply_drawn = 0;  // FSF's search drew a mate that the count's last ply allows
};

void compare(const Sample& s, const FsfScore& f, Tally& t) {
  const game::TableVerdict v = s.table.verdict;
  if (f.is_mate) {
    const bool same_side = (f.mate > 0) == (v == game::TableVerdict::Win) && v != game::TableVerdict::Draw;
    const int fsf_moves = std::abs(f.mate);
    if (same_side && fsf_moves == moves_of(s.table))
      ++t.mates_agree;
    else if (same_side && fsf_moves > moves_of(s.table))
      ++t.fsf_slower;  // FSF's mating side found a slower mate
    else if (++t.differ <= 10)
      ADD_FAILURE() << s.fen << ": FSF mate " << f.mate << ", tables verdict " << int(v) << " in " << moves_of(s.table);
  } else if (f.cp == 0) {
    if (v == game::TableVerdict::Draw)
      ++t.draws_agree;
    else if (s.last_ply)
      ++t.last_ply_drawn;
    else if (++t.differ <= 10)
      ADD_FAILURE() << s.fen << ": FSF holds a draw, tables verdict " << int(v);
  } else {
    ++t.fsf_unresolved;
  }
}

TEST(TablesFsf, AgreeWhereFsfAnnouncesAMateOrHoldsADraw) {
  setenv("SZ_FSF_DIR", (std::string(SZ_TEST_WORK_DIR) + "/fsf-npm").c_str(), /*overwrite=*/0);
  const auto command = eval::fsf_command();
  if (!command) GTEST_SKIP() << command.error();
  const char* scale = std::getenv("SZ_TABLES_FSF_SAMPLES");
  const int per_kind = scale ? std::max(1, std::atoi(scale)) : 6;
  std::vector<std::pair<std::string, std::vector<std::string>>> plan = {
      {"sittuyin", {"KRvK", "KSvK", "KRvKN"}}, {"shatranj", {"KRvK", "KQvK", "KBvK", "KRvKN"}}};
  if (std::getenv("SZ_TABLES_FSF_DIR")) {
    for (const char* m : {"KRSvK", "KSFvK", "KSNvK", "KSSvK", "KRvKS", "KRvKF", "KRvKR", "KNFvK", "KSvKS"})
      plan[0].second.push_back(m);
    for (const char* m : {"KRvKB", "KRvKQ", "KBvKQ", "KQvKQ", "KNvKB"}) plan[1].second.push_back(m);
  }
  Tally tally;
  int asked = 0;
  for (const auto& [profile, materials] : plan) {
    eval::UciProcess fsf(*command, "fsf");
    fsf.send("uci");
    fsf.wait_for("uciok", 120);
    fsf.send("setoption name UCI_Variant value " + profile);
    std::vector<Sample> all;
    for (const std::string& m : materials)
      for (const Sample& s : samples(profile, m, per_kind, 17)) all.push_back(s);
    if (profile == "sittuyin")
      for (const Sample& s : counted_samples(per_kind)) all.push_back(s);
    for (const Sample& s : all) {
      compare(s, ask(fsf, s.fen), tally);
      ++asked;
    }
  }
  std::printf(
      "FSF agreement: %d positions asked; %d mates agree (distance included), %d draws agree; "
      "%d mates FSF found slower, %d FSF left unresolved, %d mates on the count's last ply that FSF's search "
      "scored 0; %d differ\n",
      asked, tally.mates_agree, tally.draws_agree, tally.fsf_slower, tally.fsf_unresolved, tally.last_ply_drawn,
      tally.differ);
  EXPECT_EQ(tally.differ, 0);
  EXPECT_GT(tally.mates_agree, asked / 3);
}

}  // namespace
}  // namespace sz::chaturanga::tables
