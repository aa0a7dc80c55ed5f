// libcurl is loaded on first use (io/curl_library.cpp): nothing links it, so a process that
// calls no chat endpoint never maps it, and init_http loads it. One test, so the order of the
// checks in this process is fixed (a loaded library stays loaded). The calls themselves, the
// variadic curl_easy_setopt and curl_easy_getinfo included, are exercised against a stub server
// by the llm_rewrite and caption tests.
#include "io/curl_library.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "io/chat_client.h"

namespace winnow {
namespace {

bool libcurl_mapped() {
  void* loaded = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD);
  if (loaded != nullptr) ::dlclose(loaded);
  return loaded != nullptr;
}

TEST(CurlLibrary, LoadedOnlyWhenHttpIsFirstNeeded) {
  ASSERT_FALSE(libcurl_requested()) << "something asked for libcurl before main";
  EXPECT_FALSE(libcurl_mapped());
  Status ready = init_http();
  ASSERT_TRUE(ready.is_ok()) << ready.message();
  EXPECT_TRUE(libcurl_requested());
  EXPECT_TRUE(libcurl_mapped());
  EXPECT_TRUE(init_http().is_ok());  // again: already loaded and started
}

}  // namespace
}  // namespace winnow
