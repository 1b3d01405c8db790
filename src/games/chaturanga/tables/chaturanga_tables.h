#pragma once
// The chaturanga family's endgame tables behind the game seam (game/endgame_tables.h): a
// TableSet probed with the Position inside a chaturanga::State. games/registry.h constructs it.
#include <memory>
#include <optional>
#include <span>

#include "game/endgame_tables.h"
#include "games/chaturanga/tables/table_set.h"

namespace sz::chaturanga::tables {

class ChaturangaTables final : public game::EndgameTables {
 public:
  explicit ChaturangaTables(std::shared_ptr<const TableSet> set) : set_(std::move(set)) {}

  int max_men() const override { return set_->max_men(); }
  std::optional<game::TableResult> probe(const game::GameState& state) const override;
  int best_actions(const game::GameState& state, std::span<game::ActionId> out) const override;

  const TableSet& set() const { return *set_; }

 private:
  std::shared_ptr<const TableSet> set_;
};

}  // namespace sz::chaturanga::tables
