#include "models/memory_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>

namespace winnow {

double MemoryModel::predict(size_t rows, size_t columns) const {
  const double tokens = double(rows) * double(columns);
  return a + b * tokens + c * tokens * double(columns);
}

size_t MemoryModel::max_rows(size_t columns, double budget) const {
  const double per_row = b * double(columns) + c * double(columns) * double(columns);
  if (!(per_row > 0)) return std::numeric_limits<size_t>::max();
  const double rows = std::floor((budget - a) / per_row);
  if (!(rows > 0)) return 0;
  if (rows >= double(std::numeric_limits<size_t>::max())) {
    return std::numeric_limits<size_t>::max();
  }
  return static_cast<size_t>(rows);
}

Result<MemoryModel> fit_memory_model(std::span<const MemorySample> samples) {
  if (samples.size() < 3) {
    return Status::errorf("fitting a memory model needs at least 3 measured runs, not {}",
                          samples.size());
  }
  // Least squares by QR (modified Gram-Schmidt) on columns scaled to unit length: the normal
  // equations would square a condition number that the spread of 1, rows·columns and
  // rows·columns² (1 to ~10^6) already makes large.
  const size_t n = samples.size();
  std::array<std::vector<double>, 3> q;
  for (auto& column : q) column.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const double tokens = double(samples[i].rows) * double(samples[i].columns);
    q[0][i] = 1;
    q[1][i] = tokens;
    q[2][i] = tokens * double(samples[i].columns);
  }
  std::array<double, 3> scale{};
  for (size_t j = 0; j < 3; ++j) {
    double norm = 0;
    for (double v : q[j]) norm += v * v;
    scale[j] = std::sqrt(norm);
    if (!(scale[j] > 0)) return Status::error("fitting a memory model: a run of no tokens");
    for (double& v : q[j]) v /= scale[j];
  }
  double r[3][3] = {};
  for (size_t j = 0; j < 3; ++j) {
    for (size_t k = 0; k < j; ++k) {
      double dot = 0;
      for (size_t i = 0; i < n; ++i) dot += q[k][i] * q[j][i];
      r[k][j] = dot;
      for (size_t i = 0; i < n; ++i) q[j][i] -= dot * q[k][i];
    }
    double norm = 0;
    for (double v : q[j]) norm += v * v;
    r[j][j] = std::sqrt(norm);
    // Columns are unit length before orthogonalisation: what is left is how independent this
    // one is of those before it.
    if (r[j][j] < 1e-9) {
      return Status::error(
          "fitting a memory model: the measured shapes do not tell the three terms apart (they "
          "need at least two lengths and two batch sizes)");
    }
    for (double& v : q[j]) v /= r[j][j];
  }
  std::array<double, 3> rhs{};
  for (size_t j = 0; j < 3; ++j) {
    for (size_t i = 0; i < n; ++i) rhs[j] += q[j][i] * samples[i].bytes;
  }
  std::array<double, 3> x{};
  for (size_t j = 3; j-- > 0;) {
    double v = rhs[j];
    for (size_t k = j + 1; k < 3; ++k) v -= r[j][k] * x[k];
    x[j] = v / r[j][j];
  }
  return MemoryModel{x[0] / scale[0], x[1] / scale[1], x[2] / scale[2]};
}

std::vector<std::pair<size_t, size_t>> memory_probe_shapes(size_t max_columns) {
  const size_t longest = std::clamp<size_t>(max_columns, 4, 512);
  const size_t quarter = longest / 4, half = longest / 2;
  return {{1, quarter}, {2, quarter}, {2, half}, {4, half}, {4, longest}};
}

Result<std::vector<MemorySample>> measure_text_model_memory(
    const std::string& path, const OnnxSessionOptions& options, const std::string& output,
    std::span<const std::pair<size_t, size_t>> shapes) {
  OnnxSessionOptions probe_options = options;
  probe_options.memory_limit = 0;  // the probe measures need; a limit would only cut it short
  auto probe = OnnxSession::load_private(path, probe_options);
  if (!probe.is_ok()) return probe.status();
  const OnnxSession& session = *probe.value();
  std::vector<MemorySample> samples;
  std::vector<std::vector<int64_t>> values(session.inputs().size());
  std::vector<OnnxFloatTensor> outputs;
  const std::string names[] = {output};
  for (const auto& [rows, columns] : shapes) {
    std::vector<OnnxIdMatrix> inputs;
    for (size_t i = 0; i < session.inputs().size(); ++i) {
      const std::string& name = session.inputs()[i].name;
      values[i].assign(rows * columns, name == "attention_mask" ? 1 : 0);
      inputs.push_back({name, values[i], int64_t(rows), int64_t(columns)});
    }
    WINNOW_RETURN_IF_ERROR(session.run(inputs, names, outputs));
    auto peak = session.peak_memory();
    if (!peak.is_ok()) return peak.status();
    samples.push_back({rows, columns, double(peak.value())});
  }
  return samples;
}

Result<MemoryModel> text_model_memory(const std::string& path, const OnnxSessionOptions& options,
                                      const std::string& output, size_t max_columns) {
  std::error_code ec;
  std::string canonical = std::filesystem::canonical(path, ec).string();
  if (ec) canonical = path;
  const std::string key = canonical + "|" + (options.gpu ? "cuda" : "cpu") + "|" +
                          std::to_string(options.gpu_device) + "|" + output;
  static std::mutex mutex;
  static std::map<std::string, MemoryModel> fitted;
  // Held while measuring: two stages fitting at once would each measure with the other's runs
  // on the machine, and the second fit of a model would be wasted.
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = fitted.find(key); found != fitted.end()) return found->second;
  auto shapes = memory_probe_shapes(max_columns);
  auto samples = measure_text_model_memory(path, options, output, shapes);
  if (!samples.is_ok()) return samples.status();
  auto model = fit_memory_model(samples.value());
  if (!model.is_ok()) {
    return Status::errorf("ONNX model '{}': {}", path, model.status().message());
  }
  fitted.emplace(key, model.value());
  return model;
}

}  // namespace winnow
