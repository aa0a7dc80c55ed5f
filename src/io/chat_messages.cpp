#include "io/chat_messages.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "core/json_text.h"
#include "core/utf8.h"

namespace winnow {

void append_base64(std::string& out, std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out.reserve(out.size() + (bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 |
                       uint8_t(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
}

namespace {

// The request's closing members: max_tokens, temperature, top_p (text requests: the image
// requests' bytes predate it) and seed, and the closing brace.
void append_sampling(std::string& out, const ChatRequestOptions& options, bool top_p) {
  out += ",\"max_tokens\":";
  out += std::to_string(options.max_tokens);
  out += ",\"temperature\":";
  append_json_number(out, options.temperature);
  if (top_p) {
    out += ",\"top_p\":";
    append_json_number(out, options.top_p);
  }
  out += ",\"seed\":";
  out += std::to_string(options.seed);
  out += '}';
}

}  // namespace

std::string chat_request_json(const ChatRequestOptions& options,
                              const std::vector<std::string_view>& jpegs) {
  size_t bytes = options.prompt.size() + 256;
  for (std::string_view jpeg : jpegs) bytes += (jpeg.size() + 2) / 3 * 4 + 80;
  std::string out;
  out.reserve(bytes);
  out += "{\"model\":";
  append_json_string(out, options.model);
  out += ",\"messages\":[{\"role\":\"user\",\"content\":[";
  for (std::string_view jpeg : jpegs) {
    out += "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/jpeg;base64,";
    append_base64(out, jpeg);
    out += "\"}},";
  }
  out += "{\"type\":\"text\",\"text\":";
  append_json_string(out, options.prompt);
  out += "}]}]";
  append_sampling(out, options, /*top_p=*/false);
  return out;
}

std::string chat_text_request_json(const ChatRequestOptions& options, std::string_view system) {
  std::string out;
  out.reserve(options.prompt.size() + system.size() + 256);
  out += "{\"model\":";
  append_json_string(out, options.model);
  out += ",\"messages\":[";
  if (!system.empty()) {
    out += "{\"role\":\"system\",\"content\":";
    append_json_string(out, system);
    out += "},";
  }
  out += "{\"role\":\"user\",\"content\":";
  append_json_string(out, options.prompt);
  out += "}]";
  append_sampling(out, options, /*top_p=*/true);
  return out;
}

Result<std::string> chat_reply_text(std::string_view body) {
  auto excerpt = [&] {
    std::string out;
    append_sanitized_utf8(out, utf8_prefix(body, 120));
    return out;
  };
  simdjson::dom::parser parser;
  simdjson::padded_string padded(body);
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS || !root.is_object()) {
    return Status::errorf("malformed reply (not a JSON object): {}", excerpt());
  }
  simdjson::dom::array choices;
  if (root["choices"].get(choices) != simdjson::SUCCESS || choices.size() == 0) {
    return Status::errorf("reply has no choices: {}", excerpt());
  }
  std::string_view content;
  if (choices.at(0)["message"]["content"].get(content) != simdjson::SUCCESS) {
    return Status::errorf("reply's choices[0].message.content is not a string: {}", excerpt());
  }
  return std::string(content);
}

}  // namespace winnow
