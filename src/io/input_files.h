#pragma once
// Input discovery: files, directories (walked recursively) and glob patterns become one sorted
// list of shards. The order is the shard index of every DocKey, so it must be stable: paths
// are sorted bytewise and duplicates removed.
//
// Symbolic links, one rule: a path named (on the command line, in input.paths, or matched by
// a glob, which stands for the paths it matches as the shell's would) is followed wherever it
// points; a link met while walking a folder is followed only with follow_links (the pipeline's
// input.follow_links, default false), and every link not taken is returned in `skipped` with
// its reason, so that a run can report it. A named path that is missing, a dangling link or
// unreadable is an error before anything is read; a dangling link inside a folder is skipped.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace winnow {

// A range of consecutive row groups of a large Parquet file, read as a shard of its own
// (io/parquet_ranges.h). Its rows keep the file's numbers.
struct RowRange {
  uint64_t begin = 0, end = 0;  // the file's rows [begin, end), 0-based
  uint32_t index = 0;           // the range's place in its file: names its outputs (-r00000)
};

struct InputFile {
  std::string path;
  uint64_t size = 0;  // bytes on disk (compressed), for progress and ETA; a range: its row groups'
  std::optional<RowRange> rows;  // set: only these rows of the file make this shard
  // The shard index in document keys when it is not the shard's own: the file's place in the
  // list before any file was split (io/parquet_ranges.h), so that a document's key, and with it
  // every tie-break, component id and generated id, is the same split or whole.
  std::optional<uint32_t> key_shard;
};

// Which files a folder contributes: record files (names containing ".jsonl" or ending in
// ".json", ".gz", ".zst", ".warc", ".parquet", ".xml" or ".xml.bz2") or images (.jpg, .jpeg, .png, .gif, .webp, .bmp,
// .tif, .tiff, in any case) or WebDataset tars (.tar, .tar.gz, .tgz, .tar.zst, .tar.bz2,
// .tar.xz) or videos (.mp4, .mkv, .mov, .webm, .avi, .m4v)
// or audio (.wav, .flac, .mp3, .ogg, .opus, .m4a).
enum class InputFiles { kRecords, kImages, kTars, kVideos, kAudio };

// How inputs are discovered. Converts from InputFiles, so discover_inputs(paths, kind) works.
struct InputSelection {
  InputSelection(InputFiles wanted_files = InputFiles::kRecords, bool follow = false)
      : wanted(wanted_files), follow_links(follow) {}
  InputFiles wanted;
  // Follow symbolic links met inside folders (to files and to folders; a folder reached twice
  // through links is walked once). Links named directly are always followed.
  bool follow_links;
};

// A path discovery passed over, and why.
struct SkippedInput {
  enum class Reason {
    kLinkNotFollowed,  // a symbolic link inside a folder, without follow_links
    kDanglingLink,     // a symbolic link inside a folder whose target does not exist
    kLinkCycle,        // a linked folder already walked (a cycle or a second way in)
  };
  std::string path;
  Reason reason;
};
std::string_view skipped_reason_name(SkippedInput::Reason reason);  // "link_not_followed", ...

struct DiscoveredInputs {
  std::vector<InputFile> files;      // sorted bytewise, no duplicates
  std::vector<SkippedInput> skipped;  // sorted by path
};

// Folders are walked recursively for the files `wanted`, skipping hidden names and names
// starting with '_' (markers, temporaries). A named file is taken whatever its name. A pattern
// that matches nothing is an error. A folder that a winnow run wrote (it has _done/) gives its
// kept shards only: its _done/, _work/, rejected/, errors/, global/, stats.json,
// metrics.jsonl and report.html are skipped, whether met in a walk or matched by a glob, so
// one run's output can be the next one's input (named explicitly, such a file is read).
Result<DiscoveredInputs> discover_input_set(const std::vector<std::string>& patterns,
                                            InputSelection selection = {});
// The same, files only.
Result<std::vector<InputFile>> discover_inputs(const std::vector<std::string>& patterns,
                                               InputSelection selection = {});

// The output name stem for an input path: its file name without .jsonl/.json/.parquet, .tar and
// compression suffixes (a.warc.gz -> a.warc, written as a.warc.jsonl...; s-01.tar.gz -> s-01).
std::string shard_stem(const std::string& path);
// The same for a shard: a range of a split Parquet file adds "-r" and its index in five digits
// (a-r00003 for the fourth range of a.parquet), which sorts in file order and cannot be taken
// for a size-split part (-p00000).
std::string shard_stem(const InputFile& input);

}  // namespace winnow
