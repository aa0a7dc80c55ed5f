#pragma once
// Loads a symbol of one of winnow's codec modules (libwinnow_image_codecs.so,
// libwinnow_video_codecs.so): shared libraries built beside the winnow command and dlopen'ed on
// first use, so that processes that never decode a picture or a video never pay for loading
// OpenCV's imgcodecs or FFmpeg (~65-90 ms of CPU and ~130 libraries at every start).
#include <string>

namespace winnow {

// `symbol` of module `file_name`, looked for beside the program (or the library holding this
// code), one folder up (tests/), then at `build_path` (where the build put it). Null when none
// loads; `why` then lists what was tried.
void* codec_module_symbol(const std::string& file_name, const std::string& build_path,
                          const char* symbol, std::string* why);

}  // namespace winnow
