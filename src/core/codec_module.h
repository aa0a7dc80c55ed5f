#pragma once
// Loads a symbol of one of winnow's modules (libwinnow_image_codecs.so,
// libwinnow_video_codecs.so, libwinnow_gpu_products.so): shared libraries built beside the
// winnow command and dlopen'ed on first use, so that processes that never decode a picture or a
// video, or never multiply on a GPU, never pay for loading OpenCV's imgcodecs, FFmpeg or cuBLAS
// (~65-90 ms of CPU and ~130 libraries at every start).
#include <string>

namespace winnow {

enum class CodecModule { kImageCodecs, kVideoCodecs, kGpuProducts };

// `symbol` of `module`, looked for beside the program (or the library holding this code), one
// folder up (tests/), then where the build put it. Null when none loads; `why` then lists what
// was tried.
void* codec_module_symbol(CodecModule module, const char* symbol, std::string* why);

}  // namespace winnow
