#pragma once
// Rule profiles as JSON objects in a bundle's model.json: the fields of a profile file
// (games/chaturanga/rule_profile_fields.h, the one list) with its id, source and game, so that a
// game client plays the rules the network was trained on without reading YAML.
#include <string>

#include "core/json.h"
#include "games/chaturanga/profile.h"

namespace sz::client {

// {"id": ..., "source": ..., "game": ..., "placement": {...}, "promotion": {...}, "end": {...}}
// (placement and promotion for Sittuyin only).
std::string profile_json(const chaturanga::RuleProfile& profile);

// The profile an object of profile_json() describes, resolved (chaturanga::resolve). Throws
// sz::Error naming the file and the key for a missing, unknown or out-of-range field.
chaturanga::RuleProfile profile_from_json(const JsonAt& object);

}  // namespace sz::client
