#pragma once
// Inside the C API (sittuyin_client.h), shared by its files (c_api.cpp: bundles, games, searches;
// c_api_view.cpp: what a game's screen shows): the handles' contents, and the one way an entry
// point turns an exception into a return value and a message. Not part of the API.
#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>

#include "client/bundle.h"
#include "client/eigen_evaluator.h"
#include "client/sittuyin_client.h"
#include "core/error.h"
#include "games/chaturanga/state.h"

struct sz_bundle {
  std::unique_ptr<sz::client::Bundle> bundle;
};

struct sz_game {
  const sz::client::Bundle* bundle = nullptr;
  std::unique_ptr<sz::chaturanga::State> state;
  std::unique_ptr<sz::client::EigenEvaluator> evaluator;  // made at the first search
  std::string fen;
};

namespace sz::client {

inline void set_error(char* error, size_t size, const std::string& message) {
  if (!error || size == 0) return;
  const size_t n = std::min(size - 1, message.size());
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

// Runs `body`, turning any exception into `fallback` and an error message.
template <typename T, typename F>
T guarded(char* error, size_t error_size, T fallback, F body) {
  try {
    set_error(error, error_size, "");
    return body();
  } catch (const std::bad_alloc&) {
    set_error(error, error_size, "out of memory");
  } catch (const std::exception& e) {
    set_error(error, error_size, e.what());
  }
  return fallback;
}

// Copies `text` with its NUL into `out`; throws when it does not fit.
inline int copy_text(const std::string& text, char* out, size_t out_size, const char* what) {
  if (!out || out_size <= text.size())
    throw Error(std::string("the ") + what + " buffer is too small for '" + text + "'");
  std::memcpy(out, text.c_str(), text.size() + 1);
  return 0;
}

// The bundle's profile named `profile`, its default for NULL; throws naming the profiles it has.
inline const chaturanga::RuleProfile& bundle_profile(const Bundle& b, const char* profile) {
  const chaturanga::RuleProfile* rules = profile ? b.profile(profile) : b.profiles.front().get();
  if (rules) return *rules;
  std::string names;
  for (const auto& p : b.profiles) names += (names.empty() ? "" : ", ") + p->id;
  throw Error("the bundle has no rule profile '" + std::string(profile) + "' (it has: " + names + ")");
}

}  // namespace sz::client
