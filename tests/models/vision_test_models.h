#pragma once
// Small image encoders and embedding heads with seeded random weights, built at test time by
// tests/models/vision_test_model.py (Debian's python3-onnx, python3-pil and numpy under
// /usr/bin/python3), and the references the same script computes independently: Pillow's
// decode and resize, transformers' preprocessing steps, the models in numpy float64.
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

inline const std::string kVisionScript = kSource + "/tests/models/vision_test_model.py";

// Runs the script with `args`; throws with its output when it fails.
inline void vision_script(const std::string& args) {
  std::string out;
  if (run_command("/usr/bin/python3 " + kVisionScript + " " + args + " 2>&1", &out) != 0) {
    throw std::runtime_error("vision_test_model.py " + args + " failed: " + out);
  }
}

inline std::string json_list(const std::vector<std::string>& items) {
  std::string json = "[";
  for (size_t i = 0; i < items.size(); ++i) json += (i ? ",\"" : "\"") + items[i] + "\"";
  return json + "]";
}

// Runs a reference command on `paths` and reads back its list of float lists (or of
// {"values": [...]} objects, taking the values).
inline std::vector<std::vector<double>> vision_reference(const std::string& command,
                                                         const std::string& target,
                                                         const std::vector<std::string>& paths,
                                                         const std::string& work,
                                                         const std::string& options = "") {
  const std::string in = work + "/reference_in.json", out = work + "/reference_out.json";
  write_file(in, json_list(paths));
  vision_script(command + " " + target + " " + in + " " + out + " " + options);
  simdjson::dom::parser parser;
  std::vector<std::vector<double>> result;
  for (simdjson::dom::element item : parser.load(out).get_array()) {
    simdjson::dom::array values =
        item.is_array() ? item.get_array().value() : item["values"].get_array().value();
    auto& row = result.emplace_back();
    for (double v : values) row.push_back(v);
  }
  return result;
}

// Real pictures from this machine (desktop-base, pixmaps, imageio's samples), PNG and JPEG,
// sorted by path, at most `limit`.
inline std::vector<std::string> machine_pictures(size_t limit) {
  std::vector<std::string> found;
  for (const char* root : {"/usr/share/pixmaps", "/usr/share/desktop-base",
                           "/usr/lib/python3/dist-packages/imageio/resources/images"}) {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      const std::string path = it->path().string();
      const std::string ext = it->path().extension().string();
      if (it->is_regular_file() && !it->is_symlink() &&
          (ext == ".png" || ext == ".jpg" || ext == ".jpeg")) {
        found.push_back(path);
      }
    }
  }
  std::sort(found.begin(), found.end());
  // Spread over the list, so both kinds and several sources come in.
  std::vector<std::string> picked;
  for (size_t i = 0; i < found.size() && picked.size() < limit; ++i) {
    if (i % std::max<size_t>(1, found.size() / limit) == 0) picked.push_back(found[i]);
  }
  return picked;
}

}  // namespace winnow::testing
