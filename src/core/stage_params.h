#pragma once
// StageParams: a stage's YAML parameters, checked against the stage's declared ParamSpecs
// before the stage is built. Unknown keys, wrong types and missing required keys are errors
// that name the file, the line, the stage and the key.
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/status.h"

namespace YAML {
class Node;
}

namespace winnow {

enum class ParamType { kInt, kFloat, kBool, kString, kStringList, kScalar };
std::string_view param_type_name(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type;
  std::string default_value;  // as YAML text; empty and required=true means it must be given
  std::string help;
  bool required = false;
};

// A scalar as written in YAML, for parameters that accept any scalar (kScalar): the text, and
// whether it was quoted (a quoted "1" is a string, an unquoted 1 a number).
struct ScalarParam {
  std::string text;
  bool quoted = false;
};

class StageParams {
 public:
  using Value =
      std::variant<int64_t, double, bool, std::string, std::vector<std::string>, ScalarParam>;

  // Parses `node` (a YAML map) against `specs`. `skip_keys` are handled by the caller
  // (stage, name, workers). `where` is the file name for messages.
  static Result<StageParams> parse(const YAML::Node& node, const std::vector<ParamSpec>& specs,
                                   const std::vector<std::string>& skip_keys,
                                   const std::string& where, const std::string& stage_label);

  // Builds parameters from already-typed values (tests, programmatic pipelines); unset keys
  // take their defaults.
  static Result<StageParams> from_values(const std::map<std::string, Value>& values,
                                         const std::vector<ParamSpec>& specs,
                                         const std::string& stage_label);

  bool given(const std::string& key) const { return given_.count(key) != 0; }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;
  const std::vector<std::string>& get_string_list(const std::string& key) const;
  const ScalarParam& get_scalar(const std::string& key) const;

  // "pipeline.yaml:12: stage 'length': parameter 'min_chars': <message>"
  Status error(const std::string& key, const std::string& message) const;

 private:
  std::map<std::string, Value> values_;
  std::map<std::string, int> lines_;  // 1-based YAML line of each given key
  std::map<std::string, bool> given_;
  std::string where_;
  std::string stage_label_;
  int stage_line_ = 0;
};

}  // namespace winnow
