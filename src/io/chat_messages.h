#pragma once
// The JSON of OpenAI's chat completions API, as vLLM serves it for vision-language models: a
// request with one user message of images (base64 JPEG data URLs) then the prompt, and the text
// of a reply's first choice.
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
};

// The request body: {"model", "messages": [{"role": "user", "content": [image_url parts...,
// {"type": "text", "text": prompt}]}], "max_tokens", "temperature", "seed"}. The images come
// first, as video VLMs expect the frames before the question.
std::string chat_request_json(const ChatRequestOptions& options,
                              const std::vector<std::string_view>& jpegs);

// choices[0].message.content of a reply body; an error saying what is missing when the body is
// not such a reply (malformed JSON, an error object, no choices, content not a string).
Result<std::string> chat_reply_text(std::string_view body);

// RFC 4648 base64 (with padding).
void append_base64(std::string& out, std::string_view bytes);

}  // namespace winnow
