// chunk: splits each document into pieces of at most `max_chars` code points or `max_words`
// words, at paragraph, then sentence, then word boundaries (text/text_chunker.h) — what users
// do before embedding long documents. A fan-out stage (core/row_builder.h): each document is
// replaced by its pieces, in order, each a document of its own that keeps every other field of
// its parent, with id "<parent id>-<index>", the parent's id in `parent_id_field` and its index
// in `index_field`. A piece's key derives from its parent's and its index, so the output does
// not depend on threads or batch sizes. A document with no text left to split (empty, or only
// white space when stripping) is dropped as `empty`. NeMo Curator's DocumentSplitter keeps the
// parent's id and numbers segments in `segment_id`; set index_field: segment_id to match.
#include <vector>

#include "core/row_builder.h"
#include "stages/builtin_stages.h"
#include "text/text_chunker.h"

namespace winnow {

namespace {

class ChunkStage final : public Stage {
 public:
  ChunkStage(ChunkLimits limits, std::string index_field, std::string parent_id_field,
             StageContext& context)
      : limits_(limits),
        index_field_(std::move(index_field)),
        parent_id_field_(std::move(parent_id_field)),
        split_(context.declare_fan_out("split")),
        empty_(context.declare_reason("empty")) {}

  Status process(DocBatch& batch) override {
    struct Child {
      size_t row;
      size_t parent_row;
      uint32_t index;
    };
    thread_local std::vector<std::string_view> pieces;
    std::vector<Child> children;
    RowBuilder out(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) {
        out.carry(i);
        continue;
      }
      chunk_text(batch.text(i), limits_, pieces);
      if (pieces.empty()) {
        out.carry_as(i, empty_);
        continue;
      }
      size_t parent_row = out.carry_as(i, split_);
      for (size_t j = 0; j < pieces.size(); ++j) {
        auto index = static_cast<uint32_t>(j);
        children.push_back({out.add_child(i, index, split_, pieces[j]), parent_row, index});
      }
    }
    out.finish();
    if (children.empty()) return Status::ok();
    AnnotationColumn& index = batch.annotation(index_field_, AnnotationType::kInt);
    AnnotationColumn& parent = batch.annotation(parent_id_field_, AnnotationType::kString);
    for (const Child& c : children) {
      index.set_int(c.row, c.index);
      parent.set_string(c.row, batch.id(c.parent_row));
    }
    return Status::ok();
  }

 private:
  ChunkLimits limits_;
  std::string index_field_;
  std::string parent_id_field_;
  ReasonId split_;
  ReasonId empty_;
};

}  // namespace

StageSpec chunk_spec() {
  return {
      "chunk",
      "Splits each document into pieces of at most max_chars code points or max_words words, at "
      "paragraph, then sentence, then word boundaries; each piece becomes a document.",
      {
          {"max_chars", ParamType::kInt, "0", "most code points per piece (one of max_chars, "
                                              "max_words)"},
          {"max_words", ParamType::kInt, "0", "most white-space separated words per piece"},
          {"strip", ParamType::kBool, "true",
           "strip white space around each piece (false: the pieces, joined, are the text)"},
          {"index_field", ParamType::kString, "chunk_index", "field for the piece's index"},
          {"parent_id_field", ParamType::kString, "parent_id", "field for the parent's id"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        int64_t max_chars = p.get_int("max_chars");
        int64_t max_words = p.get_int("max_words");
        if (max_chars < 0) return p.error("max_chars", "must be 0 or more");
        if (max_words < 0) return p.error("max_words", "must be 0 or more");
        if ((max_chars > 0) == (max_words > 0)) {
          return p.error(max_chars > 0 ? "max_chars" : "max_words",
                         "give exactly one of max_chars and max_words, above 0");
        }
        ChunkLimits limits{static_cast<uint64_t>(max_chars), static_cast<uint64_t>(max_words),
                           p.get_bool("strip")};
        return std::unique_ptr<Stage>(new ChunkStage(limits, p.get_string("index_field"),
                                                     p.get_string("parent_id_field"), context));
      },
  };
}

}  // namespace winnow
