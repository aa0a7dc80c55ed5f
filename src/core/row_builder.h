#pragma once
// RowBuilder: how a stage turns items into other items (fan-out: a document into chunks, a video
// into clips; fan-in: chunks back into one document). The stage rebuilds the batch's rows in one
// go: every existing row is carried over, in order, either as it is or marked with the stage's
// fan-out or fan-in entry (core/reason_table.h), and new rows are added where the stage places
// them: a parent's children right after it, a merged row right after the rows it merges. The
// order of rows is then a function of the input order alone, never of batch boundaries, and
// every row ends in exactly one state, so the accounting covers each level of the fan-out.
//
// New rows share the batch's raw buffer and arena: a child's text may be a view into its
// parent's (no copy), its raw record is its parent's (so every other input field is written
// back with it), and it inherits its parent's annotations and payload unless the stage sets
// others. finish() swaps the new rows in; the batch's derived-data caches are dropped.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

class RowBuilder {
 public:
  explicit RowBuilder(DocBatch& batch);

  // Carries row `row` of the batch over unchanged; returns its new index.
  size_t carry(size_t row);
  // Carries row `row` over marked `state` (a fan-out or fan-in entry of the stage).
  size_t carry_as(size_t row, ReasonId state);

  // Child number `index` of row `parent`, made by fan-out entry `origin`: key derived from the
  // parent's, text `text` (a view into the batch is kept as it is, other bytes are copied into
  // the arena), id "<parent id>-<index>", kind and payload the parent's.
  size_t add_child(size_t parent, uint32_t index, ReasonId origin, std::string_view text);
  // The row that fan-in entry `origin` made of several rows: a copy of row `like` (key, id,
  // record, annotations, lineage) with text `text`.
  size_t add_merged(size_t like, ReasonId origin, std::string_view text);

  // Only for rows this builder added.
  void set_id(size_t new_row, std::string_view id);
  void set_kind(size_t new_row, ItemKind kind);
  void set_payload(size_t new_row, Payload payload);

  size_t size() const { return source_.size(); }
  // Throws std::logic_error (the run fails naming the stage) unless every row of the batch was
  // carried exactly once, in order: a stage can never lose a row silently.
  void finish();

 private:
  size_t add_row(size_t from);
  // A view into the batch (its raw buffer or arena) is kept as it is; other bytes are copied.
  std::string_view kept_text(std::string_view text);
  void make_kept(size_t new_row);

  DocBatch& batch_;
  std::vector<size_t> source_;  // per new row: the old row its columns come from
  DocBatch::Rows rows_;
  size_t next_carry_ = 0;  // rows must be carried once each, in order
  bool finished_ = false;
};

}  // namespace winnow
