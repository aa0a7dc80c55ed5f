#pragma once
// A stand-in for Silero VAD built at test time by tests/models/vad_test_model.py (Debian's
// python3-onnx under /usr/bin/python3): Silero's inputs and outputs, a window's speech
// probability a sigmoid of its log energy (with a trace of the previous window's, carried in
// the state), and the script's own numpy account of what Silero's OnnxWrapper gets from it.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

inline std::string vad_model_script() { return kSource + "/tests/models/vad_test_model.py"; }

// Writes the model to `path`.
inline void build_vad_test_model(const std::string& path) {
  std::string out;
  if (run_command("/usr/bin/python3 " + vad_model_script() + " build " + path + " 2>&1", &out) !=
      0) {
    throw std::runtime_error("vad_test_model.py failed: " + out);
  }
}

// The probabilities the script computes for float32 samples in `raw` at `rate`.
inline std::vector<double> vad_reference_probabilities(const std::string& raw, int rate) {
  std::string out;
  if (run_command("/usr/bin/python3 " + vad_model_script() + " probs " + raw + " " +
                      std::to_string(rate) + " 2>&1",
                  &out) != 0) {
    throw std::runtime_error("vad_test_model.py failed: " + out);
  }
  std::istringstream in(out);
  std::vector<double> probs;
  for (double p; in >> p;) probs.push_back(p);
  return probs;
}

}  // namespace winnow::testing
