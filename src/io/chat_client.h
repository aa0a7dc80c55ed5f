#pragma once
// ChatClient: POSTs JSON bodies to an OpenAI-compatible endpoint (/v1/chat/completions) through
// libcurl's multi interface, many transfers on the caller's thread, with a cap on requests in
// flight shared by every caller (RequestSlots), a timeout per attempt, and retries with
// exponential backoff on what a retry can fix: connection errors, timeouts, 429 and 5xx (waiting
// longer when the reply's Retry-After asks for it, up to max_backoff_s). A 4xx
// (a bad request, a wrong key or model) is final at once. The body of a reply is handed back
// as it came; parsing it is the caller's (io/chat_messages.h).
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "core/status.h"

namespace winnow {

struct ChatClientOptions {
  std::string url;         // the full URL of the chat completions route
  std::string api_key;     // sent as "Authorization: Bearer ..."; empty: no header. Never logged.
  double timeout_s = 120;  // per attempt, connection included
  double connect_timeout_s = 10;
  int max_retries = 3;   // attempts = 1 + max_retries
  double backoff_s = 1;  // before the first retry; doubled for each one after
  double max_backoff_s = 30;  // the longest wait, a server's Retry-After included
};

// A counting semaphore over requests in flight, shared by every worker of a stage, so that the
// endpoint sees at most `limit` requests at once whatever the worker count.
class RequestSlots {
 public:
  explicit RequestSlots(int limit) : free_(limit) {}
  bool try_acquire();
  void acquire();
  void release();

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  int free_;
};

struct ChatReply {
  bool ok = false;       // HTTP 200 (the body may still be malformed: the caller parses it)
  long http_status = 0;  // 0: no HTTP reply (the last attempt failed in transport)
  std::string body;
  std::string error;  // when !ok: the last attempt's failure ("HTTP 500: ...", "curl: ...")
  int attempts = 0;
};

class ChatClient {
 public:
  ChatClient(ChatClientOptions options, RequestSlots& slots);

  // A request to send: the caller's tag (handed back with its reply) and the JSON body.
  struct Request {
    uint64_t tag = 0;
    std::string body;
  };
  // Pulls requests from `next` (nullopt: no more) only when a slot is free, so a caller that
  // makes bodies lazily holds few in memory, and calls `done` once per request with its final
  // reply (after its retries), in completion order. Returns when every request is done.
  void run(const std::function<std::optional<Request>()>& next,
           const std::function<void(uint64_t tag, ChatReply reply)>& done);

  // Whether a reply with this HTTP status (0: transport failure `curl_code`) is worth another
  // attempt.
  static bool retryable(long http_status, int curl_code);

 private:
  ChatClientOptions options_;
  RequestSlots& slots_;
};

// The chat completions route of an OpenAI API base ("http://host:8000/v1" gets
// "/chat/completions"); a URL that already ends with that route is taken as it is.
std::string chat_completions_url(std::string endpoint);

// Makes libcurl ready (loads it, curl_global_init once per process, before any thread uses
// it): ok, or why it cannot be used.
Status init_http();

}  // namespace winnow
