// slicer: NeMo Curator's Slicer. text[left:right], then stripped (`strip`, default true):
//   - `left` an integer: a code-point index as Python slices (negative counts from the end,
//     out of range clamps); a string: the first occurrence of that marker, kept unless
//     `include_left: false`; a marker not found empties the document;
//   - `right` an integer: the index (exclusive); a string: the last occurrence (rfind) of that
//     marker, kept unless `include_right: false`; not found empties the document; unset: the
//     end of the text.
// The right marker is searched in the whole text, not after the left one, so a right end
// before the left start gives "" (Python's slice). NeMo tells an index from a marker by the
// value's type; here an unquoted integer is an index and anything else (quoted, or not a
// number) a marker: `left: "3"` cuts at the text "3". Defaults are NeMo's code's (include_left
// and include_right true; its docstring says false).
#include <algorithm>

#include "core/number_text.h"
#include "stages/modify/text_modifier.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// One end of the slice: unset, a code-point index, or a marker.
struct SliceEnd {
  enum class Kind { kUnset, kIndex, kMarker } kind = Kind::kUnset;
  int64_t index = 0;
  std::string marker;
};

// The byte offset of code-point index `index` as Python's slice clamps it (`length` code points).
size_t byte_offset(std::string_view text, int64_t index, int64_t length) {
  if (index < 0) index = std::max<int64_t>(0, index + length);
  if (index >= length) return text.size();
  const char* p = text.data();
  const char* end = p + text.size();
  for (int64_t k = 0; k < index; ++k) decode_utf8(p, end);
  return static_cast<size_t>(p - text.data());
}

class Slicer final : public TextModifier {
 public:
  Slicer(SliceEnd left, SliceEnd right, bool include_left, bool include_right, bool strip)
      : left_(std::move(left)),
        right_(std::move(right)),
        include_left_(include_left),
        include_right_(include_right),
        strip_(strip) {}

  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    int64_t length = -1;  // in code points, counted once when an index needs it
    auto offset = [&](int64_t index) {
      if (length < 0) length = static_cast<int64_t>(python_len(text));
      return byte_offset(text, index, length);
    };
    size_t begin = 0, end = text.size();
    if (left_.kind == SliceEnd::Kind::kIndex) {
      begin = offset(left_.index);
    } else if (left_.kind == SliceEnd::Kind::kMarker) {
      size_t at = text.find(left_.marker);
      if (at == std::string_view::npos) return emptied(out);
      begin = include_left_ ? at : at + left_.marker.size();
    }
    if (right_.kind == SliceEnd::Kind::kIndex) {
      end = offset(right_.index);
    } else if (right_.kind == SliceEnd::Kind::kMarker) {
      size_t at = text.rfind(right_.marker);
      if (at == std::string_view::npos) return emptied(out);
      end = include_right_ ? at + right_.marker.size() : at;
    }
    std::string_view result = begin < end ? text.substr(begin, end - begin) : std::string_view();
    if (strip_) result = python_strip(result);
    if (result.size() == text.size()) return {};  // a slice as long as the text is the text
    out.assign(result);
    return {true};
  }

 private:
  static TextRewrite emptied(std::string& out) {
    out.clear();
    return {true};
  }

  SliceEnd left_, right_;
  bool include_left_, include_right_, strip_;
};

Result<SliceEnd> slice_end(const StageParams& p, const std::string& key) {
  SliceEnd end;
  if (!p.has(key)) return end;
  const ScalarParam& value = p.get_scalar(key);
  if (!value.quoted) {
    if (value.text.empty() || value.text == "~" || value.text == "null" || value.text == "None")
      return end;
    if (auto index = parse_number<int64_t>(value.text)) {
      end.kind = SliceEnd::Kind::kIndex;
      end.index = *index;
      return end;
    }
  }
  end.kind = SliceEnd::Kind::kMarker;
  end.marker = value.text;
  return end;
}

}  // namespace

StageSpec slicer_spec() {
  return modifier_spec(
      "slicer",
      "NeMo Slicer: keeps text[left:right], each end a code-point index or a marker (the first "
      "left, the last right), then strips it; a marker not found empties the document.",
      {
          {"left", ParamType::kScalar, "0",
           "start: an integer index (negative from the end) or a marker string (quoted in YAML)"},
          {"right", ParamType::kScalar, "",
           "end (exclusive): an integer index or a marker string (quoted in YAML); unset: the end"},
          {"include_left", ParamType::kBool, "true", "a left marker is kept in the result"},
          {"include_right", ParamType::kBool, "true", "a right marker is kept in the result"},
          {"strip", ParamType::kBool, "true", "strip white space from the result"},
      },
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<TextModifier>> {
        auto left = slice_end(p, "left");
        if (!left.is_ok()) return left.status();
        auto right = slice_end(p, "right");
        if (!right.is_ok()) return right.status();
        return std::unique_ptr<TextModifier>(new Slicer(
            std::move(left.value()), std::move(right.value()), p.get_bool("include_left"),
            p.get_bool("include_right"), p.get_bool("strip")));
      });
}

}  // namespace winnow
