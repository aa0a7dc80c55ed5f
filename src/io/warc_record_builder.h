#pragma once
// WarcRecordBuilder: the documents of one WarcReader batch, collected as records are read and
// handed to a DocBatch at once. Each document is a kept record's payload (its text) and a
// small JSON record of its headers
//
//   {"url":..., "warc_record_id":..., "warc_date":..., "content_type":..., "http_status":200,
//    "text":""}
//
// collected by DocumentRows (io/document_rows.h): one buffer, copied once. The text is marked
// unchecked: a payload is raw bytes, possibly not UTF-8.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"
#include "io/document_rows.h"

namespace winnow {

struct HttpResponseHead;
struct WarcHeaders;

class WarcRecordBuilder {
 public:
  // `text_field`: the record's member that the text is written back into.
  WarcRecordBuilder(uint32_t shard, std::string_view text_field);

  // One document: record `index` of the file (its DocKey row), its `payload`, its WARC
  // headers and, for a response record, its HTTP head (null otherwise: no http_status, and the
  // WARC Content-Type is the record's). Header values that are not UTF-8 are sanitised.
  void add(uint64_t index, std::string_view payload, const WarcHeaders& headers,
           const HttpResponseHead* http);

  size_t size() const { return rows_.size(); }
  // Bytes collected so far (payloads and records), for the batch byte limit.
  size_t bytes() const { return rows_.bytes(); }

  // Adds the documents to `batch` (which takes the buffer) and starts over empty.
  void finish(DocBatch& batch) { rows_.finish(batch); }

 private:
  DocumentRows rows_;
};

}  // namespace winnow
