// End-to-end tests of input integrity through the `winnow` binary (issue #12): truncated
// compressed JSONL.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;

const std::string kWinnow = WINNOW_BINARY;

int winnow(const std::string& args, std::string* output) {
  return run_command(kWinnow + " " + args, output);
}

std::string pipeline_file(const TempDir& dir, const std::string& yaml) {
  std::string path = dir.file("pipeline.yaml");
  write_file(path, yaml);
  return path;
}

uint64_t total(const std::string& stats_path, const char* key) {
  simdjson::dom::parser parser;
  return uint64_t(parser.load(stats_path)["totals"][key]);
}

struct ErrorLine {
  std::string kind, message;
  uint64_t byte_offset = 0;
};

std::vector<ErrorLine> error_lines(const std::string& path) {
  std::vector<ErrorLine> out;
  if (!fs::exists(path)) return out;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(read_file(path))) {
    simdjson::dom::element e = parser.parse(line);
    out.push_back({std::string(std::string_view(e["error"])),
                   std::string(std::string_view(e["message"])), uint64_t(e["byte_offset"])});
  }
  return out;
}

const char* kSkipJsonl = "output: {format: jsonl}\non_error: skip\nstages: []\n";

// --- 3. A truncated .gz / .zst --------------------------------------------------------------

// ~20,000 real documents: the paragraphs of this machine's license and copyright texts.
const char* kMakeCorpus = R"(
import glob, json, sys
paths = sorted(glob.glob('/usr/share/common-licenses/*')) + sorted(glob.glob('/usr/share/doc/*/copyright'))
n = 0
with open(sys.argv[1], 'w', encoding='utf-8') as out:
    for path in paths:
        try:
            text = open(path, 'rb').read().decode('utf-8', 'replace')
        except OSError:
            continue
        for i, para in enumerate(p.strip() for p in text.split('\n\n')):
            if not para or n == 20000:
                continue
            out.write(json.dumps({'id': '%s-%d' % (path, i), 'text': para}, ensure_ascii=False) + '\n')
            n += 1
)";

// Whole lines (ending in a newline) that `command` writes.
uint64_t whole_lines(const std::string& command) {
  std::string out;
  run_command(command + " 2>/dev/null | wc -l", &out);
  return std::stoull(out);
}

TEST(InputIntegrity, TruncatedCompressedJsonlKeepsEveryRecordThatDecompressed) {
  TempDir dir;
  std::string script = dir.file("make_corpus.py");
  write_file(script, kMakeCorpus);
  std::string out;
  ASSERT_EQ(run_command("python3 " + script + " " + dir.file("corpus.jsonl"), &out), 0) << out;
  ASSERT_EQ(run_command("gzip -k " + dir.file("corpus.jsonl") + " && zstd -q -k " +
                            dir.file("corpus.jsonl"),
                        &out),
            0)
      << out;
  ASSERT_EQ(whole_lines("cat " + dir.file("corpus.jsonl")), 20000u);
  std::string pipeline = pipeline_file(dir, kSkipJsonl);
  for (const char* ext : {"gz", "zst"}) {
    std::string whole = read_file(dir.file(std::string("corpus.jsonl.") + ext));
    for (int percent : {25, 50, 75, 90}) {
      SCOPED_TRACE(std::string(ext) + " cut at " + std::to_string(percent) + "%");
      std::string input = dir.file("cut.jsonl." + std::string(ext));
      write_file(input, std::string_view(whole).substr(0, whole.size() * percent / 100));
      // What the reference tools decompress: zcat, and Python's zlib (everything inflate can
      // give before the cut); zstd -dc.
      uint64_t expected, zcat = 0;
      if (std::string(ext) == "gz") {
        zcat = whole_lines("zcat " + input);
        expected = whole_lines(
            "python3 -c 'import sys,zlib; d=zlib.decompressobj(31); "
            "sys.stdout.buffer.write(d.decompress(open(sys.argv[1],\"rb\").read()))' " +
            input);
        EXPECT_GE(expected, zcat);
      } else {
        expected = whole_lines("zstd -dc " + input);
      }
      std::string output = dir.file(std::string("out-") + ext + std::to_string(percent));
      ASSERT_EQ(winnow("run " + pipeline + " -q -i " + input + " -o " + output, &out), 0) << out;
      uint64_t kept = total(output + "/stats.json", "kept");
      std::cout << "[ " << ext << " cut at " << percent << "% ] whole records: " << expected
                << (zcat ? " (zcat " + std::to_string(zcat) + ")" : "") << ", winnow kept "
                << kept << "\n";
      EXPECT_EQ(kept, expected);
      EXPECT_EQ(total(output + "/stats.json", "errors"), 1u);
      std::vector<ErrorLine> errors = error_lines(output + "/errors/cut.jsonl");
      ASSERT_EQ(errors.size(), 1u);
      EXPECT_EQ(errors[0].kind, "truncated_compressed");
    }
  }
}

}  // namespace
}  // namespace winnow::testing
