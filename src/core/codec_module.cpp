#include "core/codec_module.h"

#include <dlfcn.h>

#include <vector>

namespace winnow {

void* codec_module_symbol(const std::string& file_name, const std::string& build_path,
                          const char* symbol, std::string* why) {
  std::vector<std::string> candidates;
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&codec_module_symbol), &self) && self.dli_fname) {
    std::string dir = self.dli_fname;
    dir = dir.find('/') == std::string::npos ? "." : dir.substr(0, dir.rfind('/'));
    candidates.push_back(dir + "/" + file_name);
    candidates.push_back(dir + "/../" + file_name);
  }
  candidates.push_back(build_path);
  for (const std::string& path : candidates) {
    if (void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      if (void* f = dlsym(module, symbol)) return f;
    }
    if (why) *why += "\n  " + path + ": " + dlerror();
  }
  return nullptr;
}

}  // namespace winnow
