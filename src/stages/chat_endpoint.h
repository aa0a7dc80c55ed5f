#pragma once
// The parameters of a stage that calls an OpenAI-compatible chat endpoint through
// io/chat_client.h (caption, llm_rewrite): where the endpoint is, how many requests may be in
// flight, the timeouts, the retries and the environment variable holding the API key, with
// their checks, the same keys for every such stage.
#include <string>
#include <vector>

#include "core/stage_params.h"
#include "core/status.h"
#include "io/chat_client.h"

namespace winnow {

struct ChatEndpointSettings {
  ChatClientOptions client;  // url, api_key, timeouts, retries
  int concurrency = 8;       // requests in flight, all workers of the stage together
};

// endpoint, concurrency, timeout_s, connect_timeout_s, max_retries, backoff_s, max_backoff_s,
// api_key_env.
std::vector<ParamSpec> chat_endpoint_params(const std::string& default_timeout_s);

// The settings those parameters give, or an error naming the key. Reads the API key from the
// environment (the variable is named in errors, never its value) and makes libcurl ready.
Result<ChatEndpointSettings> chat_endpoint_settings(const StageParams& p);

}  // namespace winnow
