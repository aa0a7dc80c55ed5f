#include "io/warc_reader.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "core/json_text.h"
#include "core/utf8.h"
#include "io/jsonl_parser.h"

namespace winnow {

namespace {

constexpr size_t kBufferBytes = 1 << 20;
constexpr size_t kMaxHeaderLine = 64 << 10;    // one WARC header line
constexpr size_t kMaxHeaderBlock = 256 << 10;  // all WARC headers of one record
constexpr size_t kMaxHttpHead = 64 << 10;      // status line and HTTP headers
constexpr size_t kExcerptBytes = 256;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The media type of a Content-Type value: "Text/HTML; charset=x" -> "text/html".
std::string media_type(std::string_view content_type) {
  return lower(trim(content_type.substr(0, content_type.find(';'))));
}

bool parse_u64(std::string_view s, uint64_t& out) {
  s = trim(s);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

// Appends `"key":"value"` (with a leading comma unless it is the object's first member).
void append_json_field(std::string& out, std::string_view key, std::string_view value) {
  if (out.back() != '{') out.push_back(',');
  append_json_string(out, key);
  out.push_back(':');
  if (is_valid_utf8(value)) {
    append_json_string(out, value);
  } else {
    std::string clean;
    append_sanitized_utf8(clean, value);
    append_json_string(out, clean);
  }
}

// Buffered reading over a ByteSource with the uncompressed offset of the next byte.
class Input {
 public:
  enum class Line { kOk, kTooLong, kEof };

  explicit Input(ByteSource& source)
      : source_(source),
        buffer_(std::make_unique_for_overwrite<char[]>(kBufferBytes)) {}

  // A damaged gzip member stopped the stream (reads return nothing until resume()).
  bool broken() const { return broken_; }
  const StreamError& break_error() const { return break_error_; }
  void resume() { broken_ = false; }

  uint64_t offset() const { return offset_; }
  uint64_t total() const { return offset_ + (end_ - pos_); }

  // Reads one line without its "\n" (a trailing "\r" is kept). A line longer than `max` is
  // consumed to its end and reported as kTooLong with its first `max` bytes. kEof: the
  // stream ended; `line` holds what was read (possibly nothing).
  Line read_line(std::string& line, size_t max) {
    line.clear();
    bool too_long = false;
    while (true) {
      if (!fill()) return Line::kEof;
      const char* start = buffer_.get() + pos_;
      size_t available = end_ - pos_;
      const char* nl = static_cast<const char*>(std::memchr(start, '\n', available));
      size_t take = nl ? static_cast<size_t>(nl - start) : available;
      if (!too_long) {
        size_t room = max - line.size();
        line.append(start, std::min(take, room));
        if (take > room) too_long = true;
      }
      consume(take + (nl ? 1 : 0));
      if (nl) return too_long ? Line::kTooLong : Line::kOk;
    }
  }

  // Appends up to `n` bytes to `out`; returns how many were appended (fewer at the end).
  size_t read(std::string& out, size_t n) {
    size_t done = 0;
    while (done < n && fill()) {
      size_t take = std::min(n - done, end_ - pos_);
      out.append(buffer_.get() + pos_, take);
      consume(take);
      done += take;
    }
    return done;
  }

  // Drops up to `n` bytes without copying them; returns how many were dropped.
  uint64_t skip(uint64_t n) {
    uint64_t done = 0;
    while (done < n && fill()) {
      size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, end_ - pos_));
      consume(take);
      done += take;
    }
    return done;
  }

  int peek() {
    if (!fill()) return -1;
    return static_cast<unsigned char>(buffer_[pos_]);
  }
  void consume(size_t n) {
    pos_ += n;
    offset_ += n;
  }

 private:
  bool fill() {
    if (pos_ < end_) return true;
    if (eof_ || broken_) return false;
    size_t n = source_.read(buffer_.get(), kBufferBytes);
    pos_ = 0;
    end_ = n;
    if (n == 0) {
      if (source_.take_break(&break_error_)) {
        broken_ = true;
      } else {
        eof_ = true;
      }
    }
    return n > 0;
  }

  ByteSource& source_;
  bool broken_ = false;
  StreamError break_error_;
  std::unique_ptr<char[]> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t offset_ = 0;
  bool eof_ = false;
};

struct WarcHeaders {
  std::string type;
  std::string target_uri;
  std::string record_id;
  std::string date;
  std::string content_type;
  uint64_t content_length = 0;
  bool has_length = false;
};

struct HttpHead {
  int status = 0;
  std::string content_type;
  bool chunked = false;
  std::string content_encoding;
  size_t body_offset = 0;  // into the block
};

// Parses the HTTP status line and headers at the start of `block`. False when it is not an
// HTTP response head.
bool parse_http_head(std::string_view block, bool complete, HttpHead& head) {
  size_t end = block.find("\r\n\r\n");
  size_t sep = 4;
  if (size_t lf = block.find("\n\n"); lf != std::string_view::npos && lf < end) {
    end = lf;
    sep = 2;
  }
  if (end == std::string_view::npos) {
    if (!complete) return false;
    end = block.size();  // a head with no body
    sep = 0;
  }
  head.body_offset = end + sep;
  std::string_view text = block.substr(0, end);
  size_t line_end = text.find('\n');
  std::string_view status_line = trim(text.substr(0, line_end));
  if (status_line.substr(0, 5) != "HTTP/") return false;
  size_t space = status_line.find(' ');
  if (space == std::string_view::npos) return false;
  std::string_view code = status_line.substr(space + 1, 3);
  if (code.size() != 3 || !std::all_of(code.begin(), code.end(), ::isdigit)) return false;
  head.status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
  while (line_end != std::string_view::npos) {
    text.remove_prefix(line_end + 1);
    line_end = text.find('\n');
    std::string_view line = text.substr(0, line_end);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-type")) {
      head.content_type = std::string(value);
    } else if (iequals(name, "transfer-encoding")) {
      head.chunked = lower(value).find("chunked") != std::string::npos;
    } else if (iequals(name, "content-encoding")) {
      head.content_encoding = lower(value);
    }
  }
  return true;
}

// Undoes chunked transfer coding in place; tolerant of a missing last chunk.
void dechunk(std::string& body, size_t from) {
  std::string out;
  size_t pos = from;
  while (pos < body.size()) {
    size_t eol = body.find('\n', pos);
    if (eol == std::string::npos) break;
    std::string_view size_text = trim(std::string_view(body).substr(pos, eol - pos));
    size_text = size_text.substr(0, size_text.find(';'));
    uint64_t size = 0;
    auto [ptr, ec] =
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
    if (ec != std::errc() || size_text.empty()) break;
    pos = eol + 1;
    if (size == 0) break;
    size_t take = static_cast<size_t>(std::min<uint64_t>(size, body.size() - pos));
    out.append(body, pos, take);
    pos += take;
    while (pos < body.size() && (body[pos] == '\r' || body[pos] == '\n')) ++pos;
  }
  body.resize(from);
  body += out;
}

// Inflates a gzip or deflate body; false when it is not valid or grows past `limit`.
bool inflate_body(std::string& body, size_t from, bool gzip, size_t limit) {
  z_stream z{};
  // gzip: 15 + 16; deflate: zlib-wrapped usually (15), raw rarely (-15): try auto (15 + 32).
  if (inflateInit2(&z, gzip ? 15 + 16 : 15 + 32) != Z_OK) return false;
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(body.data() + from);
  z.avail_in = static_cast<uInt>(body.size() - from);
  char chunk[64 << 10];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof(chunk);
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof(chunk) - z.avail_out);
    if (out.size() > limit) rc = Z_MEM_ERROR;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) rc = Z_STREAM_END;  // cut short: keep what we have
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return false;
  body.resize(from);
  body += out;
  return true;
}

}  // namespace

class WarcReader::Impl {
 public:
  Impl(std::string path, uint32_t shard, WarcOptions options)
      : path_(std::move(path)), shard_(shard), options_(std::move(options)) {
    for (auto& t : options_.record_types) t = lower(t);
    for (auto& t : options_.content_types) t = lower(t);
  }

  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return source_ ? source_->compressed_bytes_read() : 0; }

 private:
  struct Pending {
    size_t payload_offset, payload_size, record_offset, record_size;
    uint64_t index;
  };

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
                fmt::format("{} (in the record at byte {}); skipped to the next record", e.message,
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
  // Skips to the next line that starts a WARC record; false at the end of the stream.
  bool resync() {
    std::string line;
    while (true) {
      uint64_t start = input_->offset();
      Input::Line status = input_->read_line(line, kMaxHeaderLine);
      if (line.rfind("WARC/1.", 0) == 0 && status == Input::Line::kOk) {
        pending_version_ = line;
        pending_offset_ = start;
        return true;
      }
      if (status == Input::Line::kEof) {
        if (!input_->broken()) return false;
        input_->resume();  // a damaged member while looking: keep looking after it
      }
    }
  }
  bool type_wanted(const std::string& type) const {
    for (const auto& t : options_.record_types) {
      if (t == type) return true;
    }
    return false;
  }
  bool content_wanted(std::string_view content_type) const {
    std::string media = media_type(content_type);
    for (const auto& t : options_.content_types) {
      if (t == "*" || t == media) return true;
      if (ends_with(t, "/*") && media.compare(0, t.size() - 1, t, 0, t.size() - 1) == 0)
        return true;
    }
    return false;
  }
  bool status_wanted(int status) const {
    if (options_.status_codes.empty()) return true;
    return std::find(options_.status_codes.begin(), options_.status_codes.end(), status) !=
           options_.status_codes.end();
  }
  // Consumes the "\r\n\r\n" that ends a record (tolerating missing or bare "\n").
  void consume_trailer() {
    for (int i = 0; i < 4; ++i) {
      int c = input_->peek();
      if (c != '\r' && c != '\n') return;
      input_->consume(1);
    }
  }
  // Reads one record. Returns false when the stream has ended.
  bool read_record(DocBatch& batch, std::string& data, std::vector<Pending>& pending);

  std::string path_;
  uint32_t shard_;
  WarcOptions options_;
  std::unique_ptr<ByteSource> source_;
  std::unique_ptr<Input> input_;
  bool opened_ = false;
  bool finished_ = false;
  bool end_emitted_ = false;
  uint64_t sequence_ = 0;
  uint64_t record_index_ = 0;  // records started so far (the next record's DocKey row)
  std::string pending_version_;
  uint64_t pending_offset_ = 0;
  std::string line_;
  std::string block_;
};

bool WarcReader::Impl::read_record(DocBatch& batch, std::string& data,
                                   std::vector<Pending>& pending) {
  // The version line, skipping blank lines between records.
  uint64_t record_offset;
  std::string version;
  if (!pending_version_.empty()) {
    version = std::move(pending_version_);
    pending_version_.clear();
    record_offset = pending_offset_;
  } else {
    while (true) {
      record_offset = input_->offset();
      Input::Line status = input_->read_line(line_, kMaxHeaderLine);
      if (status == Input::Line::kEof && line_.empty()) {
        if (input_->broken()) return report_end(batch, record_offset, "");
        if (source_->failed()) report_end(batch, record_offset, "");
        if (input_->total() == 0 && !source_->failed()) {
          add_error(batch, InputError::kEmptyFile, 0, fmt::format("{}: file is empty", path_));
        }
        finished_ = true;
        return false;
      }
      if (!trim(line_).empty() || status != Input::Line::kOk) break;
    }
    version = line_;
  }
  if (version.rfind("WARC/1.", 0) != 0) {
    add_error(batch, InputError::kCorruptWarc, record_offset,
              fmt::format("{}: byte {}: expected a 'WARC/1.0' or 'WARC/1.1' line; skipped to "
                          "the next record",
                          path_, record_offset),
              version);
    ++record_index_;
    if (!resync()) finished_ = true;
    return !finished_;
  }

  // WARC headers up to the blank line.
  WarcHeaders headers;
  size_t header_bytes = 0;
  std::string bad;
  while (true) {
    Input::Line status = input_->read_line(line_, kMaxHeaderLine);
    if (status == Input::Line::kEof) {
      ++record_index_;
      return report_end(batch, record_offset, "the file ends inside its WARC headers");
    }
    header_bytes += line_.size() + 1;
    if (status == Input::Line::kTooLong || header_bytes > kMaxHeaderBlock) {
      bad = "WARC headers are too long";
      break;
    }
    std::string_view line = trim(line_);
    if (line.empty()) break;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      if (line_[0] == ' ' || line_[0] == '\t') continue;  // a folded continuation line
      bad = fmt::format("malformed WARC header line '{}'", line.substr(0, 80));
      break;
    }
    std::string_view name = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "WARC-Type")) {
      headers.type = lower(value);
    } else if (iequals(name, "WARC-Target-URI")) {
      if (value.size() >= 2 && value.front() == '<' && value.back() == '>') {
        value = value.substr(1, value.size() - 2);  // WARC/1.0 examples wrap URIs in <>
      }
      headers.target_uri = std::string(value);
    } else if (iequals(name, "WARC-Record-ID")) {
      headers.record_id = std::string(value);
    } else if (iequals(name, "WARC-Date")) {
      headers.date = std::string(value);
    } else if (iequals(name, "Content-Type")) {
      headers.content_type = std::string(value);
    } else if (iequals(name, "Content-Length")) {
      if (!parse_u64(value, headers.content_length)) {
        bad = fmt::format("Content-Length '{}' is not a number", value.substr(0, 40));
        break;
      }
      headers.has_length = true;
    }
  }
  uint64_t index = record_index_++;
  if (bad.empty() && !headers.has_length) bad = "the record has no Content-Length";
  if (!bad.empty()) {
    add_error(batch, InputError::kCorruptWarc, record_offset,
              fmt::format("{}: record at byte {}: {}; skipped to the next record", path_,
                          record_offset, bad),
              version);
    if (!resync()) finished_ = true;
    return !finished_;
  }

  uint64_t length = headers.content_length;
  auto skip_rest = [&](uint64_t remaining) {
    if (input_->skip(remaining) < remaining) {
      return report_end(batch, record_offset,
                        fmt::format("Content-Length is {} but the file ends first", length));
    }
    consume_trailer();
    return true;
  };
  auto skip_record = [&](uint64_t remaining) {
    ++batch.skipped_records;
    return skip_rest(remaining);
  };

  bool response = headers.type == "response";
  if (!type_wanted(headers.type)) return skip_record(length);
  if (!response && !content_wanted(headers.content_type)) return skip_record(length);
  if (response && media_type(headers.content_type) != "application/http") {
    return skip_record(length);  // dns:, whois: and other non-HTTP responses
  }

  // The block: for a response, its HTTP head first, so unwanted bodies are never copied.
  block_.clear();
  HttpHead head;
  uint64_t read = 0;
  if (response) {
    size_t first = static_cast<size_t>(std::min<uint64_t>(length, kMaxHttpHead));
    read = input_->read(block_, first);
    if (read < first) {
      return report_end(batch, record_offset,
                        fmt::format("Content-Length is {} but the file ends first", length));
    }
    if (!parse_http_head(block_, read == length, head)) {
      add_error(batch, InputError::kCorruptWarc, record_offset,
                fmt::format("{}: record at byte {}: the response holds no valid HTTP head; "
                            "skipped",
                            path_, record_offset),
                block_);
      return skip_rest(length - read);
    }
    if (!status_wanted(head.status) || !content_wanted(head.content_type)) {
      return skip_record(length - read);
    }
  }
  uint64_t payload = length - (response ? head.body_offset : 0);
  if (payload > options_.max_record_bytes) {
    add_error(batch, InputError::kRecordTooLarge, record_offset,
              fmt::format("{}: record at byte {}: payload of {} bytes is over the limit of {} "
                          "(max_record_bytes); skipped",
                          path_, record_offset, payload, options_.max_record_bytes));
    return skip_rest(length - read);
  }
  uint64_t rest = length - read;
  if (input_->read(block_, static_cast<size_t>(rest)) < rest) {
    return report_end(batch, record_offset,
                      fmt::format("Content-Length is {} but the file ends first", length));
  }
  consume_trailer();

  size_t body = response ? std::min(head.body_offset, block_.size()) : 0;
  if (response && head.chunked) dechunk(block_, body);
  if (response && !head.content_encoding.empty() && head.content_encoding != "identity") {
    bool gzip = head.content_encoding.find("gzip") != std::string::npos;
    bool deflate = head.content_encoding.find("deflate") != std::string::npos;
    if (!(gzip || deflate) || !inflate_body(block_, body, gzip, options_.max_record_bytes)) {
      add_error(batch, InputError::kCorruptWarc, record_offset,
                fmt::format("{}: record at byte {}: cannot decode Content-Encoding '{}'; "
                            "skipped",
                            path_, record_offset, head.content_encoding));
      return true;
    }
  }

  Pending p;
  p.index = index;
  p.payload_offset = data.size();
  p.payload_size = block_.size() - body;
  data.append(block_, body);
  p.record_offset = data.size();
  data.push_back('{');
  append_json_field(data, "url", headers.target_uri);
  append_json_field(data, "warc_record_id", headers.record_id);
  append_json_field(data, "warc_date", headers.date);
  append_json_field(data, "content_type", response ? head.content_type : headers.content_type);
  if (response) data += fmt::format(",\"http_status\":{}", head.status);
  data.push_back(',');
  append_json_string(data, options_.text_field);
  data += ":\"\"}";
  p.record_size = data.size() - p.record_offset;
  pending.push_back(p);
  return true;
}

std::unique_ptr<DocBatch> WarcReader::Impl::next() {
  if (end_emitted_) return nullptr;
  auto batch = std::make_unique<DocBatch>();
  batch->shard = shard_;
  batch->sequence = sequence_++;
  if (finished_) {
    batch->end_of_shard = true;
    end_emitted_ = true;
    return batch;
  }
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
    input_ = std::make_unique<Input>(*source_);
  }

  uint64_t start = input_->offset();
  std::string data;
  std::vector<Pending> pending;
  while (!finished_ && pending.size() < options_.batch_records &&
         data.size() < options_.batch_bytes) {
    if (!read_record(*batch, data, pending)) break;
  }

  auto buffer = std::make_unique_for_overwrite<char[]>(data.size() + kRecordPadding);
  std::memcpy(buffer.get(), data.data(), data.size());
  std::memset(buffer.get() + data.size(), ' ', kRecordPadding);
  const char* base = buffer.get();
  batch->set_raw_buffer(std::move(buffer), data.size());
  batch->raw_input_bytes = input_->offset() - start;
  batch->reserve(pending.size());
  for (const Pending& p : pending) {
    DocKey key = DocKey::make(shard_, p.index);
    batch->add_document(key, JsonlParser::generated_id(key), true,
                        std::string_view(base + p.payload_offset, p.payload_size),
                        std::string_view(base + p.record_offset, p.record_size), p.index + 1);
    batch->mark_text_unchecked(batch->size() - 1);
  }
  return batch;
}

WarcReader::WarcReader(std::string path, uint32_t shard_index, WarcOptions options)
    : impl_(std::make_unique<Impl>(std::move(path), shard_index, std::move(options))) {}
WarcReader::~WarcReader() = default;

std::unique_ptr<DocBatch> WarcReader::next() { return impl_->next(); }
uint64_t WarcReader::compressed_bytes_read() const { return impl_->compressed_bytes_read(); }

bool WarcReader::is_warc_path(const std::string& path) {
  std::string name = lower(path);
  return ends_with(name, ".warc") || ends_with(name, ".warc.gz") || ends_with(name, ".warc.zst");
}

}  // namespace winnow
