#pragma once
// One network on one device, run one batch at a time: the only code in the project that runs
// torch at inference (net_runner.cpp). This header holds no torch (pimpl): search, self-play and
// the CLI include it freely.
//
// Data path (TECHNIQUES.md, the LibTorch pitfalls of open_spiel#1383): the caller writes the
// compact encoding of up to max_batch() positions straight into one contiguous staging buffer
// (pinned on CUDA), run() copies it to the device in one transfer (224 bytes a position),
// expands the bitboards there, runs one forward pass under InferenceMode and copies all outputs
// back in one transfer.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "net/architecture.h"
#include "nn/inference_config.h"

namespace sz::models {
class NetworkImpl;
}

namespace sz::nn {

// The outputs of one batch in host memory, one row per position: action_space policy logits,
// then 3 win/draw/loss logits, then the moves-left estimate in plies (0 without that head).
// Copies share the memory, which lives as long as any copy.
struct OutputRows {
  std::shared_ptr<const float> data;
  int rows = 0;
  int stride = 0;  // floats per row: action_space + 4
  const float* row(int i) const { return data.get() + size_t(i) * size_t(stride); }
};

// "auto" -> "cuda:0" when CUDA is available, else "cpu"; "cuda" -> "cuda:0". Throws sz::Error
// for a malformed name or a CUDA device that is not there.
std::string resolve_device(std::string_view device);
bool cuda_available();

// Sets torch's intra-op thread count for the calling thread (OpenMP's count is per thread), the
// default of threads that have not run torch yet, and OpenBLAS's pool. Call it on the thread that
// runs the network, before each phase that wants another count: the loop's training takes every
// core between self-play phases whose workers each run one. Throws sz::Error below 1.
void set_torch_threads(int threads);

// Not thread-safe: one user at a time (NetEvaluator, or InferenceService's device thread).
class NetRunner {
 public:
  // A checkpoint's network, to evaluate positions encoded as `spec` says (the game to be played,
  // as this build encodes it). Throws sz::Error when the file is unreadable or when its encoding
  // (game, encoder or action-space version, sizes) is not `spec`'s.
  static std::unique_ptr<NetRunner> from_checkpoint(const std::string& path, const game::GameSpec& spec,
                                                    const InferenceConfig& config);
  // Fresh weights from a seed: the first generation, benchmarks, tests.
  static std::unique_ptr<NetRunner> from_architecture(const net::Architecture& arch, uint64_t seed,
                                                      const InferenceConfig& config);
  // A copy of an in-memory network (the trainer's), after which training goes on undisturbed;
  // the network must not change while it is copied.
  static std::unique_ptr<NetRunner> from_network(const std::shared_ptr<models::NetworkImpl>& net,
                                                 const InferenceConfig& config);
  ~NetRunner();
  NetRunner(const NetRunner&) = delete;
  NetRunner& operator=(const NetRunner&) = delete;

  const net::Architecture& architecture() const;
  const std::string& device() const;  // resolved, e.g. "cpu" or "cuda:0"
  Precision precision() const;
  int max_batch() const;
  int threads() const;        // the intra-op threads its forward passes want (set_torch_threads)
  int output_stride() const;  // action_space + 4

  // The staging rows run() reads: max_batch() rows of spec.binary_planes words and of
  // spec.scalar_features floats, each contiguous.
  uint64_t* input_planes();
  float* input_scalars();

  // Where the weights came from, for messages: the checkpoint's path, "a fresh network (seed N)"
  // or "the trainer's network".
  const std::string& source() const;

  // One forward pass over the first n (1..max_batch) staged rows; blocks until the outputs are
  // in host memory. Throws sz::Error on a torch failure, and naming source() when an output is
  // NaN or infinite (damaged or diverged weights), so that no such value reaches a search.
  OutputRows run(int n);

  struct Impl;  // opaque: the torch side, in net_runner.cpp

 private:
  explicit NetRunner(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sz::nn
