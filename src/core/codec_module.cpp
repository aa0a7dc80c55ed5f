#include "core/codec_module.h"

#include <dlfcn.h>

#include <vector>

#include "core/codec_module_paths.h"

namespace winnow {

void* codec_module_symbol(CodecModule module, const char* symbol, std::string* why) {
  const CodecModuleFile file = codec_module_file(module);
  const std::string file_name = file.file_name;
  std::vector<std::string> candidates;
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&codec_module_symbol), &self) && self.dli_fname) {
    std::string dir = self.dli_fname;
    dir = dir.find('/') == std::string::npos ? "." : dir.substr(0, dir.rfind('/'));
    candidates.push_back(dir + "/" + file_name);
    candidates.push_back(dir + "/../" + file_name);
  }
  if (*file.build_path) candidates.push_back(file.build_path);
  for (const std::string& path : candidates) {
    if (void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      if (void* f = dlsym(module, symbol)) return f;
    }
    if (why) *why += "\n  " + path + ": " + dlerror();
  }
  return nullptr;
}

}  // namespace winnow
