#pragma once
// What a WAV file's header says its samples take, against what the file holds: libavformat
// trims a data chunk that runs past the end of the file to what is there, so a WAV cut short
// would read as a shorter, whole one.
#include <cstdint>
#include <optional>
#include <string_view>

namespace winnow::av {

struct RiffData {
  uint64_t declared = 0;   // the data chunk's size in its header
  uint64_t available = 0;  // the bytes after its header, to the end of the file
};

// The data chunk of a RIFF/WAVE file whose first bytes are `head` and whose size is
// `file_size`; nullopt for another format, a data chunk not within `head`, or a size left open
// by a streaming writer (0 or 0xFFFFFFFF).
std::optional<RiffData> riff_data(std::string_view head, uint64_t file_size);

}  // namespace winnow::av
