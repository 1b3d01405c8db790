#include "client/profile_json.h"

#include <algorithm>
#include <vector>

#include "client/json_fields.h"
#include "core/json_writer.h"
#include "games/chaturanga/rule_profile_fields.h"

namespace sz::client {

namespace {

using chaturanga::Game;
using chaturanga::RuleProfile;

template <typename Fields>
std::string section_json(RuleProfile p, Fields fields) {
  JsonFieldWriter w;
  fields(w, p);
  return w.object();
}

template <typename Fields>
void read_section(const JsonAt& object, const char* key, RuleProfile& p, Fields fields) {
  JsonFieldReader r(object[key]);
  fields(r, p);
  r.finish();
}

}  // namespace

std::string profile_json(const RuleProfile& p) {
  JsonWriter w;
  w.object(JsonWriter::Layout::Inline).add("id", p.id).add("source", p.source).add("game", chaturanga::game_name(p.game));
  if (p.game == Game::Sittuyin) {
    w.raw("placement", section_json(p, [](auto& v, RuleProfile& q) { chaturanga::placement_fields(v, q); }));
    w.raw("promotion", section_json(p, [](auto& v, RuleProfile& q) { chaturanga::promotion_fields(v, q); }));
  }
  w.raw("end", section_json(p, [](auto& v, RuleProfile& q) { chaturanga::end_fields(v, q); }));
  return w.close().str();
}

RuleProfile profile_from_json(const JsonAt& object) {
  RuleProfile p;
  p.id = object["id"].text();
  if (p.id.empty()) throw object["id"].error("must not be empty");
  p.source = object["source"].text();
  const JsonAt game = object["game"];
  if (game.text() != "sittuyin" && game.text() != "shatranj")
    throw game.error("must be sittuyin or shatranj, not '" + game.text() + "'");
  p.game = game.text() == "sittuyin" ? Game::Sittuyin : Game::Shatranj;
  std::vector<std::string> keys = {"id", "source", "game", "end"};
  if (p.game == Game::Sittuyin) {
    read_section(object, "placement", p, [](auto& v, RuleProfile& q) { chaturanga::placement_fields(v, q); });
    read_section(object, "promotion", p, [](auto& v, RuleProfile& q) { chaturanga::promotion_fields(v, q); });
    keys.insert(keys.end(), {"placement", "promotion"});
  }
  read_section(object, "end", p, [](auto& v, RuleProfile& q) { chaturanga::end_fields(v, q); });
  for (const auto& [key, value] : object.members())
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      throw object[key].error("is not a key of a " + game.text() + " profile");
  chaturanga::resolve(p);
  return p;
}

}  // namespace sz::client
