#include "io/clip_meta.h"

#include <array>
#include <cmath>

#include "core/json_text.h"

namespace winnow {

namespace {

// The fields a clip has from its video and its split, not scores.
constexpr std::array<std::string_view, 12> kClipFacts = {
    "span_start_s", "span_end_s", "clip_index", "frames",      "fps",          "width",
    "height",       "duration_s", "bit_rate",   "chunk_index", "source_video", "captions"};

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
  if (captions && captions->type() == AnnotationType::kString) {
    out.key("captions").raw(captions->string_at(row));
  } else {
    out.key("captions").begin_array().end_array();
  }
  out.end_object();
  return out.take() + "\n";
}

}  // namespace winnow
