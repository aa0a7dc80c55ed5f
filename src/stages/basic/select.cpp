// select: keeps documents whose field satisfies every condition given. The field is an
// annotation added by an earlier stage or a field of the input record; "a.b" reaches into
// nested objects. Conditions: equals, not_equals, in, not_in (string or number compare),
// min / max (numbers), exists. A document without the field fails every condition but
// `exists: false`, unless keep_missing is set.
#include <simdjson.h>

#include <cmath>
#include <optional>

#include "core/json_text.h"
#include "core/number_text.h"
#include "io/wide_json_numbers.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

// A field value reduced to what conditions compare: its text and, when numeric, its number.
struct FieldValue {
  std::string text;
  std::optional<double> number;
};

struct Condition {
  std::optional<ScalarParam> equals, not_equals;
  std::vector<std::string> in, not_in;
  bool has_in = false, has_not_in = false;
  std::optional<double> min, max;
  std::optional<bool> exists;
};

bool same(const FieldValue& value, const std::string& expected, bool expected_quoted) {
  if (value.number && !expected_quoted) {
    if (auto n = parse_number<double>(expected)) return *n == *value.number;
  }
  return value.text == expected;
}

class SelectStage final : public Stage {
 public:
  SelectStage(std::string field, Condition condition, bool keep_missing, StageContext& context)
      : field_(std::move(field)),
        condition_(std::move(condition)),
        keep_missing_(keep_missing),
        no_match_(context.declare_reason("no_match")),
        missing_(context.declare_reason("missing_field")) {
    for (size_t start = 0;;) {
      size_t dot = field_.find('.', start);
      path_.push_back(field_.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }

  Status process(DocBatch& batch) override {
    const AnnotationColumn* column = batch.find_annotation(field_);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::optional<FieldValue> value =
          column ? from_annotation(*column, i) : from_record(batch.record(i));
      if (!value) {
        bool keep = keep_missing_ || (condition_.exists && !*condition_.exists);
        if (!keep) batch.drop(i, missing_);
        continue;
      }
      if (!matches(*value)) batch.drop(i, no_match_);
    }
    return Status::ok();
  }

 private:
  static std::optional<FieldValue> from_annotation(const AnnotationColumn& column, size_t i) {
    if (!column.has(i)) return std::nullopt;
    switch (column.type()) {
      case AnnotationType::kFloat: {
        char buffer[32];
        auto end = std::to_chars(buffer, buffer + sizeof(buffer), column.float_at(i)).ptr;
        return FieldValue{std::string(buffer, end), column.float_at(i)};
      }
      case AnnotationType::kInt:
        return FieldValue{std::to_string(column.int_at(i)), static_cast<double>(column.int_at(i))};
      case AnnotationType::kString:
        return FieldValue{column.string_at(i), std::nullopt};
      case AnnotationType::kFloatVector: {
        // Compared as its JSON text, as a vector field read from the record would be.
        std::string text;
        append_json_float_array(text, column.vector_at(i));
        return FieldValue{std::move(text), std::nullopt};
      }
    }
    return std::nullopt;
  }

  std::optional<FieldValue> from_record(std::string_view record) const {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element element;
    // Records are padded (kRecordPadding), so they parse in place.
    if (parse_record(parser, record, element)) return std::nullopt;
    for (const std::string& key : path_) {
      simdjson::dom::object object;
      if (element.get(object) || object[key].get(element)) return std::nullopt;
    }
    if (element.is_null()) return std::nullopt;
    if (element.is_string())
      return FieldValue{std::string(element.get_string().value_unsafe()), {}};
    if (element.is_bool())
      return FieldValue{element.get_bool().value_unsafe() ? "true" : "false", {}};
    if (element.is_number()) {
      double number = 0;
      if (element.is_double())
        number = element.get_double().value_unsafe();
      else if (element.is_int64())
        number = static_cast<double>(element.get_int64().value_unsafe());
      else
        number = static_cast<double>(element.get_uint64().value_unsafe());
      return FieldValue{simdjson::minify(element), number};
    }
    return FieldValue{simdjson::minify(element), {}};  // objects and arrays compare as JSON text
  }

  bool matches(const FieldValue& value) const {
    const Condition& c = condition_;
    if (c.exists && !*c.exists) return false;
    if (c.equals && !same(value, c.equals->text, c.equals->quoted)) return false;
    if (c.not_equals && same(value, c.not_equals->text, c.not_equals->quoted)) return false;
    auto in_list = [&](const std::vector<std::string>& list) {
      for (const auto& item : list) {
        if (same(value, item, false)) return true;
      }
      return false;
    };
    if (c.has_in && !in_list(c.in)) return false;
    if (c.has_not_in && in_list(c.not_in)) return false;
    if (c.min && !(value.number && *value.number >= *c.min)) return false;
    if (c.max && !(value.number && *value.number <= *c.max)) return false;
    return true;
  }

  std::string field_;
  std::vector<std::string> path_;
  Condition condition_;
  bool keep_missing_;
  ReasonId no_match_, missing_;
};

}  // namespace

StageSpec select_spec() {
  StageSpec spec{
      "select",
      "Keeps documents whose field (an annotation or a record field, a.b for nested) meets "
      "every given condition.",
      {
          {"field", ParamType::kString, "", "field to test; a.b reaches into objects", true},
          {"equals", ParamType::kScalar, "", "keep when the field equals this"},
          {"not_equals", ParamType::kScalar, "", "keep when the field differs from this"},
          {"in", ParamType::kStringList, "", "keep when the field is one of these"},
          {"not_in", ParamType::kStringList, "", "keep when the field is none of these"},
          {"min", ParamType::kFloat, "", "keep when the field is a number >= this"},
          {"max", ParamType::kFloat, "", "keep when the field is a number <= this"},
          {"exists", ParamType::kBool, "",
           "keep when the field is present (true) or absent (false)"},
          {"keep_missing", ParamType::kBool, "false", "keep documents that lack the field"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        Condition c;
        if (p.given("equals")) c.equals = p.get_scalar("equals");
        if (p.given("not_equals")) c.not_equals = p.get_scalar("not_equals");
        if ((c.has_in = p.given("in"))) c.in = p.get_string_list("in");
        if ((c.has_not_in = p.given("not_in"))) c.not_in = p.get_string_list("not_in");
        if (p.has("min")) c.min = p.get_float("min");
        if (p.has("max")) c.max = p.get_float("max");
        if (p.has("exists")) c.exists = p.get_bool("exists");
        bool any =
            c.equals || c.not_equals || c.has_in || c.has_not_in || c.min || c.max || c.exists;
        if (!any) {
          return p.error("field",
                         "give at least one condition: equals, not_equals, in, "
                         "not_in, min, max or exists");
        }
        return std::unique_ptr<Stage>(new SelectStage(p.get_string("field"), std::move(c),
                                                      p.get_bool("keep_missing"), context));
      },
  };
  spec.takes = ItemKinds::any();  // documents and media items alike
  spec.record_fields = [](const StageParams& p) {
    return RecordFields::of({p.get_string("field")});
  };
  return spec;
}

}  // namespace winnow
