#include "selfplay/worker_id.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "core/error.h"

namespace sz::selfplay {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxWorkersPerHost = 10'000;

bool id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// The host name up to its first '.', with any other character than id_char replaced by '_'.
std::string short_host_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "host";
  std::string name;
  for (const char* c = host; *c && *c != '.'; ++c) name += id_char(*c) ? *c : '_';
  return name.empty() ? "host" : name;
}

}  // namespace

std::string worker_lock_path(const std::string& dir, const std::string& id) {
  return (fs::path(dir) / (".worker-" + id + ".lock")).string();
}

WorkerClaim claim_worker_id(const std::string& dir, const std::string& requested) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot create the shard directory: " + ec.message());
  if (!requested.empty()) {
    for (char c : requested)
      if (!id_char(c))
        throw Error("worker id '" + requested + "': only letters, digits, '.', '_' and '-' may be in it");
    if (requested.front() == '.') throw Error("worker id '" + requested + "' must not start with '.'");
    return {requested, std::make_unique<FileLock>(worker_lock_path(dir, requested), "self-play worker of this id")};
  }
  const std::string host = short_host_name();
  for (int n = 0; n < kMaxWorkersPerHost; ++n) {
    const std::string id = host + "-" + std::to_string(n);
    if (auto lock = FileLock::try_lock(worker_lock_path(dir, id))) return {id, std::move(lock)};
  }
  throw Error(dir + ": " + std::to_string(kMaxWorkersPerHost) + " self-play workers of host " + host +
              " are running here already");
}

}  // namespace sz::selfplay
