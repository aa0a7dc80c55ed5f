#pragma once
// StageParams: a stage's YAML parameters, checked against the stage's declared ParamSpecs
// before the stage is built. Unknown keys, wrong types and missing required keys are errors
// that name the file, the line, the stage and the key.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
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

  // The parameters the pipeline file gave, as "key: value, key: value" in key order (the run
  // report shows them beside each drop reason, so a score can be read against its threshold).
  std::string given_text() const;

  // "pipeline.yaml:12: stage 'length': parameter 'min_chars': <message>"
  Status error(const std::string& key, const std::string& message) const;

  // A string parameter naming one of a fixed set of choices, as the value it stands for:
  //   auto scheme = p.get_choice<MinHashScheme>(
  //       "scheme", {{"classic", MinHashScheme::kClassic}, {"one_permutation", ...}});
  // Any other string is an error naming the key, every choice and what was given
  // ("must be classic or one_permutation, not 'x'").
  template <class T>
  Result<T> get_choice(const std::string& key,
                       std::initializer_list<std::pair<std::string_view, T>> choices) const {
    const std::string& given = get_string(key);
    std::vector<std::string_view> names;
    for (const auto& [name, value] : choices) {
      if (name == given) return value;
      names.push_back(name);
    }
    return choice_error(key, names, given);
  }

  // The error get_choice() gives: "must be a, b or c, not 'given'".
  Status choice_error(const std::string& key, const std::vector<std::string_view>& names,
                      const std::string& given) const;

 private:
  std::map<std::string, Value> values_;
  std::map<std::string, int> lines_;  // 1-based YAML line of each given key
  std::map<std::string, bool> given_;
  std::string where_;
  std::string stage_label_;
  int stage_line_ = 0;
};

}  // namespace winnow
