#include "io/warc_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/ascii.h"
#include "io/buffered_input.h"
#include "io/chunked_decoding.h"
#include "io/content_decoding.h"
#include "io/header_field.h"
#include "io/http_response_head.h"
#include "io/shard_batches.h"
#include "io/warc_digest.h"
#include "io/warc_header_parser.h"
#include "io/warc_record_builder.h"
#include "io/warc_record_filter.h"

namespace winnow {

namespace {

constexpr size_t kExcerptBytes = 256;

// Reading one record goes through the steps below, each of which can end it (skipped, an
// error, the end of the stream). A step returns nullopt to go on with the record, or what
// read_record returns: whether reading goes on.
using Ended = std::optional<bool>;

// What follows a record's block and its "\r\n\r\n".
enum class Boundary {
  kRecord,  // the next record's version line
  kEnd,     // the end of the stream (or a damaged gzip member: reported on its own)
  kOther,   // anything else: the Content-Length does not end the record
};

}  // namespace

class WarcReader::Impl {
 public:
  Impl(std::string path, uint32_t shard, WarcOptions options)
      : path_(std::move(path)),
        shard_(shard),
        options_(std::move(options)),
        filter_(options_.record_types, options_.content_types, options_.status_codes) {}

  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return source_ ? source_->compressed_bytes_read() : 0; }

 private:
  // What is known of the record being read.
  struct Record {
    uint64_t offset = 0;  // of its version line in the uncompressed stream
    uint64_t index = 0;   // its DocKey row
    std::string version;
    WarcHeaders headers;
    std::optional<HttpResponseHead> http;  // response records
  };

  // Reads one record into `rows` (or skips it). Returns false when the stream has ended.
  bool read_record(DocBatch& batch, WarcRecordBuilder& rows);
  // The steps of read_record, in order.
  Ended read_version_line(DocBatch& batch, Record& record);
  Ended read_headers(DocBatch& batch, Record& record);
  Ended read_block(DocBatch& batch, Record& record);
  Ended read_http_head(DocBatch& batch, Record& record);
  Ended decode_payload(DocBatch& batch, const Record& record, size_t& body);
  // After a kept record's block (in block_): its framing, digests and gzip member checked.
  Ended check_record(DocBatch& batch, const Record& record);

  void add_error(DocBatch& batch, InputError kind, uint64_t offset, std::string message,
                 std::string_view excerpt = {}) {
    InputErrorRecord record;
    record.kind = kind;
    record.line = record_index_;
    record.byte_offset = offset;
    record.message = std::move(message);
    record.excerpt.assign(excerpt.substr(0, kExcerptBytes));
    batch.errors.push_back(std::move(record));
  }
  // After the stream stopped inside a record: a damaged gzip member (an error, then reading
  // goes on at the next record), a failed source, or a record cut short by the end of the
  // file. Returns whether reading goes on.
  bool report_end(DocBatch& batch, uint64_t record_offset, std::string_view what) {
    if (input_->broken()) {
      const StreamError& e = input_->break_error();
      add_error(batch, e.kind, record_offset,
                fmt::format("{} (in the record at byte {})", e.message,
                            record_offset));
      input_->resume();
      if (!resync()) finished_ = true;
      return !finished_;
    }
    finished_ = true;
    if (source_->failed()) {
      add_error(batch, source_->error().kind, record_offset,
                fmt::format("{} (in the record at byte {}); the rest of the file is unreadable",
                            source_->error().message, record_offset));
    } else {
      add_error(batch, InputError::kTruncatedWarc, record_offset,
                fmt::format("{}: record at byte {} is cut short: {}", path_, record_offset, what));
    }
    return false;
  }
  // The stream stopped before the record's Content-Length bytes.
  bool cut_short(DocBatch& batch, const Record& record) {
    return report_end(
        batch, record.offset,
        fmt::format("Content-Length is {} but the file ends first", record.headers.content_length));
  }
  // After a corrupt record: an error, then reading goes on at the next version line.
  bool reject(DocBatch& batch, const Record& record, std::string message);
  // Skips to the next line that starts a WARC record; false at the end of the stream.
  bool resync() {
    std::string line;
    while (true) {
      uint64_t start = input_->offset();
      BufferedInput::Line status = input_->read_line(line, WarcHeaderParser::kMaxLine);
      if (WarcHeaderParser::is_version_line(line) && status == BufferedInput::Line::kOk) {
        pending_version_ = line;
        pending_offset_ = start;
        return true;
      }
      if (status == BufferedInput::Line::kEof) {
        if (!input_->broken()) return false;
        input_->resume();  // a damaged member while looking: keep looking after it
      }
    }
  }
  // Consumes the "\r\n\r\n" that ends a record into ending_ (any run of CR and LF: writers
  // differ), then looks at what follows without consuming it.
  Boundary read_record_end() {
    ending_.clear();
    for (int c = input_->peek(); c == '\r' || c == '\n'; c = input_->peek()) {
      ending_.push_back(static_cast<char>(c));
      input_->consume(1);
    }
    switch (input_->looking_at("WARC/1.")) {
      case BufferedInput::Ahead::kYes:
        return Boundary::kRecord;
      case BufferedInput::Ahead::kEnd:
        return Boundary::kEnd;
      case BufferedInput::Ahead::kNo:
        break;
    }
    return Boundary::kOther;
  }
  // After a record found corrupt once its block was read: reading goes on where the next
  // record starts. A Content-Length too large swallowed the next record's start: when the
  // block read holds "\r\n\r\nWARC/1.", the bytes from there are read again. Otherwise
  // the next version line from here. Returns whether reading goes on.
  bool resume_after(std::string_view block) {
    size_t at = block.find("\r\n\r\nWARC/1.");
    if (at != std::string_view::npos) {
      input_->unread(std::string(block.substr(at + 4)) + ending_);
      return true;
    }
    if (!resync()) finished_ = true;
    return !finished_;
  }
  // Drops the `remaining` bytes of a record's block; `unwanted`: it is counted as skipped.
  bool skip_block(DocBatch& batch, const Record& record, uint64_t remaining, bool unwanted);

  std::string path_;
  uint32_t shard_;
  ShardBatches batches_{shard_};
  WarcOptions options_;
  WarcRecordFilter filter_;
  std::unique_ptr<ByteSource> source_;
  std::unique_ptr<BufferedInput> input_;
  bool opened_ = false;
  bool finished_ = false;
  uint64_t record_index_ = 0;  // records started so far (the next record's DocKey row)
  std::string pending_version_;
  uint64_t pending_offset_ = 0;
  std::string line_;
  std::string block_;
  std::string ending_;  // the CR and LF bytes read after the last block
};

bool WarcReader::Impl::reject(DocBatch& batch, const Record& record, std::string message) {
  add_error(batch, InputError::kCorruptWarc, record.offset, std::move(message), record.version);
  if (!resync()) finished_ = true;
  return !finished_;
}

bool WarcReader::Impl::skip_block(DocBatch& batch, const Record& record, uint64_t remaining,
                                  bool unwanted) {
  if (input_->skip(remaining) < remaining) {
    if (unwanted) ++batch.skipped_records;
    return cut_short(batch, record);
  }
  if (read_record_end() == Boundary::kOther) {
    // An unwanted record's lie can still cost the next record, so it is reported; a record
    // already reported (too large, bad HTTP head) is not reported twice.
    if (unwanted) {
      add_error(batch, InputError::kCorruptWarc, record.offset,
                fmt::format("{}: record at byte {}: its Content-Length ({}) does not end at a "
                            "record boundary (byte {} does not start the next record)",
                            path_, record.offset, record.headers.content_length,
                            input_->offset()),
                record.version);
    }
    if (!resync()) finished_ = true;
    return !finished_;
  }
  if (unwanted) ++batch.skipped_records;
  return true;
}

Ended WarcReader::Impl::check_record(DocBatch& batch, const Record& record) {
  Boundary boundary = read_record_end();
  // Its gzip member must have ended with a good CRC-32 and length before the record goes out:
  // the damaged bytes were already handed out when zlib found the damage.
  if (!input_->verified_through(input_->offset()) && input_->broken()) {
    return report_end(batch, record.offset, "");
  }
  std::string digest_problem;
  bool digest_good = false;
  if (options_.verify_digests) {
    const WarcHeaders& headers = record.headers;
    std::string_view block = block_;
    if (auto digest = WarcDigest::parse(headers.block_digest)) {
      digest_good = digest->matches(block);
      if (!digest_good) {
        digest_problem = fmt::format("its WARC-Block-Digest ({}) does not match its {} bytes "
                                     "({})",
                                     headers.block_digest, block.size(),
                                     warc_digest_text(sha1(block)));
      }
    } else if (auto payload_digest = WarcDigest::parse(headers.payload_digest)) {
      std::string_view payload =
          record.http ? block.substr(std::min(record.http->body_offset, block.size())) : block;
      digest_good = payload_digest->matches(payload);
      if (!digest_good && record.http && record.http->chunked) {
        // Writers differ on whether the payload is taken before or after dechunking.
        std::string dechunked(block);
        size_t body = std::min(record.http->body_offset, dechunked.size());
        decode_chunked(dechunked, body);
        digest_good = payload_digest->matches(std::string_view(dechunked).substr(body));
      }
      if (!digest_good) {
        digest_problem = fmt::format("its WARC-Payload-Digest ({}) does not match its payload",
                                     headers.payload_digest);
      }
    }
  }
  if (boundary != Boundary::kOther && digest_problem.empty()) return std::nullopt;
  if (boundary == Boundary::kOther && digest_good) {
    // The digest vouches for the record: the bytes after it are junk, not its fault.
    add_error(batch, InputError::kCorruptWarc, input_->offset(),
              fmt::format("{}: byte {}: expected a 'WARC/1.0' or 'WARC/1.1' line after the "
                          "record at byte {}",
                          path_, input_->offset(), record.offset));
    if (!resync()) finished_ = true;
    return std::nullopt;
  }
  std::string why = boundary == Boundary::kOther
                        ? fmt::format("its Content-Length ({}) does not end at a record boundary "
                                      "(byte {} does not start the next record)",
                                      record.headers.content_length, input_->offset())
                        : digest_problem;
  bool next_inside = std::string_view(block_).find("\r\n\r\nWARC/1.") != std::string::npos;
  add_error(batch, InputError::kCorruptWarc, record.offset,
            fmt::format("{}: record at byte {}: {}{}", path_, record.offset, why,
                        next_inside ? " (the next record starts inside it: Content-Length is "
                                      "too large)"
                                    : ""),
            record.version);
  return resume_after(block_);
}

bool WarcReader::Impl::read_record(DocBatch& batch, WarcRecordBuilder& rows) {
  Record record;
  if (Ended ended = read_version_line(batch, record)) return *ended;
  if (Ended ended = read_headers(batch, record)) return *ended;
  if (Ended ended = read_block(batch, record)) return *ended;
  size_t body = 0;
  if (Ended ended = decode_payload(batch, record, body)) return *ended;
  rows.add(record.index, std::string_view(block_).substr(body), record.headers,
           record.http ? &*record.http : nullptr);
  return true;
}

// The version line, skipping blank lines between records (or the one resync() found).
Ended WarcReader::Impl::read_version_line(DocBatch& batch, Record& record) {
  if (!pending_version_.empty()) {
    record.version = std::move(pending_version_);
    pending_version_.clear();
    record.offset = pending_offset_;
  } else {
    while (true) {
      record.offset = input_->offset();
      BufferedInput::Line status = input_->read_line(line_, WarcHeaderParser::kMaxLine);
      if (status == BufferedInput::Line::kEof && line_.empty()) {
        if (input_->broken()) return report_end(batch, record.offset, "");
        if (source_->failed()) report_end(batch, record.offset, "");
        if (input_->total() == 0 && !source_->failed()) {
          add_error(batch, InputError::kEmptyFile, 0, fmt::format("{}: file is empty", path_));
        }
        finished_ = true;
        return false;
      }
      if (!trim_field(line_).empty() || status != BufferedInput::Line::kOk) break;
    }
    record.version = line_;
  }
  if (WarcHeaderParser::is_version_line(record.version)) return std::nullopt;
  bool go_on = reject(batch, record,
                      fmt::format("{}: byte {}: expected a 'WARC/1.0' or 'WARC/1.1' line",
                                  path_, record.offset));
  ++record_index_;  // after the error, whose line is this record's index
  return go_on;
}

// The WARC headers up to the blank line.
Ended WarcReader::Impl::read_headers(DocBatch& batch, Record& record) {
  WarcHeaderParser parser;
  WarcHeaderParser::Step step;
  do {
    BufferedInput::Line status = input_->read_line(line_, WarcHeaderParser::kMaxLine);
    if (status == BufferedInput::Line::kEof) {
      ++record_index_;
      return report_end(batch, record.offset, "the file ends inside its WARC headers");
    }
    step = parser.add_line(line_, status == BufferedInput::Line::kTooLong);
  } while (step == WarcHeaderParser::Step::kMore);
  record.index = record_index_++;
  if (step == WarcHeaderParser::Step::kBad) {
    return reject(batch, record,
                  fmt::format("{}: record at byte {}: {}", path_,
                              record.offset, parser.error()));
  }
  record.headers = parser.take_headers();
  return std::nullopt;
}

// The block into block_, unless the headers (and for a response, its HTTP head) say the
// record is unwanted or too large: then it is skipped without being copied.
Ended WarcReader::Impl::read_block(DocBatch& batch, Record& record) {
  const WarcHeaders& headers = record.headers;
  uint64_t length = headers.content_length;
  bool response = headers.type == "response";
  if (!filter_.type_wanted(headers.type)) return skip_block(batch, record, length, true);
  if (!response && !filter_.content_wanted(headers.content_type)) {
    return skip_block(batch, record, length, true);
  }
  if (response && media_type(headers.content_type) != "application/http") {
    return skip_block(batch, record, length, true);  // dns:, whois: and other non-HTTP responses
  }
  block_.clear();
  if (response) {
    if (Ended ended = read_http_head(batch, record)) return *ended;
  }
  uint64_t read = block_.size();
  uint64_t payload = length - (response ? record.http->body_offset : 0);
  if (payload > options_.max_record_bytes) {
    add_error(batch, InputError::kRecordTooLarge, record.offset,
              fmt::format("{}: record at byte {}: payload of {} bytes is over the limit of {} "
                          "(max_record_bytes)",
                          path_, record.offset, payload, options_.max_record_bytes));
    return skip_block(batch, record, length - read, false);
  }
  uint64_t rest = length - read;
  if (input_->read(block_, static_cast<size_t>(rest)) < rest) return cut_short(batch, record);
  return check_record(batch, record);
}

// A response's HTTP head, read first so that an unwanted body is never copied.
Ended WarcReader::Impl::read_http_head(DocBatch& batch, Record& record) {
  uint64_t length = record.headers.content_length;
  size_t first = static_cast<size_t>(std::min<uint64_t>(length, HttpResponseHead::kMaxBytes));
  uint64_t read = input_->read(block_, first);
  if (read < first) return cut_short(batch, record);
  record.http = HttpResponseHead::parse(block_, read == length);
  if (!record.http) {
    add_error(batch, InputError::kCorruptWarc, record.offset,
              fmt::format("{}: record at byte {}: the response holds no valid HTTP head",
                          path_, record.offset),
              block_);
    return skip_block(batch, record, length - read, false);
  }
  if (!filter_.status_wanted(record.http->status) ||
      !filter_.content_wanted(record.http->content_type)) {
    return skip_block(batch, record, length - read, true);
  }
  return std::nullopt;
}

// The payload: the whole block, or a response's body with its transfer and content codings
// undone. `body`: where the payload starts in block_.
Ended WarcReader::Impl::decode_payload(DocBatch& batch, const Record& record, size_t& body) {
  if (!record.http) return std::nullopt;
  const HttpResponseHead& head = *record.http;
  body = std::min(head.body_offset, block_.size());
  if (head.chunked) decode_chunked(block_, body);
  if (!decode_content(block_, body, head.content_encoding, options_.max_record_bytes)) {
    add_error(batch, InputError::kCorruptWarc, record.offset,
              fmt::format("{}: record at byte {}: cannot decode Content-Encoding '{}'",
                          path_, record.offset, head.content_encoding));
    return true;
  }
  return std::nullopt;
}

std::unique_ptr<DocBatch> WarcReader::Impl::next() {
  auto batch = batches_.next(finished_);
  if (!batch || batch->end_of_shard) return batch;
  if (!opened_) {
    opened_ = true;
    StreamError error;
    // A damaged record's gzip member costs that record, not the rest of the file.
    source_ = ByteSource::open(path_, &error, {.resume_after_damaged_gzip_member = true});
    if (!source_) {
      add_error(*batch, error.kind, 0, error.message);
      finished_ = true;
      return batch;
    }
    input_ = std::make_unique<BufferedInput>(*source_);
  }

  uint64_t start = input_->offset();
  WarcRecordBuilder rows(shard_, options_.text_field);
  while (!finished_ && rows.size() < options_.batch_records &&
         rows.bytes() < options_.batch_bytes) {
    if (!read_record(*batch, rows)) break;
  }
  rows.finish(*batch);
  batch->raw_input_bytes = input_->offset() - start;
  return batch;
}

WarcReader::WarcReader(std::string path, uint32_t shard_index, WarcOptions options)
    : impl_(std::make_unique<Impl>(std::move(path), shard_index, std::move(options))) {}
WarcReader::~WarcReader() = default;

std::unique_ptr<DocBatch> WarcReader::next() { return impl_->next(); }
uint64_t WarcReader::compressed_bytes_read() const { return impl_->compressed_bytes_read(); }

bool WarcReader::is_warc_path(const std::string& path) {
  return ascii_iends_with(path, ".warc") || ascii_iends_with(path, ".warc.gz") ||
         ascii_iends_with(path, ".warc.zst");
}

}  // namespace winnow
