#pragma once
// WarcHeaderParser: the named fields of one WARC record (WARC/1.0 and 1.1), fed line by line
// after its version line up to the blank line that ends them. Field names match
// case-insensitively, folded continuation lines are passed over, and the block is bounded, so
// a hostile record costs at most kMaxBlock bytes of memory. WarcReader does the reading.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace winnow {

// The fields WarcReader uses; the others are passed over.
struct WarcHeaders {
  std::string type;        // WARC-Type, lower-cased
  std::string target_uri;  // WARC-Target-URI, without the <> WARC/1.0's examples put around it
  std::string record_id;
  std::string date;
  std::string content_type;
  std::string block_digest;    // WARC-Block-Digest ("sha1:..."), empty when absent
  std::string payload_digest;  // WARC-Payload-Digest
  uint64_t content_length = 0;
  bool has_length = false;
};

class WarcHeaderParser {
 public:
  static constexpr size_t kMaxLine = 64 << 10;    // one header line (longer ones are cut)
  static constexpr size_t kMaxBlock = 256 << 10;  // all header lines of one record

  enum class Step {
    kMore,  // give the next line
    kDone,  // the blank line: headers() is complete
    kBad,   // the record is corrupt; error() says why
  };

  // One line without its "\n" (a "\r" before it is fine); `cut` when the reader stopped at
  // kMaxLine bytes of a longer line. No more lines after kDone or kBad.
  Step add_line(std::string_view line, bool cut);

  const WarcHeaders& headers() const { return headers_; }
  WarcHeaders take_headers() { return std::move(headers_); }
  const std::string& error() const { return error_; }

  // A line that starts a record: "WARC/1.0", "WARC/1.1" (later minor versions too).
  static bool is_version_line(std::string_view line) { return line.starts_with("WARC/1."); }

 private:
  Step bad(std::string why);

  WarcHeaders headers_;
  size_t bytes_ = 0;
  std::string error_;
};

}  // namespace winnow
