#include "io/chat_client.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "core/utf8.h"
#include "core/worker_wait.h"
#include "io/curl_library.h"

namespace winnow {

namespace {

using Clock = std::chrono::steady_clock;

// A reply bigger than this is not a chat completion; stop reading rather than hold it.
constexpr size_t kMaxReplyBytes = 64u << 20;

struct Transfer {
  uint64_t tag = 0;
  std::string body;
  std::string reply;
  int attempts = 0;
  Clock::time_point due;
  char curl_error[CURL_ERROR_SIZE] = {};
};

size_t append_reply(char* data, size_t size, size_t count, void* user) {
  auto* reply = static_cast<std::string*>(user);
  const size_t bytes = size * count;
  if (reply->size() + bytes > kMaxReplyBytes) return 0;  // curl fails the transfer: write error
  reply->append(data, bytes);
  return bytes;
}

std::string excerpt(std::string_view body) {
  std::string out;
  append_sanitized_utf8(out, utf8_prefix(body, 200));
  return out;
}

struct HeaderList {
  curl_slist* list = nullptr;
  ~HeaderList() { curl_slist_free_all(list); }
  void add(const std::string& header) { list = curl_slist_append(list, header.c_str()); }
};

}  // namespace

Status init_http() {
  if (Status loaded = load_libcurl(); !loaded.is_ok()) return loaded;
  static const CURLcode once = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (once != CURLE_OK)
    return Status::errorf("libcurl failed to start: {}", curl_easy_strerror(once));
  return Status::ok();
}

std::string chat_completions_url(std::string endpoint) {
  constexpr std::string_view kRoute = "/chat/completions";
  if (endpoint.size() >= kRoute.size() &&
      endpoint.compare(endpoint.size() - kRoute.size(), kRoute.size(), kRoute) == 0) {
    return endpoint;
  }
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  return endpoint + std::string(kRoute);
}

bool RequestSlots::try_acquire() {
  std::lock_guard lock(mutex_);
  if (free_ == 0) return false;
  --free_;
  return true;
}

void RequestSlots::acquire() {
  WorkerWait waiting;  // for another worker's request to end
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [&] { return free_ > 0; });
  --free_;
}

void RequestSlots::release() {
  {
    std::lock_guard lock(mutex_);
    ++free_;
  }
  freed_.notify_one();
}

ChatClient::ChatClient(ChatClientOptions options, RequestSlots& slots)
    : options_(std::move(options)), slots_(slots) {
  (void)init_http();  // the stage's settings reported a failure (chat_endpoint_settings)
}

bool ChatClient::retryable(long http_status, int curl_code) {
  if (http_status != 0) return http_status == 408 || http_status == 429 || http_status >= 500;
  switch (static_cast<CURLcode>(curl_code)) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

void ChatClient::run(const std::function<std::optional<Request>()>& next,
                     const std::function<void(uint64_t tag, ChatReply reply)>& done) {
  HeaderList headers;
  headers.add("Content-Type: application/json");
  headers.add("Expect:");  // no 100-continue round trip before each body
  if (!options_.api_key.empty()) headers.add("Authorization: Bearer " + options_.api_key);
  std::unique_ptr<CURLM, decltype(&curl_multi_cleanup)> multi(curl_multi_init(),
                                                              &curl_multi_cleanup);
  std::map<CURL*, std::unique_ptr<Transfer>> active;
  std::vector<std::unique_ptr<Transfer>> waiting;  // retries, each due at its time
  bool exhausted = false;

  auto start = [&](std::unique_ptr<Transfer> t) {
    CURL* easy = curl_easy_init();
    ++t->attempts;
    t->reply.clear();
    t->curl_error[0] = 0;
    curl_easy_setopt(easy, CURLOPT_URL, options_.url.c_str());
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, t->body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(t->body.size()));
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers.list);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &append_reply);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t->reply);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, t->curl_error);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, long(std::lround(options_.timeout_s * 1000)));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                     long(std::lround(options_.connect_timeout_s * 1000)));
    // Worker threads: no signals (curl's resolver timeout would otherwise raise SIGALRM).
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_multi_add_handle(multi.get(), easy);
    active.emplace(easy, std::move(t));
  };

  auto finish = [&](CURL* easy, CURLcode code) {
    auto node = active.extract(easy);
    std::unique_ptr<Transfer> t = std::move(node.mapped());
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    // A 429 or 503's Retry-After (seconds, or an HTTP date curl turns into seconds; 0: none).
    curl_off_t retry_after = 0;
    curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &retry_after);
    curl_multi_remove_handle(multi.get(), easy);
    curl_easy_cleanup(easy);
    slots_.release();
    ChatReply reply;
    reply.attempts = t->attempts;
    if (code == CURLE_OK && status >= 200 && status < 300) {
      reply.ok = true;
      reply.http_status = status;
      reply.body = std::move(t->reply);
      done(t->tag, std::move(reply));
      return;
    }
    if (code == CURLE_OK) {
      reply.http_status = status;
      reply.error = fmt::format("HTTP {}: {}", status, excerpt(t->reply));
    } else {
      reply.error = fmt::format("curl error {} ({}){}{}", int(code), curl_easy_strerror(code),
                                t->curl_error[0] ? ": " : "", t->curl_error);
    }
    if (retryable(code == CURLE_OK ? status : 0, code) && t->attempts <= options_.max_retries) {
      // The server's Retry-After when it asks for longer than the backoff: retrying sooner
      // would only spend an attempt on another 429. Both are capped by max_backoff_s.
      const double backoff = options_.backoff_s * std::ldexp(1.0, t->attempts - 1);
      const double wait = std::min(options_.max_backoff_s, std::max(backoff, double(retry_after)));
      t->due = Clock::now() + std::chrono::microseconds(std::llround(wait * 1e6));
      waiting.push_back(std::move(t));
      return;
    }
    reply.body = std::move(t->reply);
    done(t->tag, std::move(reply));
  };

  while (true) {
    // Start what may start: retries that are due, then new requests, while a slot is free. A
    // worker with nothing in flight waits for a slot; one with transfers running never blocks
    // (its own transfers are what would free them).
    const auto now = Clock::now();
    while (true) {
      auto due = std::min_element(waiting.begin(), waiting.end(),
                                  [](const auto& a, const auto& b) { return a->due < b->due; });
      const bool retry_due = due != waiting.end() && (*due)->due <= now;
      if (!retry_due && exhausted) break;
      if (active.empty()) {
        slots_.acquire();
      } else if (!slots_.try_acquire()) {
        break;
      }
      if (retry_due) {
        std::unique_ptr<Transfer> t = std::move(*due);
        waiting.erase(due);
        start(std::move(t));
        continue;
      }
      std::optional<Request> request = next();
      if (!request) {
        exhausted = true;
        slots_.release();
        break;
      }
      auto t = std::make_unique<Transfer>();
      t->tag = request->tag;
      t->body = std::move(request->body);
      start(std::move(t));
    }
    if (active.empty() && waiting.empty() && exhausted) break;

    // Wait for the transfers, or until the next retry is due.
    int wait_ms = 1000;
    for (const auto& t : waiting) {
      const auto until = std::chrono::duration_cast<std::chrono::milliseconds>(t->due - now);
      wait_ms = std::clamp(int(until.count()) + 1, 0, wait_ms);
    }
    int running = 0;
    if (active.empty()) {
      WorkerWait backing_off;
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
      continue;
    }
    auto finish_done = [&] {
      size_t finished = 0;
      int left = 0;
      while (CURLMsg* message = curl_multi_info_read(multi.get(), &left)) {
        if (message->msg != CURLMSG_DONE) continue;
        finish(message->easy_handle, message->data.result);
        ++finished;
      }
      return finished;
    };
    curl_multi_perform(multi.get(), &running);
    // A reply that came in whole during that perform leaves nothing for poll to wake on, and
    // curl_multi_poll then waits out its whole timeout: start what may start instead.
    if (finish_done() > 0) continue;
    {
      WorkerWait for_replies;  // the endpoint's time, not this machine's
      curl_multi_poll(multi.get(), nullptr, 0, wait_ms, nullptr);
    }
    curl_multi_perform(multi.get(), &running);
    finish_done();
  }
}

}  // namespace winnow
