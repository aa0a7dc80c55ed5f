#pragma once
// JsonlParser: turns a batch's raw lines into documents. Each line must be a JSON object with a
// string text field; anything else becomes an error record naming the file and line. Parsing
// is strict (simdjson DOM validates the whole record, UTF-8 included), because the record's
// other fields are later written back byte for byte; but valid JSON is never an error: a number
// simdjson cannot hold (past 64 bits or a double's range) reads as the string of its text
// (io/wide_json_numbers.h), and an id that is such a number is that text.
#include <cstdint>
#include <optional>
#include <string>

#include "core/doc_batch.h"

namespace winnow {

struct ParseOptions {
  std::string text_field = "text";
  std::string id_field = "id";
};

class JsonlParser {
 public:
  explicit JsonlParser(ParseOptions options) : options_(std::move(options)) {}
  // Thread-safe; `file` names the shard in error messages. Document keys are made of
  // `key_shard` (default: the batch's shard; a range of a split file passes its file's place,
  // io/input_files.h) and the line.
  void parse(DocBatch& batch, const std::string& file,
             std::optional<uint32_t> key_shard = std::nullopt) const;

  // The id given to a document whose record has none.
  static std::string generated_id(DocKey key);

 private:
  ParseOptions options_;
};

}  // namespace winnow
