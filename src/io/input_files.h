#pragma once
// Input discovery: files, directories (walked recursively) and glob patterns become one sorted
// list of shards. The order is the shard index of every DocKey, so it must be stable: paths
// are sorted bytewise and duplicates removed.
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace winnow {

struct InputFile {
  std::string path;
  uint64_t size = 0;  // bytes on disk (compressed), for progress and ETA
};

// Which files a folder contributes: record files (names containing ".jsonl" or ending in
// ".json", ".gz", ".zst" or ".warc") or images (.jpg, .jpeg, .png, .gif, .webp, .bmp, .tif,
// .tiff, in any case).
enum class InputFiles { kRecords, kImages };

// Folders are walked recursively for the files `wanted`, skipping hidden names and names
// starting with '_' (markers, temporaries). A named file is taken whatever its name. A pattern
// that matches nothing is an error. A folder that a winnow run wrote (it has _done/) gives its
// kept shards only: its rejected/, errors/, global/, stats.json and metrics.jsonl are skipped,
// so one run's output can be the next one's input.
Result<std::vector<InputFile>> discover_inputs(const std::vector<std::string>& patterns,
                                               InputFiles wanted = InputFiles::kRecords);

// The output name stem for an input path: its file name without .jsonl/.json/.gz/.zst
// suffixes (a.warc.gz -> a.warc, written as a.warc.jsonl...).
std::string shard_stem(const std::string& path);

}  // namespace winnow
