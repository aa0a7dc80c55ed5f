#pragma once
// The parameters every stage that runs an ONNX model folder shares (embed with `model`,
// classify): tokens per document, batching and device; and reading them into the options of
// models/onnx_text_embedder.h.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "core/stage_params.h"
#include "core/status.h"
#include "gpu/gpu_runtime.h"
#include "models/onnx_text_embedder.h"

namespace winnow {

// `device`: where an ONNX model runs (every model stage has it), and `gpu_share`: what a
// worker on a GPU declares to the autoscaler.
inline std::vector<ParamSpec> onnx_device_params(const std::string& prefix) {
  return {
      {"device", ParamType::kString, "cpu",
       prefix + "cpu, or cuda (needs an ONNX Runtime build with CUDA: ONNXRUNTIME_ROOT)"},
      {"gpu_share", ParamType::kFloat, "0.25",
       prefix + "with device: cuda, the share of one GPU each worker declares to the "
                "autoscaler (0.25: four workers per GPU, as the anchor's embedding stages; 1: a "
                "GPU each)"},
  };
}

// A model stage's resources per worker: one CPU thread, plus `gpu_share` of a GPU on cuda
// (then the run needs a GPU: no silent CPU fallback for a model asked to run on one).
inline StageResources onnx_stage_resources(const StageParams& p) {
  StageResources r;
  if (p.get_string("device") == "cuda") r.gpus = p.get_float("gpu_share");
  return r;
}

// Reads `device` into `session`; the error names the key.
inline std::optional<Status> read_onnx_device(const StageParams& p, OnnxSessionOptions& session) {
  const std::string& device = p.get_string("device");
  if (device != "cpu" && device != "cuda") return p.error("device", "must be cpu or cuda");
  const double share = p.get_float("gpu_share");
  if (!(share > 0 && (share <= 1 || share == std::floor(share)))) {
    return p.error("gpu_share", "must be in (0, 1] or a whole number of GPUs");
  }
  session.gpu = device == "cuda";
  // One intra-op thread: the CPU the stage declares per worker; more workers share the session.
  session.intra_op_threads = 1;
  return std::nullopt;
}

inline std::vector<ParamSpec> onnx_model_params(const std::string& prefix) {
  std::vector<ParamSpec> params = {
      {"max_tokens", ParamType::kInt, "0",
       prefix + "tokens per document, special tokens included (0: tokenizer.json's truncation, "
                "else config.json's max_position_embeddings)"},
      {"batching", ParamType::kString, "length",
       prefix + "length (sort by token count, batches under batch_tokens) or fixed (input order, "
                "batch_size rows)"},
      {"batch_size", ParamType::kInt, "64", prefix + "rows per batch at most"},
      {"batch_tokens", ParamType::kInt, "8192",
       prefix + "length batching: rows x longest row per batch at most"},
      {"batch_memory_mb", ParamType::kInt, "-1",
       prefix + "length batching: MB one batch's run may take, weights included, from a memory "
                "model of the model fitted at load (0: off, batch_tokens alone; -1: on cuda "
                "gpu_share of the device's free memory at load, less a tenth, off on cpu)"},
  };
  for (ParamSpec& p : onnx_device_params(prefix)) params.push_back(std::move(p));
  return params;
}

// Reads `max_tokens` (0: the model's; else room for at least one token between two specials).
inline std::optional<Status> read_max_tokens(const StageParams& p, size_t& max_tokens) {
  const int64_t value = p.get_int("max_tokens");
  if (value < 0 || value == 1 || value == 2) {
    return p.error("max_tokens", "must be 0 (the model's) or at least 3");
  }
  max_tokens = static_cast<size_t>(value);
  return std::nullopt;
}

// Fills `options` from the parameters above; the error names the key.
inline std::optional<Status> read_onnx_model_params(const StageParams& p,
                                                    OnnxTextEmbedderOptions& options) {
  if (auto error = read_max_tokens(p, options.max_tokens)) return *error;
  const std::string& batching = p.get_string("batching");
  if (batching != "length" && batching != "fixed") {
    return p.error("batching", "must be length or fixed");
  }
  options.batching.by_length = batching == "length";
  int64_t batch_size = p.get_int("batch_size"), batch_tokens = p.get_int("batch_tokens");
  if (batch_size < 1) return p.error("batch_size", "must be at least 1");
  if (batch_tokens < 1) return p.error("batch_tokens", "must be at least 1");
  options.batching.max_batch_size = static_cast<size_t>(batch_size);
  options.batching.max_batch_tokens = static_cast<size_t>(batch_tokens);
  if (auto error = read_onnx_device(p, options.session)) return error;
  const int64_t memory_mb = p.get_int("batch_memory_mb");
  if (memory_mb < -1) return p.error("batch_memory_mb", "must be -1 (automatic), 0 (off) or MB");
  options.batch_memory = double(memory_mb) * 1e6;
  if (memory_mb == -1) {
    // The worker's share of what its device has free when the model loads (a session runs on one
    // device, so a share of several GPUs counts as one); the tenth held back is for what the
    // budget does not see: CUDA's and cuBLAS's workspaces, the arena's rounding.
    options.batch_memory = options.session.gpu
                               ? 0.9 * std::min(1.0, p.get_float("gpu_share")) *
                                     double(gpu::free_memory(options.session.gpu_device))
                               : 0;
  }
  return std::nullopt;
}

}  // namespace winnow
