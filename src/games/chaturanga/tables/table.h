#pragma once
// One endgame table's values in memory (built, or mapped from its file), and how a value is
// encoded (docs/TABLES.md, "Values"). Each entry holds, for its side to move, two distances of the
// game without clocks inside the table (a capture into a smaller table meets that table's fresh
// clocks, as the rules give them):
//   DTZ: plies to the next capture or the end under the play that needs the fewest. A position
//        whose clocks allow d more plies is won (lost) exactly when its DTZ is at most d.
//   DTM: plies to the end (mate; in Shatranj also a bared king or a stalemate) when both sides
//        play for the fastest and the slowest end. Exact for the position when d >= DTM.
// Both are stored as one code each: 0 a draw, else a win or a loss and its plies.
#include <cstdint>
#include <memory>

#include "games/chaturanga/tables/layout.h"

namespace sz::chaturanga::tables {

enum class Verdict : int8_t { Loss = -1, Draw = 0, Win = 1 };  // for the side to move

struct Distance {
  Verdict verdict = Verdict::Draw;
  int plies = 0;  // 0 for a draw
  bool operator==(const Distance&) const = default;
};

// Codes of `width` bytes: 0 a draw; a win in d plies 1 + d; a loss in d plies half + d, where half
// is 128 (one byte: wins up to 126 plies, losses up to 127) or 0x8000 (two bytes).
uint32_t encode_distance(Distance d, int width);
inline Distance decode_distance(uint32_t code, int width) {
  const uint32_t half = width == 1 ? 0x80u : 0x8000u;
  if (code == 0) return {};
  if (code < half) return {Verdict::Win, int(code - 1)};
  return {Verdict::Loss, int(code - half)};
}
// The narrowest width (1 or 2) that holds every distance up to these.
int width_for(int max_win_plies, int max_loss_plies);
inline constexpr int kMaxPlies2 = 0x7FFE;  // the longest distance two bytes hold

struct Entry {
  Distance dtz, dtm;
};

class Table {
 public:
  // `dtm` null: the DTM equals the DTZ everywhere (no capture of the material resets a clock).
  // `owner` keeps the bytes alive (a mapping, or the vectors a build made).
  Table(const Material& canonical, const uint8_t* dtz, int dtz_width, const uint8_t* dtm, int dtm_width,
        std::shared_ptr<const void> owner);

  const Material& material() const { return layout_.material(); }
  const Layout& layout() const { return layout_; }
  bool has_dtm() const { return dtm_ != nullptr; }

  Entry entry(uint64_t index) const {
    Entry e;
    e.dtz = decode_distance(read(dtz_, dtz_width_, index), dtz_width_);
    e.dtm = dtm_ ? decode_distance(read(dtm_, dtm_width_, index), dtm_width_) : e.dtz;
    return e;
  }

 private:
  static uint32_t read(const uint8_t* data, int width, uint64_t i) {
    if (width == 1) return data[i];
    return uint32_t(data[2 * i]) | uint32_t(data[2 * i + 1]) << 8;  // little-endian on disk
  }

  Layout layout_;
  const uint8_t* dtz_;
  int dtz_width_;
  const uint8_t* dtm_;
  int dtm_width_;
  std::shared_ptr<const void> owner_;
};

}  // namespace sz::chaturanga::tables
