#include "models/onnx_session.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <onnxruntime_c_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>

#include "core/lazy_library.h"
#include "core/number_text.h"
#include "core/worker_device.h"
#include "gpu/gpu_runtime.h"
#include "models/onnx_runtime_requested.h"

namespace winnow {

namespace {

// ONNX Runtime is loaded on first use, not at program start: resolving its ~50,000 relocations
// costs about 13 ms of CPU in every process (bench/README.md, "Fixed cost per process"), and
// most runs have no model stage. OrtGetApiBase is the only symbol winnow takes from the library,
// so this file is its only user: linked with --as-needed, the program does not depend on it at
// all; still linked, dlopen returns the copy already loaded. The build's and the install's
// RUNPATH name ORT's folder (CMakeLists.txt), and dlopen searches the caller's RUNPATH
// (core/lazy_library.h).
constexpr const char* kOrtLibrary = "libonnxruntime.so.1";
LazyLibrary& ort_library() {
  static LazyLibrary library(kOrtLibrary, "ONNX Runtime");
  return library;
}
std::string load_failure;     // set once, before api_base() returns null
void* entry_point = nullptr;  // OrtGetApiBase in the loaded library (has_cuda finds its folder)

const OrtApiBase* api_base() {
  static const OrtApiBase* base = []() -> const OrtApiBase* {
    if (Status loaded = ort_library().load(); !loaded.is_ok()) {
      load_failure = loaded.message();
      return nullptr;
    }
    using GetApiBase = const OrtApiBase* (*)();
    auto get = reinterpret_cast<GetApiBase>(ort_library().find("OrtGetApiBase"));
    if (get == nullptr) {
      load_failure = fmt::format("{} has no OrtGetApiBase", kOrtLibrary);
      return nullptr;
    }
    entry_point = reinterpret_cast<void*>(get);
    return get();
  }();
  return base;
}

// The C API table of the version these headers declare; the library answers for every version
// up to its own, so a newer ORT (ONNXRUNTIME_ROOT) works too.
const OrtApi* api() {
  static const OrtApi* table =
      api_base() != nullptr ? api_base()->GetApi(ORT_API_VERSION) : nullptr;
  return table;
}

// Takes ownership of an OrtStatus: empty when it was null (success), else ORT's message.
std::string consume(OrtStatus* status) {
  if (status == nullptr) return {};
  std::string message = api()->GetErrorMessage(status);
  api()->ReleaseStatus(status);
  return message.empty() ? "unknown ONNX Runtime error" : message;
}

// One environment per process (ORT allows only one), created on first use. Errors only: ORT's
// warnings about graph rewrites would be noise in a run's output.
OrtEnv* environment(std::string& error) {
  static OrtEnv* env = nullptr;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    if (api_base() == nullptr) {
      failure = load_failure;
      return;
    }
    if (api() == nullptr) {
      failure = fmt::format("the ONNX Runtime library ({}) lacks C API version {}",
                            api_base()->GetVersionString(), ORT_API_VERSION);
      return;
    }
    failure = consume(api()->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "winnow", &env));
  });
  error = failure;
  return env;
}

std::string element_type_name(ONNXTensorElementDataType type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
      return "float";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16:
      return "float16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE:
      return "double";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64:
      return "int64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32:
      return "int32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL:
      return "bool";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
      return "uint8";
    default:
      return fmt::format("type {}", static_cast<int>(type));
  }
}

// Describes a type info (null: not a tensor).
std::string describe_tensor(const OrtTypeInfo* type_info, OnnxTensorInfo& info) {
  const OrtTensorTypeAndShapeInfo* tensor = nullptr;
  std::string error = consume(api()->CastTypeInfoToTensorInfo(type_info, &tensor));
  if (!error.empty()) return error;
  if (tensor == nullptr) {
    info.element_type = "not a tensor";
    return {};
  }
  ONNXTensorElementDataType type;
  size_t rank = 0;
  error = consume(api()->GetTensorElementType(tensor, &type));
  if (error.empty()) error = consume(api()->GetDimensionsCount(tensor, &rank));
  info.shape.assign(rank, 0);
  if (error.empty()) error = consume(api()->GetDimensions(tensor, info.shape.data(), rank));
  info.element_type = element_type_name(type);
  return error;
}

// The process's capped CPU arena (OnnxSessionOptions::memory_limit): registered with the
// environment on first use, which ORT allows once per memory kind, so every session with a CPU
// limit shares it and the first limit asked stands.
std::string use_capped_cpu_arena(OrtEnv* env, size_t limit) {
  static std::mutex mutex;
  static size_t registered = 0;
  std::lock_guard<std::mutex> lock(mutex);
  if (registered == limit) return {};
  if (registered != 0) {
    return fmt::format(
        "a CPU memory limit of {} bytes was asked, but this process's capped CPU arena "
        "already has {} (ONNX Runtime allows one)",
        limit, registered);
  }
  OrtMemoryInfo* memory = nullptr;
  OrtArenaCfg* config = nullptr;
  // Grow by what is asked, not by powers of two, so the limit is reached by what runs need
  // rather than by a doubling that overshoots it.
  const char* keys[] = {"max_mem", "arena_extend_strategy"};
  const size_t values[] = {limit, 1};
  std::string error =
      consume(api()->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &memory));
  if (error.empty()) error = consume(api()->CreateArenaCfgV2(keys, values, 2, &config));
  if (error.empty()) error = consume(api()->CreateAndRegisterAllocator(env, memory, config));
  if (config) api()->ReleaseArenaCfg(config);
  if (memory) api()->ReleaseMemoryInfo(memory);
  if (error.empty()) registered = limit;
  return error;
}

}  // namespace

struct OnnxSession::Handles {
  OrtSession* session = nullptr;
  OrtMemoryInfo* memory = nullptr;         // where inputs live: the CPU
  OrtMemoryInfo* device_memory = nullptr;  // where the session's runs allocate
  OrtRunOptions* run_options = nullptr;
  // On CUDA, the same model on the other devices workers are bound to (session_for_worker),
  // loaded on a worker's first run there.
  std::mutex siblings_mutex;
  std::map<int, std::unique_ptr<OnnxSession>> siblings;
  ~Handles() {
    if (session) api()->ReleaseSession(session);
    if (memory) api()->ReleaseMemoryInfo(memory);
    if (device_memory) api()->ReleaseMemoryInfo(device_memory);
    if (run_options) api()->ReleaseRunOptions(run_options);
  }
};

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  }
  return text + "]";
}

OnnxSession::~OnnxSession() = default;

std::string OnnxSession::runtime_version() {
  return api_base() != nullptr ? api_base()->GetVersionString() : "unavailable: " + load_failure;
}

bool onnx_runtime_requested() { return ort_library().requested(); }

bool OnnxSession::has_cuda() {
  if (api() == nullptr) return false;
  char** providers = nullptr;
  int count = 0;
  if (!consume(api()->GetAvailableProviders(&providers, &count)).empty()) return false;
  bool found = false;
  for (int i = 0; i < count; ++i)
    found |= std::string_view(providers[i]) == "CUDAExecutionProvider";
  consume(api()->ReleaseAvailableProviders(providers, count));
  if (!found) return false;
  // Builds list the provider they were compiled with even when its library is not shipped
  // (the npm package's CPU build does): ORT loads libonnxruntime_providers_cuda.so from the
  // folder of libonnxruntime.so, so the provider is there only when that file is.
  Dl_info info;
  if (dladdr(entry_point, &info) == 0 || info.dli_fname == nullptr) {
    return true;  // cannot tell: let the load say
  }
  const std::filesystem::path folder = std::filesystem::path(info.dli_fname).parent_path();
  std::error_code ec;
  return std::filesystem::exists(folder / "libonnxruntime_providers_cuda.so", ec);
}

Result<std::shared_ptr<const OnnxSession>> OnnxSession::load(const std::string& path,
                                                             const OnnxSessionOptions& options) {
  std::error_code ec;
  std::string canonical = std::filesystem::canonical(path, ec).string();
  if (ec) canonical = path;
  std::string key = fmt::format("{}|{}|{}|{}|{}", canonical, options.intra_op_threads, options.gpu,
                                options.gpu_device, options.memory_limit);
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const OnnxSession>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto shared = loaded[key].lock()) return shared;
  auto created = create(path, options);
  if (!created.is_ok()) return created.status();
  std::shared_ptr<const OnnxSession> session = std::move(created).value();
  std::fprintf(stderr, "winnow: model %s runs on the %s (ONNX Runtime %s, %d intra-op thread%s)\n",
               path.c_str(), session->provider_ == "CPU" ? "CPU" : "GPU (CUDA)",
               runtime_version().c_str(), std::max(1, options.intra_op_threads),
               options.intra_op_threads > 1 ? "s" : "");
  loaded[key] = session;
  return session;
}

Result<std::unique_ptr<const OnnxSession>> OnnxSession::load_private(
    const std::string& path, const OnnxSessionOptions& options) {
  auto created = create(path, options);
  if (!created.is_ok()) return created.status();
  return std::unique_ptr<const OnnxSession>(std::move(created).value());
}

Result<std::unique_ptr<OnnxSession>> OnnxSession::create(const std::string& path,
                                                         const OnnxSessionOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::errorf("ONNX model '{}' does not exist or is not a file", path);
  }
  std::string error;
  OrtEnv* env = environment(error);
  if (env == nullptr) return Status::errorf("ONNX model '{}': {}", path, error);
  if (options.gpu && !has_cuda()) {
    return Status::errorf(
        "ONNX model '{}': a GPU was asked for, but this ONNX Runtime build ({}) has no CUDA "
        "execution provider; build winnow against a GPU build of ONNX Runtime (ONNXRUNTIME_ROOT) "
        "or run the stage on the CPU",
        path, runtime_version());
  }

  OrtSessionOptions* session_options = nullptr;
  error = consume(api()->CreateSessionOptions(&session_options));
  auto set = [&](OrtStatus* status) {
    if (error.empty())
      error = consume(status);
    else
      consume(status);
  };
  if (error.empty()) {
    set(api()->SetIntraOpNumThreads(session_options, std::max(1, options.intra_op_threads)));
    set(api()->SetInterOpNumThreads(session_options, 1));
    set(api()->SetSessionExecutionMode(session_options, ORT_SEQUENTIAL));
    set(api()->SetSessionGraphOptimizationLevel(session_options, ORT_ENABLE_ALL));
    // Idle pool threads sleep instead of spinning, so they use no CPU beyond the budget.
    set(api()->AddSessionConfigEntry(session_options, "session.intra_op.allow_spinning", "0"));
    set(api()->AddSessionConfigEntry(session_options, "session.inter_op.allow_spinning", "0"));
    if (options.gpu) {
      OrtCUDAProviderOptionsV2* cuda = nullptr;
      set(api()->CreateCUDAProviderOptions(&cuda));
      if (cuda) {
        std::string device = std::to_string(options.gpu_device);
        std::string limit = std::to_string(options.memory_limit);
        const char* keys[] = {"device_id", "gpu_mem_limit"};
        const char* values[] = {device.c_str(), limit.c_str()};
        set(api()->UpdateCUDAProviderOptions(cuda, keys, values, options.memory_limit ? 2 : 1));
        set(api()->SessionOptionsAppendExecutionProvider_CUDA_V2(session_options, cuda));
        api()->ReleaseCUDAProviderOptions(cuda);
      }
    }
  }
  if (error.empty() && options.memory_limit > 0 && !options.gpu) {
    error = use_capped_cpu_arena(env, options.memory_limit);
    set(api()->AddSessionConfigEntry(session_options, "session.use_env_allocators", "1"));
  }
  std::unique_ptr<OnnxSession> session(new OnnxSession());
  session->handles_ = std::make_unique<Handles>();
  session->path_ = path;
  session->options_ = options;
  session->provider_ = options.gpu ? "CUDA" : "CPU";
  if (error.empty()) {
    error = consume(
        api()->CreateSession(env, path.c_str(), session_options, &session->handles_->session));
    if (!error.empty()) error = "ONNX Runtime cannot load it: " + error;
  }
  if (session_options) api()->ReleaseSessionOptions(session_options);
  if (error.empty()) {
    error = consume(api()->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault,
                                               &session->handles_->memory));
  }
  if (error.empty()) {
    error = consume(options.gpu ? api()->CreateMemoryInfo("Cuda", OrtArenaAllocator,
                                                          options.gpu_device, OrtMemTypeDefault,
                                                          &session->handles_->device_memory)
                                : api()->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault,
                                                             &session->handles_->device_memory));
  }
  // A run that fails returns ORT's message, which the caller reports or acts on (an
  // out-of-memory batch is split): ORT's own log line for it would only repeat it.
  if (error.empty()) error = consume(api()->CreateRunOptions(&session->handles_->run_options));
  if (error.empty()) {
    error = consume(api()->RunOptionsSetRunLogSeverityLevel(session->handles_->run_options,
                                                            ORT_LOGGING_LEVEL_FATAL));
  }
  // The model's declared inputs and outputs, for the stage to check against what it needs.
  OrtAllocator* allocator = nullptr;
  if (error.empty()) error = consume(api()->GetAllocatorWithDefaultOptions(&allocator));
  for (int side = 0; side < 2 && error.empty(); ++side) {
    OrtSession* s = session->handles_->session;
    size_t count = 0;
    error = consume(side == 0 ? api()->SessionGetInputCount(s, &count)
                              : api()->SessionGetOutputCount(s, &count));
    for (size_t i = 0; i < count && error.empty(); ++i) {
      OnnxTensorInfo info;
      char* name = nullptr;
      error = consume(side == 0 ? api()->SessionGetInputName(s, i, allocator, &name)
                                : api()->SessionGetOutputName(s, i, allocator, &name));
      if (!error.empty()) break;
      info.name = name;
      consume(api()->AllocatorFree(allocator, name));
      OrtTypeInfo* type_info = nullptr;
      error = consume(side == 0 ? api()->SessionGetInputTypeInfo(s, i, &type_info)
                                : api()->SessionGetOutputTypeInfo(s, i, &type_info));
      if (!error.empty()) break;
      error = describe_tensor(type_info, info);
      api()->ReleaseTypeInfo(type_info);
      (side == 0 ? session->inputs_ : session->outputs_).push_back(std::move(info));
    }
  }
  if (!error.empty()) return Status::errorf("ONNX model '{}': {}", path, error);
  return session;
}

const OnnxTensorInfo* OnnxSession::find_input(std::string_view name) const {
  for (const auto& info : inputs_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

const OnnxTensorInfo* OnnxSession::find_output(std::string_view name) const {
  for (const auto& info : outputs_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

namespace {

// Runs `session` on `values` (created for `input_names`; released here, whatever happens) and
// copies the named float outputs into `outputs`. Empty on success, else ORT's message.
std::string run_values(OrtSession* session, const OrtRunOptions* run_options,
                       const std::vector<std::string>& input_names, std::vector<OrtValue*>& values,
                       std::span<const std::string> output_names,
                       std::vector<OnnxFloatTensor>& outputs, std::string error) {
  std::vector<OrtValue*> results(output_names.size(), nullptr);
  std::vector<const char*> in_names, out_names;
  for (const auto& n : input_names) in_names.push_back(n.c_str());
  for (const auto& n : output_names) out_names.push_back(n.c_str());
  if (error.empty()) {
    error = consume(api()->Run(session, run_options, in_names.data(), values.data(), values.size(),
                               out_names.data(), out_names.size(), results.data()));
  }
  outputs.resize(output_names.size());
  for (size_t o = 0; o < results.size() && error.empty(); ++o) {
    OrtTensorTypeAndShapeInfo* info = nullptr;
    error = consume(api()->GetTensorTypeAndShape(results[o], &info));
    if (!error.empty()) break;
    ONNXTensorElementDataType type;
    size_t rank = 0, count = 0;
    error = consume(api()->GetTensorElementType(info, &type));
    if (error.empty()) error = consume(api()->GetDimensionsCount(info, &rank));
    outputs[o].shape.assign(rank, 0);
    if (error.empty()) error = consume(api()->GetDimensions(info, outputs[o].shape.data(), rank));
    if (error.empty()) error = consume(api()->GetTensorShapeElementCount(info, &count));
    api()->ReleaseTensorTypeAndShapeInfo(info);
    if (error.empty() && type != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) {
      error = fmt::format("output '{}' is {}, not float", output_names[o], element_type_name(type));
    }
    float* data = nullptr;
    if (error.empty())
      error = consume(api()->GetTensorMutableData(results[o], reinterpret_cast<void**>(&data)));
    if (error.empty()) outputs[o].values.assign(data, data + count);
  }
  for (OrtValue* v : values) {
    if (v) api()->ReleaseValue(v);
  }
  for (OrtValue* v : results) {
    if (v) api()->ReleaseValue(v);
  }
  return error;
}

}  // namespace

int OnnxSession::device_for_worker() const {
  if (!options_.gpu || worker_gpu_device() < 0) return options_.gpu_device;
  const int device = pick_gpu_device(worker_gpu_device(), gpu::device_count(), 0);
  return device < 0 ? options_.gpu_device : device;
}

Result<const OnnxSession*> OnnxSession::session_for_worker() const {
  const int device = device_for_worker();
  if (device == options_.gpu_device) return this;
  std::lock_guard lock(handles_->siblings_mutex);
  std::unique_ptr<OnnxSession>& sibling = handles_->siblings[device];
  if (!sibling) {
    OnnxSessionOptions options = options_;
    options.gpu_device = device;
    auto created = create(path_, options);
    if (!created.is_ok()) return created.status();
    sibling = std::move(created).value();
    std::fprintf(stderr, "winnow: model %s loaded on GPU %d too (its workers there)\n",
                 path_.c_str(), device);
  }
  return static_cast<const OnnxSession*>(sibling.get());
}

Status OnnxSession::run(std::span<const OnnxIdMatrix> inputs,
                        std::span<const std::string> output_names,
                        std::vector<OnnxFloatTensor>& outputs) const {
  auto target = session_for_worker();
  if (!target.is_ok()) return target.status();
  if (*target != this) return (*target)->run(inputs, output_names, outputs);
  std::vector<OrtValue*> values(inputs.size(), nullptr);
  std::vector<std::vector<int32_t>> narrowed(inputs.size());
  std::vector<std::string> input_names;
  std::string error;
  for (size_t i = 0; i < inputs.size() && error.empty(); ++i) {
    const OnnxIdMatrix& input = inputs[i];
    const OnnxTensorInfo* info = find_input(input.name);
    if (info == nullptr) {
      error = fmt::format("the model has no input '{}'", input.name);
      break;
    }
    input_names.push_back(info->name);
    int64_t shape[2] = {input.rows, input.columns};
    void* data = const_cast<int64_t*>(input.values.data());
    size_t bytes = input.values.size_bytes();
    ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
    if (info->element_type == "int32") {
      narrowed[i].assign(input.values.begin(), input.values.end());
      data = narrowed[i].data();
      bytes = narrowed[i].size() * sizeof(int32_t);
      type = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
    }
    error = consume(api()->CreateTensorWithDataAsOrtValue(handles_->memory, data, bytes, shape, 2,
                                                          type, &values[i]));
  }
  error = run_values(handles_->session, handles_->run_options, input_names, values, output_names,
                     outputs, error);
  if (!error.empty()) return Status::errorf("ONNX model '{}': {}", path_, error);
  return Status::ok();
}

Status OnnxSession::run(std::span<const OnnxFloatInput> inputs,
                        std::span<const std::string> output_names,
                        std::vector<OnnxFloatTensor>& outputs) const {
  return run(inputs, {}, output_names, outputs);
}

Status OnnxSession::run(std::span<const OnnxFloatInput> inputs,
                        std::span<const OnnxIntInput> int_inputs,
                        std::span<const std::string> output_names,
                        std::vector<OnnxFloatTensor>& outputs) const {
  auto target = session_for_worker();
  if (!target.is_ok()) return target.status();
  if (*target != this) return (*target)->run(inputs, int_inputs, output_names, outputs);
  const size_t count = inputs.size() + int_inputs.size();
  std::vector<OrtValue*> values(count, nullptr);
  std::vector<std::vector<uint8_t>> narrowed(inputs.size());
  std::vector<std::vector<int32_t>> narrowed_ints(int_inputs.size());
  std::vector<std::string> input_names;
  std::string error;
  for (size_t i = 0; i < inputs.size() && error.empty(); ++i) {
    const OnnxFloatInput& input = inputs[i];
    const OnnxTensorInfo* info = find_input(input.name);
    if (info == nullptr) {
      error = fmt::format("the model has no input '{}'", input.name);
      break;
    }
    input_names.push_back(info->name);
    void* data = const_cast<float*>(input.values.data());
    size_t bytes = input.values.size_bytes();
    ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
    if (info->element_type == "uint8") {
      // Pixel models exported to take bytes (TransNetV2's exports do): the values are 0-255.
      narrowed[i].resize(input.values.size());
      for (size_t k = 0; k < input.values.size(); ++k) {
        narrowed[i][k] = static_cast<uint8_t>(std::clamp(std::lround(input.values[k]), 0L, 255L));
      }
      data = narrowed[i].data();
      bytes = narrowed[i].size();
      type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
    } else if (info->element_type != "float") {
      error = fmt::format("input '{}' is {}, not float", input.name, info->element_type);
      break;
    }
    error = consume(api()->CreateTensorWithDataAsOrtValue(
        handles_->memory, data, bytes, input.shape.data(), input.shape.size(), type, &values[i]));
  }
  for (size_t j = 0; j < int_inputs.size() && error.empty(); ++j) {
    const OnnxIntInput& input = int_inputs[j];
    const OnnxTensorInfo* info = find_input(input.name);
    if (info == nullptr) {
      error = fmt::format("the model has no input '{}'", input.name);
      break;
    }
    input_names.push_back(info->name);
    void* data = const_cast<int64_t*>(input.values.data());
    size_t bytes = input.values.size_bytes();
    ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
    if (info->element_type == "int32") {
      narrowed_ints[j].assign(input.values.begin(), input.values.end());
      data = narrowed_ints[j].data();
      bytes = narrowed_ints[j].size() * sizeof(int32_t);
      type = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
    } else if (info->element_type != "int64") {
      error = fmt::format("input '{}' is {}, not an integer", input.name, info->element_type);
      break;
    }
    error = consume(api()->CreateTensorWithDataAsOrtValue(handles_->memory, data, bytes,
                                                          input.shape.data(), input.shape.size(),
                                                          type, &values[inputs.size() + j]));
  }
  error = run_values(handles_->session, handles_->run_options, input_names, values, output_names,
                     outputs, error);
  if (!error.empty()) return Status::errorf("ONNX model '{}': {}", path_, error);
  return Status::ok();
}

Result<size_t> OnnxSession::peak_memory() const {
  OrtAllocator* allocator = nullptr;
  std::string error =
      consume(api()->CreateAllocator(handles_->session, handles_->device_memory, &allocator));
  OrtKeyValuePairs* stats = nullptr;
  if (error.empty()) error = consume(api()->AllocatorGetStats(allocator, &stats));
  std::optional<size_t> peak;
  if (error.empty()) {
    const char* const* keys = nullptr;
    const char* const* values = nullptr;
    size_t count = 0;
    api()->GetKeyValuePairs(stats, &keys, &values, &count);
    for (size_t i = 0; i < count; ++i) {
      if (std::string_view(keys[i]) == "MaxInUse") peak = parse_number<size_t>(values[i]);
    }
    api()->ReleaseKeyValuePairs(stats);
  }
  if (allocator) api()->ReleaseAllocator(allocator);
  if (error.empty() && !peak) {
    error = fmt::format("its {} allocator keeps no statistics (no arena)", provider_);
  }
  if (!error.empty()) {
    return Status::errorf("ONNX model '{}': cannot measure its memory: {}", path_, error);
  }
  return *peak;
}

bool OnnxSession::is_out_of_memory(const Status& status) {
  if (status.is_ok()) return false;
  // ORT reports every failure as ORT_FAIL or a runtime exception: only the text tells. BFCArena
  // says "Available memory of N is smaller than requested bytes of M" at its limit and "Failed
  // to allocate memory for requested buffer" when the device refuses it; CUDA says "out of
  // memory" (cudaErrorMemoryAllocation), cuBLAS and cuDNN *_STATUS_ALLOC_FAILED.
  static constexpr std::string_view kSigns[] = {"is smaller than requested bytes",
                                                "Failed to allocate memory",
                                                "out of memory",
                                                "STATUS_ALLOC_FAILED",
                                                "bad_alloc",
                                                "bad allocation"};
  const std::string& message = status.message();
  return std::any_of(std::begin(kSigns), std::end(kSigns), [&](std::string_view sign) {
    return message.find(sign) != std::string::npos;
  });
}

}  // namespace winnow
