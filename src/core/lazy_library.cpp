#include "core/lazy_library.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace winnow {

Status LazyLibrary::load() {
  std::call_once(once_, [this] {
    requested_ = true;
    handle_ = ::dlopen(file_, RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* why = ::dlerror();
      failure_ =
          fmt::format("cannot load {} ({}): {}", what_, file_, why != nullptr ? why : "unknown");
    }
  });
  return handle_ != nullptr ? Status::ok() : Status::error(failure_);
}

void* LazyLibrary::find(const char* name) {
  return load().is_ok() ? ::dlsym(handle_, name) : nullptr;
}

void* LazyLibrary::symbol(const char* name) {
  void* found = find(name);
  if (found == nullptr) {
    std::fprintf(stderr, "winnow: %s function %s unavailable: %s\n", what_, name,
                 handle_ != nullptr ? "not in this version of the library" : failure_.c_str());
    std::abort();
  }
  return found;
}

}  // namespace winnow
