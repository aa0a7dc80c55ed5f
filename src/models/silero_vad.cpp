#include "models/silero_vad.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace winnow {

namespace {

constexpr int64_t kStateWidth = 128;

// Empty when `session` has Silero's inputs and outputs, else what is wrong.
std::string signature_problem(const OnnxSession& session) {
  const OnnxTensorInfo* input = session.find_input("input");
  const OnnxTensorInfo* state = session.find_input("state");
  const OnnxTensorInfo* sr = session.find_input("sr");
  if (!input || !state || !sr || session.inputs().size() != 3) {
    return "needs Silero VAD's three inputs input, state and sr";
  }
  if (input->element_type != "float" || input->shape.size() != 2) {
    return fmt::format("input 'input' is {} {}, not float [batch, samples]", input->element_type,
                       shape_text(input->shape));
  }
  if (state->element_type != "float" || state->shape.size() != 3) {
    return fmt::format("input 'state' is {} {}, not float [2, batch, 128]", state->element_type,
                       shape_text(state->shape));
  }
  if (sr->element_type != "int64" && sr->element_type != "int32") {
    return fmt::format("input 'sr' is {}, not an integer", sr->element_type);
  }
  if (session.outputs().size() != 2 || session.outputs()[0].element_type != "float" ||
      session.outputs()[1].element_type != "float") {
    return "needs two float outputs: the speech probability, then the state";
  }
  return {};
}

}  // namespace

Result<std::shared_ptr<const SileroVad>> SileroVad::load(const std::string& path,
                                                         const OnnxSessionOptions& options) {
  auto session = OnnxSession::load(path, options);
  if (!session.is_ok()) return session.status();
  if (std::string problem = signature_problem(**session); !problem.empty()) {
    return Status::errorf("VAD model '{}': {}", path, problem);
  }
  std::shared_ptr<SileroVad> vad(new SileroVad(std::move(session).value()));
  for (const auto& output : vad->session_->outputs()) vad->outputs_.push_back(output.name);
  return std::shared_ptr<const SileroVad>(std::move(vad));
}

Status SileroVad::probabilities(std::span<const std::span<const float>> audios, int sample_rate,
                                std::vector<std::vector<float>>& out) const {
  const int64_t window = SileroVad::window(sample_rate), context = SileroVad::context(sample_rate);
  const int64_t width = window + context;
  out.assign(audios.size(), {});
  // Longest first: the rows still running are always the first `rows`, and a batch shrinks
  // from its end as audios finish.
  std::vector<size_t> order(audios.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto windows_of = [&](size_t a) { return (int64_t(audios[a].size()) + window - 1) / window; };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return windows_of(a) > windows_of(b); });
  int64_t rows = int64_t(order.size());
  while (rows > 0 && windows_of(order[rows - 1]) == 0) --rows;
  std::vector<float> input(rows * width, 0.0f), state(2 * rows * kStateWidth, 0.0f);
  const int64_t rate = sample_rate;
  std::vector<OnnxFloatTensor> results;
  for (int64_t w = 0; rows > 0; ++w) {
    for (int64_t r = 0; r < rows; ++r) {
      float* row = input.data() + r * width;
      std::copy(row + window, row + width, row);  // the previous window's tail: the context
      std::span<const float> audio = audios[order[r]];
      const int64_t begin = w * window, end = std::min<int64_t>(begin + window, audio.size());
      std::fill(row + context, row + width, 0.0f);
      std::copy(audio.begin() + begin, audio.begin() + end, row + context);
    }
    const OnnxFloatInput floats[] = {{"input", input, {rows, width}},
                                     {"state", state, {2, rows, kStateWidth}}};
    const OnnxIntInput ints[] = {{"sr", std::span<const int64_t>(&rate, 1), {}}};
    WINNOW_RETURN_IF_ERROR(session_->run(floats, ints, outputs_, results));
    if (int64_t(results[0].values.size()) != rows ||
        int64_t(results[1].values.size()) != 2 * rows * kStateWidth) {
      return Status::errorf("VAD model '{}': gave {} probabilities and a state of {} for {} rows",
                            session_->path(), results[0].values.size(),
                            shape_text(results[1].shape), rows);
    }
    for (int64_t r = 0; r < rows; ++r) out[order[r]].push_back(results[0].values[r]);
    state = std::move(results[1].values);
    int64_t running = rows;
    while (running > 0 && windows_of(order[running - 1]) <= w + 1) --running;
    if (running < rows) {  // keep the first `running` rows of each layer's state
      std::vector<float> kept(2 * running * kStateWidth);
      for (int64_t layer = 0; layer < 2; ++layer) {
        std::copy_n(state.begin() + layer * rows * kStateWidth, running * kStateWidth,
                    kept.begin() + layer * running * kStateWidth);
      }
      state = std::move(kept);
      input.resize(running * width);
      rows = running;
    }
  }
  return Status::ok();
}

}  // namespace winnow
