#include "io/json_column_types.h"

#include <simdjson.h>

#include <unordered_map>

#include "io/duckdb_session.h"
#include "io/json_members.h"
#include "io/wide_json_numbers.h"

namespace winnow {

namespace {

// A node of the type lattice: kUnknown (only nulls seen) below every kind, kJson above all.
struct Type {
  enum Kind { kUnknown, kBool, kBigint, kDouble, kVarchar, kList, kStruct, kJson };
  Kind kind = kUnknown;
  std::unique_ptr<Type> element;                     // kList
  std::vector<std::pair<std::string, Type>> fields;  // kStruct, in first-seen order

  Type* field(std::string_view name) {
    for (auto& [key, type] : fields) {
      if (key == name) return &type;
    }
    return nullptr;
  }

  void become_json() {
    kind = kJson;
    element.reset();
    fields.clear();
  }

  void merge(simdjson::dom::element value) {
    if (kind == kJson) return;
    switch (value.type()) {
      case simdjson::dom::element_type::NULL_VALUE:
        return;
      case simdjson::dom::element_type::BOOL:
        return merge_scalar(kBool);
      case simdjson::dom::element_type::INT64:
        return merge_scalar(kBigint);
      case simdjson::dom::element_type::UINT64:  // past INT64_MAX: exact only as JSON text
        return become_json();
      case simdjson::dom::element_type::DOUBLE:
        return merge_scalar(kDouble);
      case simdjson::dom::element_type::STRING:
        return merge_scalar(kVarchar);
      case simdjson::dom::element_type::ARRAY:
        return merge_array(simdjson::dom::array(value));
      case simdjson::dom::element_type::OBJECT:
        return merge_object(simdjson::dom::object(value));
    }
  }

  void merge_scalar(Kind seen) {
    if (kind == kUnknown) {
      kind = seen;
      return;
    }
    // Integers and other numbers together are DOUBLE.
    bool numbers = (kind == kBigint || kind == kDouble) && (seen == kBigint || seen == kDouble);
    if (numbers) {
      if (seen == kDouble) kind = kDouble;
      return;
    }
    if (kind != seen) become_json();
  }

  void merge_array(simdjson::dom::array array) {
    if (kind == kUnknown) {
      kind = kList;
      element = std::make_unique<Type>();
    }
    if (kind != kList) return become_json();
    for (simdjson::dom::element item : array) {
      element->merge(item);
      if (element->kind == kJson) break;
    }
  }

  void merge_object(simdjson::dom::object object) {
    size_t count = object.size();
    if (kind == kUnknown) {
      if (count > JsonColumnTypes::kMaxStructFields) return become_json();
      kind = kStruct;
      for (auto [key, value] : object) {
        if (field(key)) return become_json();  // a repeated key has no struct form
        fields.emplace_back(std::string(key), Type());
      }
    }
    if (kind != kStruct || count != fields.size()) return become_json();
    for (auto [key, value] : object) {
      Type* type = field(key);
      if (!type) return become_json();
      type->merge(value);
    }
  }

  std::string duckdb_type() const {
    switch (kind) {
      case kUnknown:
      case kJson:
        return "JSON";
      case kBool:
        return "BOOLEAN";
      case kBigint:
        return "BIGINT";
      case kDouble:
        return "DOUBLE";
      case kVarchar:
        return "VARCHAR";
      case kList:
        return element->duckdb_type() + "[]";
      case kStruct: {
        if (fields.empty()) return "JSON";  // {} has no struct form
        std::string out = "STRUCT(";
        for (size_t i = 0; i < fields.size(); ++i) {
          if (i) out += ", ";
          out += sql_identifier(fields[i].first) + " " + fields[i].second.duckdb_type();
        }
        return out + ")";
      }
    }
    return "JSON";
  }
};

}  // namespace

struct JsonColumnTypes::Impl {
  simdjson::dom::parser parser;
  std::string quoted;  // a record with wide numbers, them quoted
  Type record;         // the records' own object type, its fields the columns
  std::unordered_map<std::string, size_t> index;
  std::vector<std::pair<std::string, Type>> columns;
};

JsonColumnTypes::JsonColumnTypes() : impl_(std::make_unique<Impl>()) {}
JsonColumnTypes::~JsonColumnTypes() = default;
JsonColumnTypes::JsonColumnTypes(JsonColumnTypes&&) noexcept = default;
JsonColumnTypes& JsonColumnTypes::operator=(JsonColumnTypes&&) noexcept = default;

Status JsonColumnTypes::observe(std::string_view record) {
  simdjson::dom::object object;
  auto error = impl_->parser.parse(record.data(), record.size()).get(object);
  // Numbers past 64 bits or a double's range (io/wide_json_numbers.h): the record is read from
  // a copy with them quoted, and the fields holding one become JSON, which keeps their text.
  std::vector<JsonMember> members;
  if (error == simdjson::NUMBER_ERROR && quote_wide_numbers(record, impl_->quoted)) {
    error = impl_->parser.parse(impl_->quoted).get(object);
    split_members(record, members);
    if (!error && members.size() != object.size()) error = simdjson::TAPE_ERROR;
  }
  if (error) return Status::error("a record written for Parquet is not a JSON object");
  // Columns are the union of the records' fields: a field a record lacks is null there.
  size_t i = 0;
  std::string scratch;
  for (auto [key, value] : object) {
    auto [it, added] = impl_->index.try_emplace(std::string(key), impl_->columns.size());
    if (added) impl_->columns.emplace_back(std::string(key), Type());
    Type& type = impl_->columns[it->second].second;
    if (!members.empty() && quote_wide_numbers(members[i].member, scratch)) {
      type.become_json();
    } else {
      type.merge(value);
    }
    ++i;
  }
  return Status::ok();
}

std::vector<JsonColumnTypes::Column> JsonColumnTypes::columns() const {
  std::vector<Column> out;
  for (const auto& [name, type] : impl_->columns) out.push_back({name, type.duckdb_type()});
  return out;
}

}  // namespace winnow
