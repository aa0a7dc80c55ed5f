#pragma once
// DocumentRows: the documents a reader makes itself (WARC records, Wikipedia articles, arXiv
// papers), collected as they are read and handed to a DocBatch at once. Each document is its
// text and a small JSON record of its fields whose text member is left empty
//
//   {"id":"12","title":"Anarchism",...,"text":""}
//
// (the writer puts the text back), both appended to one buffer that becomes the batch's raw
// buffer, so each is copied once. The text is marked unchecked: the parse step validates it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

class DocumentRows {
 public:
  // `text_field`: the record's member the text is written back into.
  DocumentRows(uint32_t shard, std::string_view text_field);

  // Starts a document: row `index` of the file (its DocKey row) with `text`. Its record's
  // members follow, then end().
  void begin(uint64_t index, std::string_view text);
  // A string member (a value that is not UTF-8 is sanitised).
  void add_string(std::string_view name, std::string_view value);
  // A member whose value is already JSON (a number).
  void add_json(std::string_view name, std::string_view json);
  // Ends the document begun last; `id`: its id, or nullopt for one generated from its key.
  void end(std::optional<std::string_view> id);

  size_t size() const { return pending_.size(); }
  // Bytes collected so far (texts and records), for the batch byte limit.
  size_t bytes() const { return data_.size(); }

  // Adds the documents to `batch` (which takes the buffer) and starts over empty.
  void finish(DocBatch& batch);

 private:
  struct Pending {
    size_t text_offset, text_size, record_offset, record_size;
    size_t id_offset = 0, id_size = 0;
    bool id_generated = true;
    uint64_t index;
  };

  uint32_t shard_;
  std::string text_field_;
  std::string data_;
  std::string ids_;  // the ids given to end(), one after another
  std::vector<Pending> pending_;
};

}  // namespace winnow
