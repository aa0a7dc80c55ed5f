#pragma once
// ArxivReader: one of arXiv's bulk source tars (`arXiv_src_2301_001.tar` from the requester-pays
// S3 bucket) → batches of documents, one per paper, as NeMo Curator's ArxivIterator and
// ArxivExtractor make them. Each member of the tar is a paper: a gzipped tar of its project
// files (whose .tex members are read, in the tar's order) or one gzipped .tex file; its
// LaTeX becomes text by io/arxiv_latex.h's rules. Each document's record is
//
//   {"id":"2301.00001","source_id":"arXiv_src_2301_001.tar","text":""}
//
// with the id from the member's name as NeMo forms it (astro-ph0001001 → astro-ph/0001001).
// NeMo's own output keeps only the text and the tar's name; the id is kept here so that the
// document can be found again.
//
// Papers NeMo skips are skipped and counted in skipped_records, and by reason in the batch's
// stage counts (`read/arxiv_<reason>`): `unreadable` (a member that is neither a tar nor gzip,
// such as the PDFs the bulk tars also hold, a damaged one, or a .tex file in it over
// max_paper_bytes), `no_tex_file`, `not_utf8` (any .tex file), `no_section` (no sectioning
// command) and `macro_value` (a macro NeMo's extractor fails on, io/arxiv_latex.h). A member
// over max_paper_bytes is an error record naming it; a damaged or truncated outer tar ends the
// file with an error naming the member and its byte offset. Members are read one at a time;
// the outer tar is streamed, never held whole. Documents come in the tar's order (NeMo sorts
// the extracted paths; the bulk tars are written in that order).
// DocKey rows are member indexes in the outer tar, skipped members included.
#include <cstdint>
#include <memory>
#include <string>

#include "core/doc_batch.h"

namespace winnow {

struct ArxivOptions {
  std::string text_field = "text";
  size_t batch_records = 1024;
  size_t batch_bytes = 8 << 20;
  uint64_t max_paper_bytes = 64 << 20;  // a paper's member, and each .tex file in it
};

class ArxivReader {
 public:
  ArxivReader(std::string path, uint32_t shard_index, ArxivOptions options);
  ~ArxivReader();

  // The next batch; the last one is empty and marked end_of_shard; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const;

  // True for arXiv's bulk source tar names: arXiv_src_*.tar.
  static bool is_arxiv_path(const std::string& path);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
