#pragma once
// WarcReader: cuts one WARC file (.warc, .warc.gz as one gzip member per record or one stream,
// WARC/1.0 and 1.1) into batches of documents, one per kept record. The reader does the whole
// job of a JSONL reader and parser: each document's record is a small JSON object
//
//   {"url":..., "warc_record_id":..., "warc_date":..., "content_type":..., "http_status":200,
//    "text":""}
//
// and its text is the raw payload (HTTP body, undecoded bytes), marked unchecked so that it is
// sanitised if written as is; html_extract replaces it with the extracted UTF-8 text.
//
// Records of unwanted types or content types are skipped without being copied or parsed past
// their headers (gzip still has to inflate them) and counted in skipped_records. A corrupt
// record (bad header, bad length, bad HTTP head) is an error naming the file and the record's
// byte offset in the uncompressed stream; reading resumes at the next "WARC/1." line. A record
// cut short by the end of the file is an error too. A record is emitted only when its framing
// and data check out:
//   - its block is followed by "\r\n\r\n" (any run of CR and LF is accepted) and the next
//     "WARC/1." line or the end: otherwise its Content-Length lied and it is an error; when
//     its block holds the next record's start, reading resumes there, so that record is kept;
//   - its WARC-Block-Digest (else WARC-Payload-Digest) matches, when it has a sha1 one and
//     verify_digests is on (catches a Content-Length that ends exactly on a later record);
//   - in a .warc.gz, the gzip member(s) holding it ended with a good CRC-32 and length: the
//     record waits for its member's end (one member per record, as the WARC standard
//     recommends). A file written as one gzip stream is checked at the stream's end only. DocKey rows are record indexes in the file
// (all records, skipped ones included), so they do not depend on the filters.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "io/byte_source.h"

namespace winnow {

struct WarcOptions {
  std::vector<std::string> record_types = {"response"};
  // Media types kept (compared without parameters, case-insensitively); "type/*" matches a
  // whole type and "*" everything. For response records the HTTP Content-Type is used, for
  // other records the WARC Content-Type.
  std::vector<std::string> content_types = {"text/html", "application/xhtml+xml"};
  std::vector<int> status_codes;  // HTTP statuses kept (response records); empty: any
  std::string text_field = "text";
  size_t batch_records = 1024;
  size_t batch_bytes = 8 << 20;
  size_t max_record_bytes = 32 << 20;  // larger payloads are errors (record_too_large)
  // Check a kept record's WARC-Block-Digest (or, without one, its WARC-Payload-Digest) when it
  // has one in sha1: a mismatch makes the record an error. false saves the hashing.
  bool verify_digests = true;
};

class WarcReader {
 public:
  WarcReader(std::string path, uint32_t shard_index, WarcOptions options);
  ~WarcReader();

  // The next batch; the last one is empty and marked end_of_shard; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const;

  // True when `path` names a WARC file by its extension (.warc, .warc.gz, .warc.zst).
  static bool is_warc_path(const std::string& path);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
