// The modules' paths in the build tree. CMake defines them on this file alone: a path of the
// checkout on any other file's compile line would make that line differ between two clones, and
// ccache would then compile it again in a fresh clone instead of serving it from the cache.
#include "core/codec_module_paths.h"

#ifndef WINNOW_IMAGE_CODECS_MODULE
#define WINNOW_IMAGE_CODECS_MODULE ""
#endif
#ifndef WINNOW_VIDEO_CODECS_MODULE
#define WINNOW_VIDEO_CODECS_MODULE ""
#endif
#ifndef WINNOW_GPU_PRODUCTS_MODULE
#define WINNOW_GPU_PRODUCTS_MODULE ""
#endif

namespace winnow {

CodecModuleFile codec_module_file(CodecModule module) {
  switch (module) {
    case CodecModule::kImageCodecs:
      return {"libwinnow_image_codecs.so", WINNOW_IMAGE_CODECS_MODULE};
    case CodecModule::kVideoCodecs:
      return {"libwinnow_video_codecs.so", WINNOW_VIDEO_CODECS_MODULE};
    case CodecModule::kGpuProducts:
      return {"libwinnow_gpu_products.so", WINNOW_GPU_PRODUCTS_MODULE};
  }
  return {"", ""};
}

}  // namespace winnow
