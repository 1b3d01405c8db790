#include "models/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "game/registry.h"

namespace sz::models {

namespace {

std::string errno_text() { return std::strerror(errno); }

void write_all(int fd, const std::string& bytes, const std::string& name) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("cannot write " + name + ": " + errno_text());
    done += size_t(n);
  }
}

// Temporary name, fsync, rename, fsync of the directory: after a crash the path holds either
// the old file or the new one, never a mix.
void write_atomically(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("cannot create " + tmp + ": " + errno_text());
  try {
    write_all(fd, bytes, tmp);
    if (::fsync(fd) != 0) throw Error("cannot fsync " + tmp + ": " + errno_text());
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw Error("cannot rename " + tmp + " to " + path + ": " + why);
  }
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);  // makes the rename durable; best effort where directories cannot be synced
    ::close(dfd);
  }
}

struct OpenCheckpoint {
  torch::serialize::InputArchive archive;
  CheckpointMeta meta;
};

// Reads the whole file with its tensors placed on `device`, and parses its metadata.
OpenCheckpoint open_checkpoint(const std::string& path, const torch::Device& device) {
  OpenCheckpoint c;
  try {
    c.archive.load_from(path, device);
  } catch (const c10::Error& e) {
    throw Error(path + ": not a readable checkpoint: " + e.what_without_backtrace());
  }
  c10::IValue text;
  if (!c.archive.try_read("meta", text) || !text.isString())
    throw Error(path + ": not a sittuyin-zero checkpoint (no metadata)");
  c.meta = meta_from_text(text.toStringRef(), path).take_or_throw();
  return c;
}

void load_weights(OpenCheckpoint& c, const std::string& path, Network& net) {
  try {
    torch::serialize::InputArchive weights;
    c.archive.read("model", weights);
    net->load(weights);
  } catch (const c10::Error& e) {
    throw Error(path + ": cannot load the weights: " + e.what_without_backtrace());
  }
}

torch::Device device_of(const Network& net) {
  const auto params = net->parameters();
  return params.empty() ? torch::Device(torch::kCPU) : params.front().device();
}

}  // namespace

void save_checkpoint(const std::string& path, const Network& net, const torch::optim::Optimizer* optimizer,
                     std::string_view optimizer_kind, CheckpointMeta meta) {
  meta.format_version = kCheckpointFormatVersion;
  meta.arch = net->architecture();
  meta.optimizer = optimizer ? std::string(optimizer_kind) : "";
  std::ostringstream buffer;
  try {
    torch::serialize::OutputArchive root, weights, optimizer_state;
    root.write("meta", c10::IValue(meta_to_text(meta)));
    net->save(weights);
    root.write("model", weights);
    if (optimizer) {
      optimizer->save(optimizer_state);
      root.write("optimizer", optimizer_state);
    }
    root.save_to(buffer);
  } catch (const c10::Error& e) {
    throw Error(path + ": cannot serialise the checkpoint: " + e.what_without_backtrace());
  }
  write_atomically(path, buffer.str());
}

CheckpointMeta read_checkpoint_meta(const std::string& path) { return open_checkpoint(path, torch::kCPU).meta; }

CheckpointMeta load_checkpoint(const std::string& path, Network& net, torch::optim::Optimizer* optimizer,
                               std::string_view optimizer_kind) {
  const torch::Device device = device_of(net);
  OpenCheckpoint c = open_checkpoint(path, device);
  check_compatible(net->architecture(), c.meta, path);
  if (optimizer && c.meta.optimizer.empty()) throw Error(path + ": the checkpoint holds no optimiser state");
  if (optimizer && c.meta.optimizer != optimizer_kind)
    throw Error(path + ": the checkpoint holds " + c.meta.optimizer + " state, not " + std::string(optimizer_kind));
  load_weights(c, path, net);
  net->to(device);  // loaded tensors replace the parameters; keep them where the network was
  if (optimizer) {
    try {
      torch::serialize::InputArchive state;
      c.archive.read("optimizer", state);
      optimizer->load(state);
    } catch (const c10::Error& e) {
      throw Error(path + ": cannot load the optimiser state: " + e.what_without_backtrace());
    }
  }
  return c.meta;
}

LoadedNetwork load_network(const std::string& path) {
  OpenCheckpoint c = open_checkpoint(path, torch::kCPU);
  Architecture arch = c.meta.arch;
  // The policy map is the game's (fixed by its action-space version), not stored in the file.
  if (const auto spec = game::spec_for(arch.spec.game);
      spec && spec->action_space == arch.spec.action_space && spec->action_space_version == arch.spec.action_space_version) {
    arch.spec.policy_planes = spec->policy_planes;
    arch.spec.policy_map = spec->policy_map;
  }
  LoadedNetwork loaded{Network(arch), c.meta};
  load_weights(c, path, loaded.net);
  loaded.net->eval();
  return loaded;
}

}  // namespace sz::models
