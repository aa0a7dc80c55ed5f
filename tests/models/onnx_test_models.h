#pragma once
// Small BERT-style ONNX models with seeded random weights, built at test time by
// tests/models/bert_test_model.py (Debian's python3-onnx under /usr/bin/python3), and their
// outputs computed independently by the same script with numpy.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

inline const std::string kModelScript = kSource + "/tests/models/bert_test_model.py";

// Builds a model into `dir` (created) with the script's build options, e.g. "--head pooler".
inline void build_bert_model(const std::string& dir, const std::string& options = "") {
  std::string out;
  if (run_command("/usr/bin/python3 " + kModelScript + " build " + dir + " " + options, &out) !=
      0) {
    throw std::runtime_error("building the test model failed: " + out);
  }
}

// Per document: "mean", "cls", "pooler" or "logits" -> the reference vector (float64), computed
// on the document's ids alone (batch size 1, no padding).
using ReferenceOutputs = std::vector<std::map<std::string, std::vector<double>>>;

inline ReferenceOutputs reference_outputs(const std::string& model_dir,
                                          const std::vector<std::vector<int64_t>>& ids) {
  std::string json = "[";
  for (size_t d = 0; d < ids.size(); ++d) {
    json += d ? ",[" : "[";
    for (size_t i = 0; i < ids[d].size(); ++i) json += (i ? "," : "") + std::to_string(ids[d][i]);
    json += "]";
  }
  json += "]";
  std::string ids_path = model_dir + "/ids.json", out_path = model_dir + "/reference.json";
  write_file(ids_path, json);
  std::string out;
  if (run_command("/usr/bin/python3 " + kModelScript + " reference " + model_dir + " " + ids_path +
                      " " + out_path,
                  &out) != 0) {
    throw std::runtime_error("the numpy reference failed: " + out);
  }
  simdjson::dom::parser parser;
  simdjson::dom::array documents = parser.load(out_path).get_array();
  ReferenceOutputs result;
  for (simdjson::dom::object document : documents) {
    auto& entry = result.emplace_back();
    for (auto field : document) {
      std::vector<double>& values = entry[std::string(field.key)];
      for (double v : field.value.get_array()) values.push_back(v);
    }
  }
  return result;
}

}  // namespace winnow::testing
