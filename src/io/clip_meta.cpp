#include "io/clip_meta.h"

#include <simdjson.h>

#include <array>
#include <cmath>

#include "core/json_text.h"

namespace winnow {

namespace {

// The fields a clip has from its video and its split, not scores.
constexpr std::array<std::string_view, 12> kClipFacts = {
    "span_start_s", "span_end_s", "clip_index", "frames",      "fps",          "width",
    "height",       "duration_s", "bit_rate",   "chunk_index", "source_video", "captions"};

// A JSON value a stage stored as text (the caption stage's windows), written again through `out`
// so that it is laid out like the rest of the file.
void write_value(JsonWriter& out, simdjson::dom::element value) {
  switch (value.type()) {
    // value_unsafe() hands back a reference into its result: the array and object are copied
    // out first, or a range-for would walk a dead temporary.
    case simdjson::dom::element_type::ARRAY: {
      const simdjson::dom::array items = value.get_array().value_unsafe();
      out.begin_array();
      for (simdjson::dom::element item : items) write_value(out, item);
      out.end_array();
      break;
    }
    case simdjson::dom::element_type::OBJECT: {
      const simdjson::dom::object fields = value.get_object().value_unsafe();
      out.begin_object();
      for (auto field : fields) {
        out.key(field.key);
        write_value(out, field.value);
      }
      out.end_object();
      break;
    }
    case simdjson::dom::element_type::STRING:
      out.value(value.get_string().value_unsafe());
      break;
    case simdjson::dom::element_type::INT64:
      out.value(value.get_int64().value_unsafe());
      break;
    case simdjson::dom::element_type::UINT64:
      out.value(value.get_uint64().value_unsafe());
      break;
    case simdjson::dom::element_type::DOUBLE:
      out.value(value.get_double().value_unsafe());
      break;
    case simdjson::dom::element_type::BOOL:
      out.value(value.get_bool().value_unsafe());
      break;
    case simdjson::dom::element_type::NULL_VALUE:
      out.raw("null");
      break;
  }
}

bool is_fact(std::string_view name) {
  for (std::string_view fact : kClipFacts) {
    if (name == fact) return true;
  }
  return false;
}

}  // namespace

std::string clip_meta_json(const DocBatch& batch, size_t row) {
  auto column = [&](std::string_view name) -> const AnnotationColumn* {
    const AnnotationColumn* c = batch.find_annotation(name);
    return c && c->has(row) ? c : nullptr;
  };
  auto number = [&](std::string_view name) -> double {
    const AnnotationColumn* c = column(name);
    if (!c) return 0;
    return c->type() == AnnotationType::kInt ? double(c->int_at(row)) : c->float_at(row);
  };
  JsonWriter out(true);
  out.begin_object();
  out.key("id").value(batch.id(row));
  const AnnotationColumn* source = column("source_video");
  out.key("source_video").value(source ? source->string_at(row) : std::string());
  out.key("span_s")
      .begin_array()
      .value(number("span_start_s"))
      .value(number("span_end_s"))
      .end_array();
  out.key("frames").value(static_cast<int64_t>(std::llround(number("frames"))));
  out.key("fps").value(number("fps"));
  out.key("width").value(static_cast<int64_t>(std::llround(number("width"))));
  out.key("height").value(static_cast<int64_t>(std::llround(number("height"))));
  out.key("scores").begin_object();
  for (const auto& c : batch.annotations()) {
    if (!c->has(row) || is_fact(c->name())) continue;
    if (c->type() == AnnotationType::kFloat) out.key(c->name()).value(c->float_at(row));
    if (c->type() == AnnotationType::kInt) out.key(c->name()).value(c->int_at(row));
  }
  out.end_object();
  // The caption stage's windows (stages/video/caption.cpp), already JSON; none: an empty list.
  const AnnotationColumn* captions = column("captions");
  simdjson::dom::parser parser;
  simdjson::dom::element windows;
  if (captions && captions->type() == AnnotationType::kString &&
      parser.parse(captions->string_at(row)).get(windows) == simdjson::SUCCESS) {
    write_value(out.key("captions"), windows);
  } else {
    out.key("captions").begin_array().end_array();
  }
  out.end_object();
  return out.take() + "\n";
}

}  // namespace winnow
