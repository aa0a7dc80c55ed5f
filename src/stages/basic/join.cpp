// join: the fan-in that undoes a fan-out. The pieces a stage such as `chunk` made of one
// document, those still kept, are joined (in order, with `separator` between them) back into
// one document: the parent as it was before the fan-out — its key, id, every other field and
// its annotations — with the joined text. So chunk → per-piece filters → join removes the
// pieces that fail a filter from each document (NeMo Curator's DocumentJoiner). A parent whose
// pieces were all dropped stays replaced by them (their reasons say why). The pieces are
// merged into the new document (core/row_builder.h): they are counted as merged, not written.
//
// The pieces of a document always travel in its batch (a fan-out inserts them right after
// their parent), so what is joined never depends on batch boundaries.
#include <string>
#include <unordered_map>

#include "core/row_builder.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class JoinStage final : public Stage {
 public:
  JoinStage(std::string separator, StageContext& context)
      : separator_(std::move(separator)), merged_(context.declare_fan_in("merged")) {}

  Status process(DocBatch& batch) override {
    // The latest row replaced by children, by key: the parent a run of pieces belongs to.
    std::unordered_map<uint64_t, size_t> parents;
    RowBuilder out(batch);
    std::string text;
    for (size_t i = 0; i < batch.size();) {
      const RowLineage& first = batch.lineage(i);
      if (!batch.kept(i) || first.depth == 0) {
        if (!batch.kept(i)) parents[batch.key(i).value()] = i;
        out.carry(i);
        ++i;
        continue;
      }
      auto parent = parents.find(first.parent.value());
      if (parent == parents.end()) {
        return Status::errorf("join: the parent of '{}' is not in its batch", batch.id(i));
      }
      // The run of the parent's pieces (and anything made of them) from here on; its kept
      // pieces at this depth are merged.
      text.clear();
      bool any = false;
      size_t end = i;
      for (; end < batch.size(); ++end) {
        const RowLineage& row = batch.lineage(end);
        if (row.depth < first.depth || (row.depth == first.depth && row.parent != first.parent)) {
          break;
        }
        if (!batch.kept(end)) parents[batch.key(end).value()] = end;
        if (row.depth == first.depth && batch.kept(end)) {
          if (any) text += separator_;
          text += batch.text(end);
          any = true;
          out.carry_as(end, merged_);
        } else {
          out.carry(end);
        }
      }
      out.add_merged(parent->second, merged_, text);
      i = end;
    }
    out.finish();
    return Status::ok();
  }

 private:
  std::string separator_;
  ReasonId merged_;
};

}  // namespace

StageSpec join_spec() {
  return {
      "join",
      "Joins the kept pieces of each document (made by chunk or another fan-out) back into the "
      "document they came from.",
      {
          {"separator", ParamType::kString, "\"\\n\\n\"", "put between the pieces (a blank line)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        return std::unique_ptr<Stage>(new JoinStage(p.get_string("separator"), context));
      },
  };
}

}  // namespace winnow
