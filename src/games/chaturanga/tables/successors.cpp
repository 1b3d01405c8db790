#include "games/chaturanga/tables/successors.h"

#include "core/error.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"

namespace sz::chaturanga::tables {

using namespace board8;

namespace {

bool stalemated(const Position& pos) {
  if (pos.in_check()) return false;
  MoveList moves;
  generate_legal_unfiltered(pos, moves);
  return moves.size == 0;
}

Distance verdict_for(Color stm, Outcome outcome) {
  if (outcome == Outcome::Draw || outcome == Outcome::Ongoing) return {};
  const bool won = (outcome == Outcome::WhiteWins) == (stm == White);
  return {won ? Verdict::Win : Verdict::Loss, 0};
}

}  // namespace

Expander::Expander(const RuleProfile& rules, const Material& material, const TableSet& smaller)
    : rules_(rules),
      ending_(ending_rules(rules)),
      layout_(material),
      smaller_(smaller),
      clock_{capture_clock(ending_, material, White), capture_clock(ending_, material, Black)},
      illegal_to_stalemate_(rules.stalemate == StalemateRule::IllegalToCause) {
  if (!illegal_to_stalemate_) return;
  stalemated_.assign(layout_.size(), 0);
  for (uint64_t e = 0; e < layout_.size(); ++e) {
    Square sq[kMaxMen];
    Color stm;
    if (setup(e, sq, stm)) stalemated_[e] = stalemated(position(sq, stm));
  }
}

Position Expander::position(const Square* sq, Color stm) const {
  Piece pieces[kMaxMen];
  for (int s = 0; s < layout_.men(); ++s) pieces[s] = layout_.piece(s);
  return Position::from_men(rules_, stm, pieces, sq, layout_.men());
}

bool Expander::setup(uint64_t entry, Square* sq, Color& stm) const {
  if (!layout_.decode(entry, sq, stm) || layout_.index(sq, stm) != entry) return false;
  // The side not to move may not stand in check.
  const Position pos = position(sq, stm);
  return !pos.attackers(stm, sq[stm == White ? 1 : 0], pos.pieces());
}

int Expander::slot_on(const Square* sq, Square s) const {
  for (int i = 0; i < layout_.men(); ++i)
    if (sq[i] == s) return i;
  return -1;
}

CaptureValue Expander::capture_value(const Square* sq, Color stm, int mover_slot, Square to) const {
  const int taken = slot_on(sq, to);
  Men child;
  child.stm = ~stm;
  for (int s = 0; s < layout_.men(); ++s) {
    if (s == taken) continue;
    child.piece[child.count] = layout_.piece(s);
    child.square[child.count++] = s == mover_slot ? to : sq[s];
  }
  const auto hit = smaller_.locate(child);
  if (!hit) throw Error("endgame tables: " + layout_.material().name() + " needs the table one capture away");
  const Entry e = hit->table ? hit->table->entry(hit->index) : Entry{};
  const CaptureClock& clock = clock_[stm];
  Verdict child_verdict = e.dtz.verdict;
  CaptureValue v;
  if (clock.continuing) {
    v.cost[kDtz] = uint16_t(e.dtz.plies);
  } else if (e.dtz.plies > clock.fresh_plies) {
    child_verdict = Verdict::Draw;  // the fresh clocks run out first
  }
  v.cost[kDtm] = uint16_t(e.dtm.plies);
  v.mover = Verdict(-int(child_verdict));
  if (v.mover == Verdict::Draw) v.cost[kDtz] = v.cost[kDtm] = 0;
  return v;
}

bool Expander::expand(uint64_t entry, Successors& out) const {
  Square sq[kMaxMen];
  Color stm;
  if (!setup(entry, sq, stm)) return false;
  const Position pos = position(sq, stm);
  MoveList moves;
  generate_legal_unfiltered(pos, moves);
  out.terminal = false;
  out.terminal_value = {};
  out.quiet = out.captures = 0;
  for (const Move m : moves) {
    const int slot = slot_on(sq, m.from());
    if (pos.piece_on(m.to()) == NoPiece) {
      Square child[kMaxMen];
      for (int s = 0; s < layout_.men(); ++s) child[s] = s == slot ? m.to() : sq[s];
      const uint64_t e = layout_.index(child, ~stm);
      if (illegal_to_stalemate_ && stalemated_[e]) continue;
      out.quiet_entry[out.quiet++] = uint32_t(e);
    } else {
      if (illegal_to_stalemate_) {
        Position next = pos;
        next.do_move(m);
        if (stalemated(next)) continue;
      }
      out.capture[out.captures++] = capture_value(sq, stm, slot, m.to());
    }
  }
  if (out.quiet + out.captures == 0) {
    out.terminal = true;  // mate, stalemate, a bared king: as the rules core adjudicates it
    out.terminal_value = verdict_for(stm, adjudicate(pos, {}).outcome);
  } else if (cannot_mate(pos, White) && cannot_mate(pos, Black)) {
    out.terminal = true;  // insufficient material: a draw
    out.quiet = out.captures = 0;
  }
  return true;
}

}  // namespace sz::chaturanga::tables
