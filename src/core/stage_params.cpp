#include "core/stage_params.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "core/number_text.h"

namespace winnow {

namespace {
std::string with_article(std::string_view noun) {
  bool vowel = !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos;
  return std::string(vowel ? "an " : "a ") + std::string(noun);
}
}  // namespace

std::string_view param_type_name(ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return "integer";
    case ParamType::kFloat:
      return "number";
    case ParamType::kBool:
      return "boolean";
    case ParamType::kString:
      return "string";
    case ParamType::kStringList:
      return "list of strings";
    case ParamType::kScalar:
      return "scalar";
  }
  return "?";
}

namespace {

bool parse_int(const std::string& text, int64_t& out) {
  auto value = parse_number<int64_t>(text);
  if (value) out = *value;
  return value.has_value();
}

bool parse_float(const std::string& text, double& out) {
  if (text == ".inf" || text == "inf") {
    out = INFINITY;
    return true;
  }
  if (text == "-.inf" || text == "-inf") {
    out = -INFINITY;
    return true;
  }
  auto value = parse_number<double>(text);
  if (value) out = *value;
  return value.has_value();
}

bool parse_bool(const std::string& text, bool& out) {
  if (text == "true" || text == "True" || text == "yes") {
    out = true;
    return true;
  }
  if (text == "false" || text == "False" || text == "no") {
    out = false;
    return true;
  }
  return false;
}

bool is_quoted(const YAML::Node& node) { return node.Tag() == "!"; }

// Converts one YAML node to the spec's type; returns a message on mismatch.
std::optional<std::string> convert(const YAML::Node& node, ParamType type,
                                   StageParams::Value& out) {
  auto describe = [&]() -> std::string {
    if (node.IsScalar()) return "'" + node.Scalar() + "'";
    if (node.IsSequence()) return "a list";
    if (node.IsMap()) return "a map";
    return "nothing";
  };
  std::string expected = "must be " + with_article(param_type_name(type)) + ", got ";
  switch (type) {
    case ParamType::kInt: {
      int64_t v;
      if (!node.IsScalar() || is_quoted(node) || !parse_int(node.Scalar(), v)) {
        return expected + describe();
      }
      out = v;
      return std::nullopt;
    }
    case ParamType::kFloat: {
      double v;
      if (!node.IsScalar() || is_quoted(node) || !parse_float(node.Scalar(), v)) {
        return expected + describe();
      }
      out = v;
      return std::nullopt;
    }
    case ParamType::kBool: {
      bool v;
      if (!node.IsScalar() || is_quoted(node) || !parse_bool(node.Scalar(), v)) {
        return expected + describe();
      }
      out = v;
      return std::nullopt;
    }
    case ParamType::kString:
      if (!node.IsScalar()) return expected + describe();
      out = node.Scalar();
      return std::nullopt;
    case ParamType::kScalar:
      if (!node.IsScalar()) return expected + describe();
      out = ScalarParam{node.Scalar(), is_quoted(node)};
      return std::nullopt;
    case ParamType::kStringList: {
      std::vector<std::string> list;
      if (node.IsScalar()) {
        list.push_back(node.Scalar());  // a single string is a list of one
      } else if (node.IsSequence()) {
        for (const auto& item : node) {
          if (!item.IsScalar()) {
            return std::string("must be a list of strings, got ") +
                   (item.IsMap() ? "a map" : item.IsSequence() ? "a list" : "nothing") +
                   " inside the list";
          }
          list.push_back(item.Scalar());
        }
      } else {
        return expected + describe();
      }
      out = std::move(list);
      return std::nullopt;
    }
  }
  return "unsupported parameter type";
}

Status fill_defaults(const std::vector<ParamSpec>& specs, const std::string& label,
                     std::map<std::string, StageParams::Value>& values) {
  for (const auto& spec : specs) {
    if (values.count(spec.name)) continue;
    if (spec.required) {
      return Status::errorf("stage '{}': missing required parameter '{}' ({}: {})", label,
                            spec.name, param_type_name(spec.type), spec.help);
    }
    if (spec.default_value.empty() && spec.type != ParamType::kString &&
        spec.type != ParamType::kStringList && spec.type != ParamType::kScalar) {
      continue;  // optional with no default: absent
    }
    if (spec.default_value.empty()) {
      if (spec.type == ParamType::kString) values[spec.name] = std::string();
      if (spec.type == ParamType::kStringList) values[spec.name] = std::vector<std::string>();
      continue;
    }
    StageParams::Value v;
    if (auto message = convert(YAML::Load(spec.default_value), spec.type, v)) {
      return Status::errorf("stage '{}': bad default for '{}': {}", label, spec.name, *message);
    }
    values[spec.name] = std::move(v);
  }
  return Status::ok();
}

bool holds_type(const StageParams::Value& value, ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return std::holds_alternative<int64_t>(value);
    case ParamType::kFloat:
      return std::holds_alternative<double>(value) || std::holds_alternative<int64_t>(value);
    case ParamType::kBool:
      return std::holds_alternative<bool>(value);
    case ParamType::kString:
      return std::holds_alternative<std::string>(value);
    case ParamType::kStringList:
      return std::holds_alternative<std::vector<std::string>>(value);
    case ParamType::kScalar:
      return std::holds_alternative<ScalarParam>(value);
  }
  return false;
}

}  // namespace

Result<StageParams> StageParams::parse(const YAML::Node& node, const std::vector<ParamSpec>& specs,
                                       const std::vector<std::string>& skip_keys,
                                       const std::string& where, const std::string& label) {
  StageParams params;
  params.where_ = where;
  params.stage_label_ = label;
  params.stage_line_ = node.Mark().line + 1;
  if (!node.IsMap()) {
    return Status::errorf("{}:{}: stage '{}': expected a map of parameters", where,
                          params.stage_line_, label);
  }
  std::map<std::string, bool> seen;
  for (const auto& item : node) {
    std::string key = item.first.Scalar();
    int line = item.first.Mark().line + 1;
    if (seen[key]) {
      return Status::errorf("{}:{}: stage '{}': key '{}' appears twice", where, line, label, key);
    }
    seen[key] = true;
    if (std::find(skip_keys.begin(), skip_keys.end(), key) != skip_keys.end()) continue;
    auto spec =
        std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == key; });
    if (spec == specs.end()) {
      std::string known;
      for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.name;
      return Status::errorf("{}:{}: stage '{}': unknown parameter '{}' (known: {})", where, line,
                            label, key, known.empty() ? "none" : known);
    }
    Value v;
    if (auto message = convert(item.second, spec->type, v)) {
      return Status::errorf("{}:{}: stage '{}': parameter '{}' {}", where,
                            item.second.Mark().line + 1, label, key, *message);
    }
    params.values_[key] = std::move(v);
    params.lines_[key] = line;
    params.given_[key] = true;
  }
  Status defaults = fill_defaults(specs, label, params.values_);
  if (!defaults.is_ok()) {
    return Status::errorf("{}:{}: {}", where, params.stage_line_, defaults.message());
  }
  return params;
}

Result<StageParams> StageParams::from_values(const std::map<std::string, Value>& values,
                                             const std::vector<ParamSpec>& specs,
                                             const std::string& label) {
  StageParams params;
  params.where_ = "<program>";
  params.stage_label_ = label;
  for (const auto& [key, value] : values) {
    if (std::none_of(specs.begin(), specs.end(),
                     [&](const ParamSpec& s) { return s.name == key; })) {
      return Status::errorf("stage '{}': unknown parameter '{}'", label, key);
    }
    const ParamSpec& spec = *std::find_if(specs.begin(), specs.end(),
                                          [&](const ParamSpec& s) { return s.name == key; });
    if (!holds_type(value, spec.type)) {
      return Status::errorf("stage '{}': parameter '{}' must be {}", label, key,
                            with_article(param_type_name(spec.type)));
    }
    params.values_[key] = value;
    params.given_[key] = true;
  }
  WINNOW_RETURN_IF_ERROR(fill_defaults(specs, label, params.values_));
  return params;
}

int64_t StageParams::get_int(const std::string& key) const {
  return std::get<int64_t>(values_.at(key));
}
double StageParams::get_float(const std::string& key) const {
  const Value& v = values_.at(key);
  if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}
bool StageParams::get_bool(const std::string& key) const { return std::get<bool>(values_.at(key)); }
const std::string& StageParams::get_string(const std::string& key) const {
  return std::get<std::string>(values_.at(key));
}
const std::vector<std::string>& StageParams::get_string_list(const std::string& key) const {
  return std::get<std::vector<std::string>>(values_.at(key));
}
const ScalarParam& StageParams::get_scalar(const std::string& key) const {
  return std::get<ScalarParam>(values_.at(key));
}

Status StageParams::choice_error(const std::string& key,
                                 const std::vector<std::string_view>& names,
                                 const std::string& given) const {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) list += i + 1 == names.size() ? " or " : ", ";
    list += names[i];
  }
  return error(key, "must be " + list + ", not '" + given + "'");
}

std::string StageParams::given_text() const {
  std::string out;
  for (const auto& [key, value] : values_) {
    if (!given(key)) continue;
    if (!out.empty()) out += ", ";
    out += key + ": ";
    if (auto* i = std::get_if<int64_t>(&value)) out += std::to_string(*i);
    if (auto* d = std::get_if<double>(&value)) out += fmt::format("{}", *d);
    if (auto* b = std::get_if<bool>(&value)) out += *b ? "true" : "false";
    if (auto* s = std::get_if<std::string>(&value)) out += *s;
    if (auto* scalar = std::get_if<ScalarParam>(&value)) out += scalar->text;
    if (auto* list = std::get_if<std::vector<std::string>>(&value)) {
      out += "[";
      for (size_t k = 0; k < list->size(); ++k) out += (k ? ", " : "") + (*list)[k];
      out += "]";
    }
  }
  return out;
}

Status StageParams::error(const std::string& key, const std::string& message) const {
  auto line = lines_.find(key);
  int at = line != lines_.end() ? line->second : stage_line_;
  return Status::errorf("{}:{}: stage '{}': parameter '{}': {}", where_, at, stage_label_, key,
                        message);
}

}  // namespace winnow
