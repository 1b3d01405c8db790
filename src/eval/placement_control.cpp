#include "eval/placement_control.h"

#include <array>
#include <fstream>
#include <memory>
#include <optional>

#include "core/parse_number.h"
#include "core/rng.h"
#include "core/split.h"
#include "games/formation_play.h"

namespace sz::eval {

namespace {

// The formation lines of a file: "[WEIGHT] FORMATION", comments and blank lines skipped.
Result<std::vector<PlacementControl::Entry>> read_formations(const std::string& path, bool weighted) {
  std::ifstream in(path);
  if (!in) return fail(path + ": cannot open the formation file");
  std::vector<PlacementControl::Entry> entries;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number);
    std::string_view text = line;
    text = text.substr(0, text.find('#'));
    std::vector<std::string_view> words = split_words(text);
    if (words.empty()) continue;
    PlacementControl::Entry entry;
    entry.where = where;
    if (weighted) {
      const std::optional<double> w = parse_number<double>(words[0]);
      if (!w || !(*w > 0) || *w > 1e12) {
        return fail(where + ": '" + std::string(words[0]) +
                    "' is not a positive weight (a book line is WEIGHT FORMATION)");
      }
      entry.weight = *w;
      text = text.substr(size_t(words[0].data() + words[0].size() - text.data()));
    }
    auto formation = games::parse_formation(text);
    if (!formation) return fail(where + ": " + formation.error());
    entry.formation = std::move(formation).value();
    if (!weighted && !entries.empty()) {
      return fail(where + ": a second formation in a fixed: file (" + entries[0].where +
                  " is the first); give several formations with weights as book:FILE");
    }
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) return fail(path + ": no formation in the file");
  return entries;
}

class PlacingPlayer final : public Player {
 public:
  PlacingPlayer(std::unique_ptr<Player> inner, std::shared_ptr<const PlacementControl> control)
      : inner_(std::move(inner)), owner_(std::move(control)), control_(*owner_) {}

  void new_game(const game::GameState& start, uint64_t seed) override {
    rng_ = Rng(seed ^ 0x51A7E0F0u);
    formation_ = start.phase() == game::Phase::Placement ? formation_for(control_, seed) : nullptr;
    if (formation_) checked(*formation_, start.profile());
    inner_->new_game(start, seed);
  }

  Result<game::ActionId> choose_move(const GameView& view) override {
    if (view.current.phase() != game::Phase::Placement) return inner_->choose_move(view);
    if (control_.kind == PlacementControl::Kind::Random) {
      std::array<game::ActionId, game::kMaxActions> actions{};
      const int n = view.current.legal_actions(actions);
      if (n <= 0) return fail("placement=random: no legal drop");
      return actions[rng_.below(uint32_t(n))];
    }
    if (!formation_) return inner_->choose_move(view);
    auto drop = games::next_formation_drop(view.current, formation_->formation);
    if (!drop) return fail(formation_->where + ": " + drop.error());
    return drop;
  }

  bool usable() const override { return inner_->usable(); }

 private:
  // Each formation is checked once per profile and player instance.
  void checked(const PlacementControl::Entry& e, std::string_view profile) {
    const std::string key = e.where + "|" + std::string(profile);
    for (const std::string& k : checked_)
      if (k == key) return;
    const auto ok = games::check_formation(e.formation, profile);
    if (!ok) throw Error(e.where + ": " + ok.error());
    checked_.push_back(key);
  }

  std::unique_ptr<Player> inner_;
  std::shared_ptr<const PlacementControl> owner_;
  const PlacementControl& control_;
  const PlacementControl::Entry* formation_ = nullptr;
  std::vector<std::string> checked_;
  Rng rng_{0};
};

}  // namespace

const PlacementControl::Entry* formation_for(const PlacementControl& control, uint64_t seed) {
  if (control.formations.empty()) return nullptr;
  double total = 0;
  for (const auto& e : control.formations) total += e.weight;
  Rng rng(seed ^ 0xB00C0F0Eull);
  double pick = rng.uniform() * total;
  for (const auto& e : control.formations)
    if ((pick -= e.weight) < 0) return &e;
  return &control.formations.back();
}

std::function<std::optional<game::ActionId>(const game::GameState&, uint64_t)> placement_chooser(
    PlacementControl control) {
  if (control.kind == PlacementControl::Kind::Network) return {};
  auto shared = std::make_shared<const PlacementControl>(std::move(control));
  return [shared](const game::GameState& state, uint64_t seed) -> std::optional<game::ActionId> {
    if (state.phase() != game::Phase::Placement) return std::nullopt;
    if (shared->kind == PlacementControl::Kind::Random) {
      std::array<game::ActionId, game::kMaxActions> actions{};
      const int n = state.legal_actions(actions);
      if (n <= 0) return std::nullopt;
      Rng rng(seed ^ state.hash());
      return actions[rng.below(uint32_t(n))];
    }
    const PlacementControl::Entry* e = formation_for(*shared, seed);
    if (!e) return std::nullopt;
    const auto drop = games::next_formation_drop(state, e->formation);
    return drop ? std::optional<game::ActionId>(*drop) : std::nullopt;
  };
}

Result<PlacementControl> parse_placement_control(std::string_view text) {
  PlacementControl control;
  control.text = std::string(text);
  const size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string file = colon == std::string_view::npos ? "" : std::string(text.substr(colon + 1));
  if (kind == "network" || kind == "random") {
    if (colon != std::string_view::npos) return fail("placement=" + std::string(kind) + " takes no ':' argument");
    control.kind = kind == "network" ? PlacementControl::Kind::Network : PlacementControl::Kind::Random;
    return control;
  }
  if (kind != "fixed" && kind != "book")
    return fail("unknown placement '" + std::string(text) + "' (network, random, fixed:FILE, book:FILE)");
  if (file.empty()) return fail("placement=" + std::string(kind) + ": give " + std::string(kind) + ":FILE");
  control.kind = kind == "fixed" ? PlacementControl::Kind::Fixed : PlacementControl::Kind::Book;
  auto entries = read_formations(file, control.kind == PlacementControl::Kind::Book);
  if (!entries) return fail(entries.error());
  control.formations = std::move(entries).value();
  return control;
}

Result<bool> check_placement_control(const PlacementControl& control, std::string_view profile) {
  for (const auto& e : control.formations) {
    const auto ok = games::check_formation(e.formation, profile);
    if (!ok) return fail(e.where + ": " + ok.error());
  }
  return true;
}

PlayerFactory with_placement(PlayerFactory inner, PlacementControl control) {
  if (control.kind == PlacementControl::Kind::Network) return inner;
  auto shared = std::make_shared<const PlacementControl>(std::move(control));
  return [inner = std::move(inner), shared](int slot) -> std::unique_ptr<Player> {
    return std::make_unique<PlacingPlayer>(inner(slot), shared);
  };
}

}  // namespace sz::eval
