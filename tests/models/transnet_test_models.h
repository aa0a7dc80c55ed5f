#pragma once
// A stand-in for TransNetV2 built at test time by tests/models/transnet_test_model.py (Debian's
// python3-onnx under /usr/bin/python3): the same input and outputs, each frame scored by how
// far its mean colour is from the next one's, so that the last frame before a hard cut scores
// high.
#include <stdexcept>
#include <string>

#include "test_support.h"

namespace winnow::testing {

// Writes the model to `path` with the script's `options` (--uint8, --logits, --rank2, ...).
inline void build_transnet_test_model(const std::string& path, const std::string& options = "") {
  std::string out;
  const std::string command = "/usr/bin/python3 " + kSource +
                              "/tests/models/transnet_test_model.py " + path + " " + options +
                              " 2>&1";
  if (run_command(command, &out) != 0) {
    throw std::runtime_error("transnet_test_model.py failed: " + out);
  }
}

}  // namespace winnow::testing
