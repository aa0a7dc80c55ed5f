// libFuzzer target: the WARC record parser on arbitrary bytes (plain, and gzip-wrapped when
// the first byte is odd so the recovering gzip path is fuzzed too). Every batch must account
// for what it read; nothing may crash, hang or leak.
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "io/warc_reader.h"

using namespace winnow;

namespace {

std::string gzip(const uint8_t* data, size_t size) {
  std::string out(compressBound(size) + 64, '\0');
  z_stream z{};
  deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::string path = "/tmp/winnow-warc-fuzz-" + std::to_string(getpid()) + ".warc";
  std::string bytes = (size > 0 && (data[0] & 1))
                          ? gzip(data + 1, size - 1)
                          : std::string(reinterpret_cast<const char*>(data), size);
  if (size > 0 && (data[0] & 2) && bytes.size() > 8) bytes.resize(bytes.size() - 5);  // cut
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  WarcOptions options;
  options.batch_records = 3;
  options.max_record_bytes = 1 << 16;
  if (size > 0 && (data[0] & 4)) options.content_types = {"*"};
  if (size > 0 && (data[0] & 8)) options.record_types = {"response", "resource", "conversion"};
  WarcReader reader(path, 0, options);
  while (auto batch = reader.next()) {
    for (size_t i = 0; i < batch->size(); ++i) {
      if (batch->record(i).empty() || batch->record(i).front() != '{') __builtin_trap();
    }
  }
  return 0;
}
