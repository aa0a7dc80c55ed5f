#pragma once
// WikipediaReader: a MediaWiki XML dump (`pages-articles*.xml.bz2`, plain `.xml`, or gzip /
// zstd; the compression from the first bytes, bzip2 streams concatenated as in multistream
// dumps) → batches of documents, one per article, as NeMo Curator's WikipediaIterator and
// WikipediaExtractor make them. The file is streamed through libxml2's xmlTextReader (a page
// at a time in memory, never the file). Each document's record is
//
//   {"id":"12","title":"Anarchism","url":"https://en.wikipedia.org/wiki/Anarchism",
//    "language":"en","source_id":"enwiki-...-pages-articles1.xml.bz2","text":""}
//
// and its text is the page's latest revision's wikitext made plain (io/wikitext_plain.h). The
// id is the page id; the url is `https://<language>.wikipedia.org/wiki/` and the title with
// spaces as `_`, percent-encoded as Python's urllib.parse.quote does (`/` kept).
//
// Pages outside `namespaces` (talk, user, template... pages), redirects (a `<redirect>`
// element) and pages with no wikitext are skipped, counted in skipped_records (and
// redirects() / other_namespaces()).
// DocKey rows are page indexes in the file, skipped pages included.
//
// XML that is not well-formed, or cut short, ends the file with a malformed_xml error naming
// the file, the XML line and the page being read (its index and title); a bzip2 (gzip, zstd)
// stream that is damaged or cut short ends it with corrupt_compressed / truncated_compressed,
// naming the page too. Pages that ended before the error are kept.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "io/wikitext_plain.h"

namespace winnow {

struct WikipediaOptions {
  std::vector<int> namespaces = {0};  // kept page namespaces (0: articles)
  std::string language = "en";       // the url's host and the `language` field
  std::string text_field = "text";
  size_t batch_records = 1024;
  size_t batch_bytes = 8 << 20;
  WikitextOptions wikitext;
};

class WikipediaReader {
 public:
  WikipediaReader(std::string path, uint32_t shard_index, WikipediaOptions options);
  ~WikipediaReader();

  // The next batch; the last one is empty and marked end_of_shard; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const;
  uint64_t redirects() const;
  uint64_t other_namespaces() const;

  // True when `path` names a MediaWiki dump by its extension: .xml, .xml.bz2, .xml.gz, .xml.zst.
  static bool is_wikipedia_path(const std::string& path);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Python's urllib.parse.quote of `title` with spaces as `_` (the url's last part).
std::string wikipedia_url_title(std::string_view title);

}  // namespace winnow
