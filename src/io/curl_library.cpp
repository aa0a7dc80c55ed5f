// libcurl's functions that io/chat_client.cpp calls, each defined as a call into the library
// loaded with dlopen on first use (core/lazy_library.h); nothing links libcurl. The names are in
// parentheses where curl.h defines a function-like macro of the same name.
//
// curl_easy_setopt and curl_easy_getinfo are variadic: their one variable argument is, by
// libcurl's contract, a long, a curl_off_t, an object pointer or a function pointer, all passed
// the same way (one integer register or stack slot on the 64-bit ABIs winnow builds for), so it
// is taken as a pointer-sized integer and handed on unchanged.
#include "io/curl_library.h"

#include <curl/curl.h>

#include <cstdarg>
#include <cstdint>

#include "core/lazy_library.h"

namespace winnow {
namespace {

LazyLibrary& curl_library() {
  static LazyLibrary library("libcurl.so.4", "libcurl");
  return library;
}

static_assert(sizeof(intptr_t) == sizeof(long) && sizeof(intptr_t) == sizeof(curl_off_t) &&
                  sizeof(intptr_t) == sizeof(void*),
              "curl_easy_setopt's argument is handed on as one pointer-sized integer");

}  // namespace

Status load_libcurl() { return curl_library().load(); }

bool libcurl_requested() { return curl_library().requested(); }

}  // namespace winnow

#define WINNOW_CURL_FUNCTION(name) winnow::curl_library().function<decltype(&::name)>(#name)
#define WINNOW_CURL_CALL(name, ...)                        \
  static const auto function = WINNOW_CURL_FUNCTION(name); \
  return function(__VA_ARGS__)

extern "C" {

CURLcode curl_global_init(long flags) { WINNOW_CURL_CALL(curl_global_init, flags); }
const char* curl_easy_strerror(CURLcode code) { WINNOW_CURL_CALL(curl_easy_strerror, code); }
curl_slist* curl_slist_append(curl_slist* list, const char* data) {
  WINNOW_CURL_CALL(curl_slist_append, list, data);
}
void curl_slist_free_all(curl_slist* list) { WINNOW_CURL_CALL(curl_slist_free_all, list); }

CURL* curl_easy_init() { WINNOW_CURL_CALL(curl_easy_init); }
void curl_easy_cleanup(CURL* curl) { WINNOW_CURL_CALL(curl_easy_cleanup, curl); }
CURLcode(curl_easy_setopt)(CURL* curl, CURLoption option, ...) {
  va_list arguments;
  va_start(arguments, option);
  const intptr_t value = va_arg(arguments, intptr_t);
  va_end(arguments);
  WINNOW_CURL_CALL(curl_easy_setopt, curl, option, value);
}
CURLcode(curl_easy_getinfo)(CURL* curl, CURLINFO info, ...) {
  va_list arguments;
  va_start(arguments, info);
  void* out = va_arg(arguments, void*);  // always a pointer to where the answer goes
  va_end(arguments);
  WINNOW_CURL_CALL(curl_easy_getinfo, curl, info, out);
}

CURLM* curl_multi_init() { WINNOW_CURL_CALL(curl_multi_init); }
CURLMcode curl_multi_cleanup(CURLM* multi) { WINNOW_CURL_CALL(curl_multi_cleanup, multi); }
CURLMcode curl_multi_add_handle(CURLM* multi, CURL* curl) {
  WINNOW_CURL_CALL(curl_multi_add_handle, multi, curl);
}
CURLMcode curl_multi_remove_handle(CURLM* multi, CURL* curl) {
  WINNOW_CURL_CALL(curl_multi_remove_handle, multi, curl);
}
CURLMcode curl_multi_perform(CURLM* multi, int* running) {
  WINNOW_CURL_CALL(curl_multi_perform, multi, running);
}
CURLMcode curl_multi_poll(CURLM* multi, curl_waitfd extra_fds[], unsigned int extra_nfds,
                          int timeout_ms, int* ret) {
  WINNOW_CURL_CALL(curl_multi_poll, multi, extra_fds, extra_nfds, timeout_ms, ret);
}
CURLMsg* curl_multi_info_read(CURLM* multi, int* msgs_in_queue) {
  WINNOW_CURL_CALL(curl_multi_info_read, multi, msgs_in_queue);
}

}  // extern "C"
