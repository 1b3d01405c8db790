#include "games/chaturanga/tables/table.h"

#include <cassert>

namespace sz::chaturanga::tables {

uint32_t encode_distance(Distance d, int width) {
  const uint32_t half = width == 1 ? 0x80u : 0x8000u;
  switch (d.verdict) {
    case Verdict::Draw:
      return 0;
    case Verdict::Win:
      assert(uint32_t(d.plies) + 1 < half);
      return uint32_t(d.plies) + 1;
    case Verdict::Loss:
      assert(uint32_t(d.plies) < half);
      return half + uint32_t(d.plies);
  }
  return 0;
}

int width_for(int max_win_plies, int max_loss_plies) { return max_win_plies <= 126 && max_loss_plies <= 127 ? 1 : 2; }

Table::Table(const Material& canonical, const uint8_t* dtz, int dtz_width, const uint8_t* dtm, int dtm_width,
             std::shared_ptr<const void> owner)
    : layout_(canonical),
      dtz_(dtz),
      dtz_width_(dtz_width),
      dtm_(dtm),
      dtm_width_(dtm_width),
      owner_(std::move(owner)) {}

}  // namespace sz::chaturanga::tables
