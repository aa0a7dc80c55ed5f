#pragma once
// The modules' file names and where the build put them (core/codec_module.cpp's candidates).
#include "core/codec_module.h"

namespace winnow {

struct CodecModuleFile {
  const char* file_name;
  const char* build_path;  // "" when this build has no such module
};

// Defined in codec_module_paths.cpp, the one file compiled with the build tree's paths.
CodecModuleFile codec_module_file(CodecModule module);

}  // namespace winnow
