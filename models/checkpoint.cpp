#include "models/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/fnv1a.h"
#include "core/regular_file.h"

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

// The archives a checkpoint's checksum covers, in this order (the metadata holds the checksum),
// and the entry of the trainer's state (a string: format 3 on), which it covers too. The averaged
// weights (format 4 on) are there only when the trainer averages.
constexpr const char* kWeights = "model";
constexpr const char* kOptimizer = "optimizer";
constexpr const char* kAveragedWeights = "model_averaged";
constexpr const char* kCheckedArchives[] = {kWeights, kOptimizer, kAveragedWeights};
constexpr const char* kTrainerEntry = "trainer_state";

// Adds the FNV-1a of everything an archive holds, recursively, to `sum`: of each tensor its type,
// shape and bytes, of each other value its text. Summed, not chained, and without the keys: the
// result depends neither on the order of the keys nor on their names, since LibTorch names an
// optimiser's state after the address of its parameter in the process that saved it, and the
// same checkpoint must get the same checksum in every process. Strings (those addresses) are left
// out for the same reason. Damage changes an entry's hash and with it the sum.
void add_archive(torch::serialize::InputArchive& archive, uint64_t& sum) {
  for (const std::string& key : archive.keys()) {
    c10::IValue value;
    if (!archive.try_read(key, value) || value.isString()) continue;
    if (value.isObject()) {
      torch::serialize::InputArchive nested;
      archive.read(key, nested);
      add_archive(nested, sum);
    } else if (value.isTensor() && value.toTensor().defined()) {
      const torch::Tensor t = value.toTensor().contiguous().cpu();
      const int64_t type = int64_t(t.scalar_type());
      uint64_t hash = fnv1a64(&type, sizeof type);
      for (const int64_t d : t.sizes()) hash = fnv1a64(&d, sizeof d, hash);
      sum += fnv1a64(t.data_ptr(), t.nbytes(), hash);
    } else {
      std::ostringstream text;
      text << value;
      sum += fnv1a64(text.str().data(), text.str().size());
    }
  }
}

std::string checksum_text(uint64_t hash) {
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(hash));
  return text;
}

// The trainer's state stored in `root`, or "" (none, or a checkpoint of format 2 and older).
std::string trainer_state_of(torch::serialize::InputArchive& root) {
  c10::IValue text;
  return root.try_read(kTrainerEntry, text) && text.isString() ? text.toStringRef() : "";
}

// The checksum of the checked archives of a checkpoint, and of its trainer state, as it reads back.
std::string archive_checksum(torch::serialize::InputArchive& root) {
  uint64_t sum = 0;
  for (const char* name : kCheckedArchives) {
    torch::serialize::InputArchive nested;
    if (root.try_read(name, nested)) add_archive(nested, sum);
  }
  const std::string trainer = trainer_state_of(root);
  if (!trainer.empty()) sum += fnv1a64(trainer.data(), trainer.size());
  return checksum_text(sum);
}

// The same before the file is written: the archives are serialised and read back once, so that
// the checksum covers exactly what a reader will see.
std::string archive_checksum(torch::serialize::OutputArchive& weights, torch::serialize::OutputArchive* optimizer,
                             torch::serialize::OutputArchive* averaged, const std::string& trainer_state) {
  torch::serialize::OutputArchive root;
  root.write(kWeights, weights);
  if (optimizer) root.write(kOptimizer, *optimizer);
  if (averaged) root.write(kAveragedWeights, *averaged);
  if (!trainer_state.empty()) root.write(kTrainerEntry, c10::IValue(trainer_state));
  std::stringstream bytes;
  root.save_to(bytes);
  torch::serialize::InputArchive back;
  back.load_from(bytes, torch::kCPU);
  return archive_checksum(back);
}

struct OpenCheckpoint {
  torch::serialize::InputArchive archive;
  CheckpointMeta meta;
};

// Reads the whole file with its tensors placed on `device`, and parses its metadata.
OpenCheckpoint open_checkpoint(const std::string& path, const torch::Device& device) {
  if (const std::string why = regular_file_problem(path); !why.empty()) throw Error(path + ": " + why);
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
  c.meta.trainer_state = trainer_state_of(c.archive);
  if (!c.meta.checksum.empty()) {  // format 1 has none
    std::string found;
    try {
      found = archive_checksum(c.archive);
    } catch (const c10::Error& e) {
      throw Error(path + ": damaged: cannot read its tensors: " + e.what_without_backtrace());
    }
    if (found != c.meta.checksum)
      throw Error(path + ": damaged: its tensors do not match the checksum in its metadata (" + found + ", expected " +
                  c.meta.checksum + "); take an earlier checkpoint");
  }
  return c;
}

bool holds(OpenCheckpoint& c, const char* archive) {
  torch::serialize::InputArchive nested;
  return c.archive.try_read(archive, nested);
}

void load_weights(OpenCheckpoint& c, const std::string& path, Network& net, const char* archive = kWeights) {
  try {
    torch::serialize::InputArchive weights;
    c.archive.read(archive, weights);
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
                     std::string_view optimizer_kind, CheckpointMeta meta, const Network* averaged) {
  meta.format_version = kCheckpointFormatVersion;
  meta.arch = net->architecture();
  meta.optimizer = optimizer ? std::string(optimizer_kind) : "";
  std::ostringstream buffer;
  try {
    torch::serialize::OutputArchive root, weights, optimizer_state, averaged_weights;
    net->save(weights);
    if (optimizer) optimizer->save(optimizer_state);
    if (averaged) (*averaged)->save(averaged_weights);
    meta.checksum = archive_checksum(weights, optimizer ? &optimizer_state : nullptr,
                                     averaged ? &averaged_weights : nullptr, meta.trainer_state);
    root.write("meta", c10::IValue(meta_to_text(meta)));
    root.write(kWeights, weights);
    if (optimizer) root.write(kOptimizer, optimizer_state);
    if (averaged) root.write(kAveragedWeights, averaged_weights);
    if (!meta.trainer_state.empty()) root.write(kTrainerEntry, c10::IValue(meta.trainer_state));
    root.save_to(buffer);
  } catch (const c10::Error& e) {
    throw Error(path + ": cannot serialise the checkpoint: " + e.what_without_backtrace());
  }
  write_atomically(path, buffer.str());
}

CheckpointMeta read_checkpoint_meta(const std::string& path) { return open_checkpoint(path, torch::kCPU).meta; }

CheckpointMeta load_checkpoint(const std::string& path, Network& net, torch::optim::Optimizer* optimizer,
                               std::string_view optimizer_kind, AveragedWeights* averaged) {
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
      c.archive.read(kOptimizer, state);
      optimizer->load(state);
    } catch (const c10::Error& e) {
      throw Error(path + ": cannot load the optimiser state: " + e.what_without_backtrace());
    }
  }
  if (averaged && averaged->net && holds(c, kAveragedWeights)) {
    load_weights(c, path, *averaged->net, kAveragedWeights);
    (*averaged->net)->to(device);
    averaged->loaded = true;
  }
  return c.meta;
}

LoadedNetwork load_network(const std::string& path, const game::GameSpec& spec) {
  OpenCheckpoint c = open_checkpoint(path, torch::kCPU);
  check_encoding(spec, c.meta, path);
  net::Architecture arch = c.meta.arch;
  // The policy map and the mirror are the game's (fixed by its action-space version), not stored
  // in the file.
  arch.spec.policy_planes = spec.policy_planes;
  arch.spec.policy_map = spec.policy_map;
  arch.spec.mirror_actions = spec.mirror_actions;
  LoadedNetwork loaded{Network(arch), c.meta};
  load_weights(c, path, loaded.net, holds(c, kAveragedWeights) ? kAveragedWeights : kWeights);
  loaded.net->eval();
  return loaded;
}

}  // namespace sz::models
