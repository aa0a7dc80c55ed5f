#pragma once
// libcurl is loaded on first use, not at program start (io/curl_library.cpp): only the stages
// that call a chat endpoint need it, and mapping it with its 26 dependencies costs about 19 ms
// of CPU in every process (bench/README.md, "Fixed cost per process"). init_http asks for it.
#include "core/status.h"

namespace winnow {

// Loads libcurl if no call has yet: ok, or why it cannot be loaded.
Status load_libcurl();

// Whether this process has asked for libcurl yet (tests check the decision).
bool libcurl_requested();

}  // namespace winnow
