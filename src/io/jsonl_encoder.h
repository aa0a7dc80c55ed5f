#pragma once
// JsonlEncoder: serialises a processed batch into the bytes of its three outputs: kept
// documents, rejected documents (with the stage, reason and score that dropped them) and error
// records. An unchanged document is its input record verbatim; a changed one is rebuilt from
// the record's members with the text replaced and annotations appended as fields (a field of
// the same name in the input is replaced, not duplicated). A media item (an image) is a line of
// its metadata instead: it has no input record. Rows replaced by their children (fan-out) or
// merged into another row (fan-in) are written nowhere: the rows they became are.
#include <string>

#include "core/doc_batch.h"
#include "core/reason_table.h"

namespace winnow {

struct EncodeOptions {
  std::string text_field = "text";
  std::string id_field = "id";
  bool write_rejected = true;
  // false: kept rows are left to another encoder (megatron output's token ids:
  // pipeline/megatron_encoder.h); rejected rows and errors are encoded as ever.
  bool write_kept = true;
};

class JsonlEncoder {
 public:
  JsonlEncoder(EncodeOptions options, const ReasonTable& reasons)
      : options_(std::move(options)), reasons_(reasons) {}

  // Thread-safe; fills batch.encoded_kept / encoded_rejected / encoded_errors. `file` is the
  // input file (named in error records and media items' lines), `shard_name` the shard's output
  // name (media items' file names, io/shard_output.h).
  void encode(DocBatch& batch, const std::string& file, const std::string& shard_name = {}) const;

  // One document as a JSON line; `extra` (already-encoded members) is appended when given.
  void write_document(std::string& out, const DocBatch& batch, size_t i,
                      std::string_view extra) const;
  // A media item as a JSON line: id, kind, media type, size, the file its bytes were written to
  // (kept items), the input file, its annotations, then `extra`.
  void write_media_item(std::string& out, const DocBatch& batch, size_t i,
                        const std::string& file, const std::string& shard_name,
                        std::string_view extra) const;

 private:
  // A row a stage marked as an error (core/stage.h: mark_row_error), as errors/ holds input
  // errors: the file, the item's id, the kind ("stage/kind") and the stage's message.
  void write_row_error(DocBatch& batch, size_t i, const DropReason& reason,
                       const std::string& file) const;

  EncodeOptions options_;
  const ReasonTable& reasons_;
};

}  // namespace winnow
