#include "stages/chat_endpoint.h"

#include <cstdlib>

namespace winnow {

std::vector<ParamSpec> chat_endpoint_params(const std::string& default_timeout_s) {
  return {
      {"endpoint", ParamType::kString, "http://127.0.0.1:8000/v1",
       "the server's OpenAI API base (/chat/completions is added) or the full route"},
      {"concurrency", ParamType::kInt, "8", "requests in flight, all workers together"},
      {"timeout_s", ParamType::kFloat, default_timeout_s, "limit on one attempt, in seconds"},
      {"connect_timeout_s", ParamType::kFloat, "10", "limit on connecting, in seconds"},
      {"max_retries", ParamType::kInt, "3", "further attempts after a retryable failure"},
      {"backoff_s", ParamType::kFloat, "1", "wait before the first retry, doubled each time"},
      {"max_backoff_s", ParamType::kFloat, "30",
       "longest wait between attempts (a 429's or 503's Retry-After is honoured up to it)"},
      {"api_key_env", ParamType::kString, "",
       "environment variable holding the API key (sent as a bearer token, never logged); "
       "empty: none"},
  };
}

Result<ChatEndpointSettings> chat_endpoint_settings(const StageParams& p) {
  ChatEndpointSettings s;
  const std::string& endpoint = p.get_string("endpoint");
  if (endpoint.rfind("http://", 0) != 0 && endpoint.rfind("https://", 0) != 0) {
    return p.error("endpoint", "must be an http:// or https:// URL");
  }
  s.client.url = chat_completions_url(endpoint);
  s.client.timeout_s = p.get_float("timeout_s");
  s.client.connect_timeout_s = p.get_float("connect_timeout_s");
  s.client.backoff_s = p.get_float("backoff_s");
  s.client.max_backoff_s = p.get_float("max_backoff_s");
  const int64_t retries = p.get_int("max_retries");
  const int64_t concurrency = p.get_int("concurrency");
  if (concurrency < 1 || concurrency > 1024) return p.error("concurrency", "must be 1 to 1024");
  if (!(s.client.timeout_s > 0)) return p.error("timeout_s", "must be above 0");
  if (!(s.client.connect_timeout_s > 0)) return p.error("connect_timeout_s", "must be above 0");
  if (retries < 0 || retries > 100) return p.error("max_retries", "must be 0 to 100");
  if (s.client.backoff_s < 0) return p.error("backoff_s", "must be 0 or more");
  if (s.client.max_backoff_s < s.client.backoff_s) {
    return p.error("max_backoff_s", "must be at least backoff_s");
  }
  s.client.max_retries = static_cast<int>(retries);
  s.concurrency = static_cast<int>(concurrency);
  if (const std::string& name = p.get_string("api_key_env"); !name.empty()) {
    const char* key = std::getenv(name.c_str());
    if (!key || !*key) return p.error("api_key_env", "names " + name + ", which is not set");
    s.client.api_key = key;
  }
  // Before the workers' threads use libcurl.
  if (Status http = init_http(); !http.is_ok()) return p.error("endpoint", http.message());
  return s;
}

}  // namespace winnow
