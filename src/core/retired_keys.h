#pragma once
// Settings removed since (dropped after an ablation) that files written before still hold: a
// run's config.yaml, a levels manifest, a bundle's model.json. Such a file still reads as long as
// the setting was off, so that an older run resumes and still feeds `levels` and `export`; a
// setting that was on cannot be honoured, and reading it is an error that says when and why it
// went. The module that owned a setting keeps its list (search_config.h: kRetiredSearchKeys).
#include <span>
#include <string>

#include "core/error.h"

namespace sz {

struct RetiredKey {
  const char* key;
  bool must_be_off;     // it switched its feature on: only 0 (off) reads; else any number does
  const char* removed;  // when and why, for the error
};

// Reads the keys of `retired` that `section` holds, with the field-list reader interface of
// config/section.h (has, num, check: a YAML Section, client/'s JSON reader), so that its
// finish() does not count them as unknown. Throws as `section` does:
// "'search.x' is no longer a setting: dropped after E15 (...); only 0, off, can still be read".
template <typename Reader>
void read_retired_keys(Reader& section, std::span<const RetiredKey> retired) {
  for (const RetiredKey& r : retired) {
    if (!section.has(r.key)) continue;
    const std::string why = std::string("is no longer a setting: ") + r.removed;
    double value = 0;
    try {
      section.num(r.key, value, -1e300, 1e300);  // counts the key as read
    } catch (const Error&) {
      section.check(false, r.key, why + "; it must be a number");
    }
    section.check(!r.must_be_off || value == 0, r.key, why + "; only 0, off, can still be read");
  }
}

}  // namespace sz
