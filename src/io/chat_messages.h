#pragma once
// The JSON of OpenAI's chat completions API, as vLLM serves it: a request with one user message
// of images (base64 JPEG data URLs) then the prompt (vision-language models, caption), or a
// text request of an optional system message and a user message (llm_rewrite); and the text of
// a reply's first choice.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

struct ChatRequestOptions {
  std::string model;
  std::string prompt;
  int64_t max_tokens = 512;
  double temperature = 0;  // 0: greedy, the same caption for the same frames
  int64_t seed = 0;        // for servers that sample anyway (vLLM honours it)
  double top_p = 1;        // text requests only (chat_text_request_json)
};

// The request body: {"model", "messages": [{"role": "user", "content": [image_url parts...,
// {"type": "text", "text": prompt}]}], "max_tokens", "temperature", "seed"}. The images come
// first, as video VLMs expect the frames before the question.
std::string chat_request_json(const ChatRequestOptions& options,
                              const std::vector<std::string_view>& jpegs);

// The body of a text request: {"model", "messages": [{"role": "system", "content": system}
// (left out when `system` is empty), {"role": "user", "content": options.prompt}], "max_tokens",
// "temperature", "top_p", "seed"}, contents as plain strings.
std::string chat_text_request_json(const ChatRequestOptions& options, std::string_view system);

// choices[0].message.content of a reply body; an error saying what is missing when the body is
// not such a reply (malformed JSON, an error object, no choices, content not a string).
Result<std::string> chat_reply_text(std::string_view body);

// RFC 4648 base64 (with padding).
void append_base64(std::string& out, std::string_view bytes);

}  // namespace winnow
