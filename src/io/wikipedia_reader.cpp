#include "io/wikipedia_reader.h"

#include <fmt/format.h>
#include <libxml/xmlreader.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>

#include "core/ascii.h"
#include "io/byte_source.h"
#include "io/document_rows.h"
#include "io/shard_batches.h"

namespace winnow {

namespace {

void init_libxml2_once() {
  static const bool initialised = [] {
    xmlInitParser();
    return true;
  }();
  (void)initialised;
}

std::string_view name_of(xmlTextReaderPtr reader) {
  const xmlChar* name = xmlTextReaderConstLocalName(reader);
  return name ? reinterpret_cast<const char*>(name) : std::string_view();
}

std::string_view trim_ascii(std::string_view s) {
  size_t b = s.find_first_not_of(kAsciiWhitespace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kAsciiWhitespace) + 1 - b);
}

std::string_view base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string wikipedia_url_title(std::string_view title) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(title.size());
  for (char ch : title) {
    auto c = static_cast<unsigned char>(ch);
    if (c == ' ') {
      out.push_back('_');
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '-' || c == '~' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

class WikipediaReader::Impl {
 public:
  Impl(std::string path, uint32_t shard, WikipediaOptions options)
      : path_(std::move(path)), shard_(shard), options_(std::move(options)) {}
  ~Impl() {
    if (reader_) xmlFreeTextReader(reader_);
  }

  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return source_ ? source_->compressed_bytes_read() : 0; }
  uint64_t redirects() const { return redirects_; }
  uint64_t other_namespaces() const { return other_namespaces_; }

 private:
  // What is known of the page being read.
  struct Page {
    std::string title, ns, id, text;
    bool redirect = false;
    bool has_id = false;
  };

  // libxml2 pulls the file's uncompressed bytes through this, a few KB at a time; they come
  // from a larger staging buffer, so the decoder (bzip2 above all) works on large spans.
  static int read_bytes(void* context, char* buffer, int length) {
    auto* self = static_cast<Impl*>(context);
    if (self->staged_pos_ == self->staged_end_) {
      self->staged_pos_ = self->staged_end_ = 0;
      size_t n = self->source_->read(self->staged_.get(), kStagingBytes);
      if (n == 0) return self->source_->failed() ? -1 : 0;
      self->staged_end_ = n;
    }
    size_t n = std::min(static_cast<size_t>(length), self->staged_end_ - self->staged_pos_);
    std::memcpy(buffer, self->staged_.get() + self->staged_pos_, n);
    self->staged_pos_ += n;
    self->uncompressed_ += n;
    return static_cast<int>(n);
  }
  static int close_bytes(void*) { return 0; }
  static void on_error(void* context, xmlErrorPtr error) {
    auto* self = static_cast<Impl*>(context);
    if (!error || error->level == XML_ERR_WARNING || !self->xml_error_.empty()) return;
    std::string message = error->message ? error->message : "error";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    self->xml_error_ = message;
    self->xml_error_line_ = error->line > 0 ? static_cast<uint64_t>(error->line) : 0;
  }

  bool open(DocBatch& batch);
  // Reads nodes until a page ends (true) or the document does (false).
  bool read_page(DocBatch& batch);
  void finish_page(DocBatch& batch);
  void add_document(const Page& page, std::string_view text);
  void fail(DocBatch& batch);

  std::string path_;
  uint32_t shard_;
  ShardBatches batches_{shard_};
  WikipediaOptions options_;
  std::unique_ptr<ByteSource> source_;
  static constexpr size_t kStagingBytes = 4 << 20;
  std::unique_ptr<char[]> staged_ = std::make_unique_for_overwrite<char[]>(kStagingBytes);
  size_t staged_pos_ = 0, staged_end_ = 0;
  xmlTextReaderPtr reader_ = nullptr;
  bool opened_ = false;
  bool finished_ = false;
  uint64_t uncompressed_ = 0;
  uint64_t page_index_ = 0;        // pages begun so far
  uint64_t last_whole_index_ = 0;  // the last page whose end was read (1-based), for errors
  std::string last_whole_title_;
  bool in_page_ = false;
  Page page_;
  std::string* capture_ = nullptr;  // the field whose element's text is being read
  int capture_depth_ = 0;
  std::string xml_error_;
  uint64_t xml_error_line_ = 0;
  uint64_t redirects_ = 0, other_namespaces_ = 0;

  DocumentRows rows_{shard_, options_.text_field};  // the batch's documents
};

bool WikipediaReader::Impl::open(DocBatch& batch) {
  opened_ = true;
  StreamError error;
  source_ = ByteSource::open(path_, &error);
  if (!source_) {
    batch.errors.push_back({error.kind, 0, 0, error.message, {}});
    return false;
  }
  init_libxml2_once();
  reader_ = xmlReaderForIO(&Impl::read_bytes, &Impl::close_bytes, this, path_.c_str(), nullptr,
                           XML_PARSE_NONET | XML_PARSE_COMPACT);
  if (!reader_) {
    batch.errors.push_back({InputError::kUnreadableFile,
                            0,
                            0,
                            fmt::format("{}: cannot start the XML reader", path_),
                            {}});
    return false;
  }
  xmlTextReaderSetStructuredErrorHandler(reader_, &Impl::on_error, this);
  return true;
}

bool WikipediaReader::Impl::read_page(DocBatch& batch) {
  while (true) {
    int rc = xmlTextReaderRead(reader_);
    if (rc == 0) {
      if (in_page_) {  // libxml2 reports a cut document itself; this is a guard
        xml_error_ = "the document ends inside a page";
        fail(batch);
      }
      return false;
    }
    if (rc < 0) {
      fail(batch);
      return false;
    }
    const int type = xmlTextReaderNodeType(reader_);
    const int depth = xmlTextReaderDepth(reader_);
    if (capture_) {
      if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
          type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE || type == XML_READER_TYPE_WHITESPACE) {
        if (const xmlChar* value = xmlTextReaderConstValue(reader_))
          capture_->append(reinterpret_cast<const char*>(value));
      } else if (type == XML_READER_TYPE_END_ELEMENT && depth == capture_depth_) {
        capture_ = nullptr;
      }
      continue;
    }
    if (type == XML_READER_TYPE_ELEMENT) {
      std::string_view name = name_of(reader_);
      const bool empty = xmlTextReaderIsEmptyElement(reader_) == 1;
      if (depth == 1 && name == "page") {
        page_ = Page();
        in_page_ = true;
        ++page_index_;
        if (empty) {
          finish_page(batch);
          return true;
        }
      } else if (in_page_ && depth == 2) {
        std::string* field = nullptr;
        if (name == "title") field = &page_.title;
        if (name == "ns") field = &page_.ns;
        if (name == "id" && !page_.has_id) {
          field = &page_.id;
          page_.has_id = true;
        }
        if (name == "redirect") page_.redirect = true;
        if (field && !empty) {
          capture_ = field;
          capture_depth_ = depth;
        }
      } else if (in_page_ && depth == 3 && name == "text" && !empty) {
        // The revision's text (a pages-articles dump has one revision: the latest).
        page_.text.clear();
        capture_ = &page_.text;
        capture_depth_ = depth;
      }
    } else if (type == XML_READER_TYPE_END_ELEMENT && depth == 1 && in_page_ &&
               name_of(reader_) == "page") {
      finish_page(batch);
      return true;
    }
  }
}

void WikipediaReader::Impl::finish_page(DocBatch& batch) {
  in_page_ = false;
  last_whole_index_ = page_index_;
  last_whole_title_ = page_.title;
  int ns = 0;
  std::string_view ns_text = trim_ascii(page_.ns);
  auto [end, ec] = std::from_chars(ns_text.data(), ns_text.data() + ns_text.size(), ns);
  bool ns_ok = ec == std::errc() && end == ns_text.data() + ns_text.size();
  if (!ns_ok || std::find(options_.namespaces.begin(), options_.namespaces.end(), ns) ==
                    options_.namespaces.end()) {
    ++other_namespaces_;
    ++batch.skipped_records;
  } else if (page_.redirect) {
    ++redirects_;
    ++batch.skipped_records;
  } else if (page_.text.empty()) {
    ++batch.skipped_records;  // no wikitext (an empty <text/>): NeMo skips these too
  } else {
    std::string text = wikitext_to_plain(page_.text, options_.wikitext);
    add_document(page_, text);
  }
  page_ = Page();
}

void WikipediaReader::Impl::add_document(const Page& page, std::string_view text) {
  std::string_view id = trim_ascii(page.id);
  rows_.begin(page_index_ - 1, text);
  rows_.add_string("id", id);
  rows_.add_string("title", page.title);
  rows_.add_string("url", fmt::format("https://{}.wikipedia.org/wiki/{}", options_.language,
                                      wikipedia_url_title(page.title)));
  rows_.add_string("language", options_.language);
  rows_.add_string("source_id", base_name(path_));
  rows_.end(id);
}

void WikipediaReader::Impl::fail(DocBatch& batch) {
  finished_ = true;
  InputErrorRecord error;
  uint64_t line =
      xml_error_line_
          ? xml_error_line_
          : static_cast<uint64_t>(std::max(0, xmlTextReaderGetParserLineNumber(reader_)));
  // libxml2 parses ahead of the nodes it hands out, so the page being read when it stops is
  // not always the one holding the error: the message names the last page read whole (and
  // the parser's line, which is exact).
  std::string where = last_whole_index_ == 0
                          ? std::string("before any page was read whole")
                          : fmt::format("after page {} (title '{}'), the last read whole",
                                        last_whole_index_, last_whole_title_);
  error.line = line;
  if (source_->failed()) {
    // The stream broke: its own error (truncated or corrupt bzip2...), with the page.
    error.kind = source_->error().kind;
    error.byte_offset = source_->compressed_bytes_read();
    error.message = fmt::format("{} ({}, XML line {})", source_->error().message, where, line);
  } else if (uncompressed_ == 0) {
    error.kind = InputError::kEmptyFile;
    error.message = fmt::format("{}: file is empty", path_);
  } else {
    error.kind = InputError::kMalformedXml;
    long consumed = xmlTextReaderByteConsumed(reader_);
    error.byte_offset = consumed > 0 ? static_cast<uint64_t>(consumed) : 0;
    error.message = fmt::format("{}: malformed XML at line {}, {}: {}", path_, line, where,
                                xml_error_.empty() ? "the XML parser stopped" : xml_error_);
  }
  batch.errors.push_back(std::move(error));
}

std::unique_ptr<DocBatch> WikipediaReader::Impl::next() {
  auto batch = batches_.next(finished_);
  if (!batch || batch->end_of_shard) return batch;
  if (!opened_ && !open(*batch)) {
    finished_ = true;
    return batch;
  }
  uint64_t start = uncompressed_;
  while (!finished_ && rows_.size() < options_.batch_records &&
         rows_.bytes() < options_.batch_bytes) {
    if (!read_page(*batch)) finished_ = true;
  }
  rows_.finish(*batch);
  batch->raw_input_bytes = uncompressed_ - start;
  return batch;
}

WikipediaReader::WikipediaReader(std::string path, uint32_t shard_index, WikipediaOptions options)
    : impl_(std::make_unique<Impl>(std::move(path), shard_index, std::move(options))) {}
WikipediaReader::~WikipediaReader() = default;

std::unique_ptr<DocBatch> WikipediaReader::next() { return impl_->next(); }
uint64_t WikipediaReader::compressed_bytes_read() const { return impl_->compressed_bytes_read(); }
uint64_t WikipediaReader::redirects() const { return impl_->redirects(); }
uint64_t WikipediaReader::other_namespaces() const { return impl_->other_namespaces(); }

bool WikipediaReader::is_wikipedia_path(const std::string& path) {
  return ascii_iends_with(path, ".xml") || ascii_iends_with(path, ".xml.bz2") ||
         ascii_iends_with(path, ".xml.gz") || ascii_iends_with(path, ".xml.zst");
}

}  // namespace winnow
