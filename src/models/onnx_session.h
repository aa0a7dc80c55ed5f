#pragma once
// OnnxSession: one ONNX model loaded into ONNX Runtime (through its C API, which stays in the
// .cpp), run on batches of token-id matrices. One session per model file and settings per
// process, shared by every worker of every stage that names it: ORT's Run is thread-safe, and a
// second copy would only cost memory.
//
// Threads: `intra_op_threads` (the stage's CPU budget) run each operator; there is no
// inter-op parallelism and the pool does not spin, so a worker's model never keeps more CPUs
// busy than it was given. Provider: CUDA when the stage asks for a GPU and this ORT build has
// the CUDA execution provider (ONNXRUNTIME_ROOT pointing at a GPU build), else the CPU; a GPU
// asked of a build without CUDA is an error, not a silent fallback. The choice is printed once
// per load.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

struct OnnxSessionOptions {
  int intra_op_threads = 1;
  // Run on CUDA (an error when this build has no CUDA), on device `gpu_device` when loaded; a
  // worker bound to another device (core/worker_device.h) runs on a copy loaded there on its
  // first run, so each GPU worker uses its own device, not device 0.
  bool gpu = false;
  int gpu_device = 0;
  // Bytes the session may allocate at most (0: no limit); a run that needs more fails with an
  // out-of-memory error (is_out_of_memory) instead of growing. On CUDA it is the session's own
  // arena limit (gpu_mem_limit). On the CPU, ORT has no per-session arena limit: sessions with
  // a limit share one capped CPU arena registered with the environment (ORT allows one per
  // process), so the first limit asked is the one; asking another is an error. Tests and
  // benchmarks use it to make a batch genuinely fail for lack of memory on the CPU.
  size_t memory_limit = 0;
};

// A model input or output as the model declares it. Element types are ONNX's names ("int64",
// "float", ...); dynamic dimensions are -1.
struct OnnxTensorInfo {
  std::string name;
  std::string element_type;
  std::vector<int64_t> shape;
};

// A [rows, columns] matrix of ids given to an input (converted to the input's integer type).
struct OnnxIdMatrix {
  std::string_view name;
  std::span<const int64_t> values;  // row-major, rows * columns
  int64_t rows = 0;
  int64_t columns = 0;
};

// A float tensor given to an input (pixel planes, embeddings).
struct OnnxFloatInput {
  std::string_view name;
  std::span<const float> values;  // row-major
  std::vector<int64_t> shape;
};

// An integer tensor given to an input beside float ones (a sample rate, sequence lengths);
// converted to the input's integer type (int64 or int32). An empty shape is a scalar.
struct OnnxIntInput {
  std::string_view name;
  std::span<const int64_t> values;  // row-major
  std::vector<int64_t> shape;
};

// A float output: its values, row-major, and its shape.
struct OnnxFloatTensor {
  std::vector<float> values;
  std::vector<int64_t> shape;
};

// A tensor shape as messages show it: "[?, 3, 224, 224]" (? for a dynamic dimension).
std::string shape_text(const std::vector<int64_t>& shape);

class OnnxSession {
 public:
  ~OnnxSession();
  OnnxSession(const OnnxSession&) = delete;
  OnnxSession& operator=(const OnnxSession&) = delete;

  // Loads `path` (an .onnx file), or returns the copy already loaded with the same options.
  // Errors name the path: missing file, a file ORT cannot load, a provider this build lacks.
  static Result<std::shared_ptr<const OnnxSession>> load(const std::string& path,
                                                         const OnnxSessionOptions& options);
  // A copy of its own, shared with nobody: for measuring what runs need (peak_memory), which a
  // shared session's other users would disturb. Not printed.
  static Result<std::unique_ptr<const OnnxSession>> load_private(const std::string& path,
                                                                 const OnnxSessionOptions& options);

  const std::string& path() const { return path_; }
  const std::vector<OnnxTensorInfo>& inputs() const { return inputs_; }
  const std::vector<OnnxTensorInfo>& outputs() const { return outputs_; }
  const OnnxTensorInfo* find_input(std::string_view name) const;
  const OnnxTensorInfo* find_output(std::string_view name) const;
  // "CPU" or "CUDA".
  const std::string& provider() const { return provider_; }

  // Runs the model on `inputs` (every input the model has, integer typed) and returns the named
  // float outputs in order. Thread-safe.
  Status run(std::span<const OnnxIdMatrix> inputs, std::span<const std::string> output_names,
             std::vector<OnnxFloatTensor>& outputs) const;
  // The same with float inputs (every input the model has, float typed, or uint8: the values
  // are then bytes, 0-255, rounded).
  Status run(std::span<const OnnxFloatInput> inputs, std::span<const std::string> output_names,
             std::vector<OnnxFloatTensor>& outputs) const;
  // Float inputs and integer ones together (audio models: samples and a sample rate, features
  // and their lengths); every input the model has, in either list.
  Status run(std::span<const OnnxFloatInput> inputs, std::span<const OnnxIntInput> int_inputs,
             std::span<const std::string> output_names,
             std::vector<OnnxFloatTensor>& outputs) const;

  // The most bytes ORT's allocator for the session's device (its arena: the CPU's, or the CUDA
  // device's) has held at once since the session was created, weights included ("MaxInUse" of
  // the arena's statistics: exact, unlike the process's RSS). A high-water mark that cannot be
  // reset: a run's own peak is read after it on a session whose earlier runs needed no more.
  // With a CPU memory_limit the arena is the process's shared capped one, so its figure counts
  // every capped session's.
  Result<size_t> peak_memory() const;

  // Whether `status` (from run) is ORT failing for lack of memory: its arena at its limit or
  // unable to grow, CUDA, cuBLAS or cuDNN out of memory, or the C++ allocator's bad_alloc.
  static bool is_out_of_memory(const Status& status);

  // The ORT library's version ("1.30.0") and whether it has the CUDA execution provider.
  static std::string runtime_version();
  static bool has_cuda();

 private:
  struct Handles;
  OnnxSession() = default;
  static Result<std::unique_ptr<OnnxSession>> create(const std::string& path,
                                                     const OnnxSessionOptions& options);
  // The device the calling thread's runs use (its bound worker device on CUDA), and the
  // session on it: this one, or a copy loaded there once.
  int device_for_worker() const;
  Result<const OnnxSession*> session_for_worker() const;
  OnnxSessionOptions options_;
  std::string path_;
  std::string provider_;
  std::vector<OnnxTensorInfo> inputs_;
  std::vector<OnnxTensorInfo> outputs_;
  std::unique_ptr<Handles> handles_;
};

}  // namespace winnow
