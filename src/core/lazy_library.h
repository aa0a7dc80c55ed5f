#pragma once
// LazyLibrary: a shared library loaded with dlopen on first use instead of linked, so a process
// that never needs it never pays for mapping and relocating it (bench/README.md, "Fixed cost per
// process"). The files that define a library's C functions as calls into it (io/duckdb_library,
// io/curl_library) hold one each. dlopen searches the caller's RUNPATH, which the build and the
// install set to the folders of the libraries fetched outside the distribution.
#include <atomic>
#include <mutex>
#include <string>

#include "core/status.h"

namespace winnow {

class LazyLibrary {
 public:
  // `file`: the name dlopen is given ("libduckdb.so"); `what`: the library's name in messages.
  LazyLibrary(const char* file, const char* what) : file_(file), what_(what) {}

  // Loads the library if no call has yet: ok, or why it cannot be loaded (tried once).
  Status load();
  // Whether this process has asked for it yet (tests check the decision).
  bool requested() const { return requested_.load(); }

  // The library's function `name`, as a pointer of type F. Looked up in the library itself,
  // never the process's global scope (which holds the forwarding definitions of the same
  // names). Missing (not loadable, or another version without it): a message naming it and an
  // abort, since every caller loads the library, and reports its failure, before any call.
  template <class F>
  F function(const char* name) {
    return reinterpret_cast<F>(symbol(name));
  }
  // The same without the abort: null when the library or the function is missing.
  void* find(const char* name);

 private:
  void* symbol(const char* name);

  const char* file_;
  const char* what_;
  std::once_flag once_;
  std::atomic<bool> requested_{false};
  void* handle_ = nullptr;
  std::string failure_;
};

}  // namespace winnow
