// caption: each kept clip described by a vision-language model behind an OpenAI-compatible chat
// endpoint (vLLM serves the anchor's Qwen2.5-VL): the clip's frames sampled at sample_fps,
// decoded once, scaled to at most max_side, JPEG-encoded and cut into windows of window_frames
// (media/frame_windows.h); each window is one request (io/chat_messages.h) sent through
// io/chat_client.h, and the texts are stored per window in the clip's `captions` field (and
// metas/<id>.json). A clip whose window fails after the retries is an error record (errors/,
// under on_error: skip) or ends the run (fail), naming the clip and the HTTP status or curl
// error: never silently kept without its caption.
#include <fmt/format.h>

#include <cmath>
#include <deque>
#include <memory>

#include "core/json_text.h"
#include "io/chat_client.h"
#include "io/chat_messages.h"
#include "media/frame_windows.h"
#include "media/video_codecs.h"
#include "stages/builtin_stages.h"
#include "stages/chat_endpoint.h"
#include "stages/video/clip_fields.h"

namespace winnow {

namespace {

struct CaptionSettings {
  ChatClientOptions client;
  ChatRequestOptions request;
  int window_frames = 256;
  double sample_fps = 2;
  int max_side = 448;
  int jpeg_qscale = 5;
  int concurrency = 8;
};

// One clip in flight: its windows' texts as they come back, and its first failure.
struct ClipWork {
  size_t row = 0;
  ClipSpan span;
  std::vector<FrameWindow> windows;
  std::vector<double> times;  // each sampled frame's source time
  std::vector<std::string> texts;
  size_t failed_window = SIZE_MAX;  // the lowest window that failed (deterministic message)
  std::string failure;
  ReasonId failure_kind = kKept;
};

class Caption final : public Stage {
 public:
  Caption(CaptionSettings settings, StageContext& context)
      : settings_(std::move(settings)),
        slots_(settings_.concurrency),
        skip_errors_(context.skip_errors()),
        endpoint_failed_(context.declare_error("endpoint_failed")),
        bad_reply_(context.declare_error("bad_reply")),
        undecodable_(context.declare_reason("undecodable")) {}

  Status process(DocBatch& batch) override {
    std::vector<ClipWork> clips;
    // Tag of a request: (clip << 24) | window.
    std::deque<ChatClient::Request> ready;
    size_t row = 0;
    auto next = [&]() -> std::optional<ChatClient::Request> {
      // Frames are decoded clip by clip, only when a slot asks for more, so one clip's JPEGs
      // (not the batch's) are held at a time.
      while (ready.empty() && row < batch.size()) {
        const size_t r = row++;
        if (!batch.kept(r)) continue;
        auto source = clip_fields::clip_source(batch, r);
        if (!source) continue;
        ClipWork work;
        work.row = r;
        work.span = source->span;
        std::vector<std::string> jpegs;
        Status decoded = sample_frames(batch, r, *source, jpegs, work.times);
        if (!decoded.is_ok() || jpegs.empty()) {
          batch.drop(r, undecodable_);
          continue;
        }
        work.windows = frame_windows(jpegs.size(), size_t(settings_.window_frames));
        work.texts.resize(work.windows.size());
        const uint64_t clip = clips.size();
        for (size_t k = 0; k < work.windows.size(); ++k) {
          std::vector<std::string_view> images(jpegs.begin() + work.windows[k].begin,
                                               jpegs.begin() + work.windows[k].end);
          ready.push_back({clip << 24 | k, chat_request_json(settings_.request, images)});
        }
        clips.push_back(std::move(work));
      }
      if (ready.empty()) return std::nullopt;
      ChatClient::Request request = std::move(ready.front());
      ready.pop_front();
      return request;
    };
    auto done = [&](uint64_t tag, ChatReply reply) {
      ClipWork& work = clips[tag >> 24];
      const size_t window = tag & 0xffffff;
      std::string failure;
      ReasonId kind = endpoint_failed_;
      if (!reply.ok) {
        failure = fmt::format("{} after {} attempt{}", reply.error, reply.attempts,
                              reply.attempts == 1 ? "" : "s");
      } else if (auto text = chat_reply_text(reply.body); text.is_ok()) {
        work.texts[window] = std::move(text).value();
        return;
      } else {
        failure = text.status().message();
        kind = bad_reply_;
      }
      if (window < work.failed_window) {
        work.failed_window = window;
        work.failure = std::move(failure);
        work.failure_kind = kind;
      }
    };
    ChatClient(settings_.client, slots_).run(next, done);

    for (const ClipWork& work : clips) {
      if (work.failed_window == SIZE_MAX) {
        batch.annotation(clip_fields::kCaptions, AnnotationType::kString)
            .set_string(work.row, captions_json(work));
        continue;
      }
      const std::string message =
          fmt::format("caption: clip {} ({} [{:.3f}, {:.3f}] s), window {} of {}: {}",
                      batch.id(work.row), batch.payload(work.row)->path, work.span.begin_s,
                      work.span.end_s, work.failed_window, work.windows.size(), work.failure);
      if (!skip_errors_) {
        return Status::errorf(
            "{} (on_error: fail; set on_error: skip to log such clips to "
            "errors/ and go on)",
            message);
      }
      mark_row_error(batch, work.row, work.failure_kind, message);
    }
    return Status::ok();
  }

 private:
  // The clip's frames at sample_fps, scaled so the longer side is at most max_side (even sizes:
  // JPEG's 4:2:0 chroma), each encoded as it is decoded.
  Status sample_frames(const DocBatch& batch, size_t row, const clip_fields::ClipSource& source,
                       std::vector<std::string>& jpegs, std::vector<double>& times) const {
    FrameRequest request;
    request.begin_s = source.span.begin_s;
    request.end_s = source.span.end_s;
    request.sample_fps = settings_.sample_fps;
    const double width = clip_fields::number(batch, row, clip_fields::kWidth).value_or(0);
    const double height = clip_fields::number(batch, row, clip_fields::kHeight).value_or(0);
    if (width > 0 && height > 0) {
      const double longer = std::max(width, height);
      const double scale = settings_.max_side > 0 ? std::min(1.0, settings_.max_side / longer) : 1;
      auto even = [](double v) { return std::max(2, int(std::lround(v / 2)) * 2); };
      request.width = even(width * scale);
      request.height = even(height * scale);
    } else {
      request.max_side = settings_.max_side;
    }
    Status encoded = Status::ok();
    Status decoded = decode_video_frames(source.path, request, [&](VideoFrame& frame) {
      auto jpeg = encode_frame_jpeg(frame, settings_.jpeg_qscale);
      if (!jpeg.is_ok()) {
        encoded = jpeg.status();
        return false;
      }
      jpegs.push_back(std::move(jpeg).value());
      times.push_back(frame.time_s);
      return true;
    });
    return decoded.is_ok() ? encoded : decoded;
  }

  // [{"window": k, "span_s": [first frame, last frame + a sample step], "frames": n, "text"}]
  std::string captions_json(const ClipWork& work) const {
    JsonWriter out(false);
    out.begin_array();
    for (size_t k = 0; k < work.windows.size(); ++k) {
      const FrameWindow& w = work.windows[k];
      const double end =
          std::min(work.span.end_s, work.times[w.end - 1] + 1 / settings_.sample_fps);
      out.begin_object();
      out.key("window").value(int64_t(k));
      out.key("span_s").begin_array().value(work.times[w.begin]).value(end).end_array();
      out.key("frames").value(int64_t(w.end - w.begin));
      out.key("text").value(work.texts[k]);
      out.end_object();
    }
    out.end_array();
    return out.take();
  }

  CaptionSettings settings_;
  RequestSlots slots_;
  bool skip_errors_;
  ReasonId endpoint_failed_, bad_reply_, undecodable_;
};

}  // namespace

StageSpec caption_spec() {
  StageSpec spec{
      "caption",
      "Describes each kept clip with a vision-language model behind an OpenAI-compatible chat "
      "endpoint (vLLM, as the anchor serves Qwen2.5-VL): frames sampled at sample_fps, scaled to "
      "at most max_side, sent as base64 JPEGs in windows of window_frames (a remainder of at "
      "least half a window is its own window, a shorter one joins the last) with the prompt; "
      "the replies are stored per window in the clip's captions field and metas/<id>.json "
      "({window, span_s, frames, text}). At most concurrency requests in flight across the "
      "stage's workers; each attempt times out after timeout_s; connection errors, timeouts, "
      "429 and 5xx are retried max_retries times after backoff_s, doubled each time (at most "
      "max_backoff_s); other 4xx are final. A clip whose endpoint still fails, or whose reply "
      "is not a chat completion, is an error record naming the clip and the HTTP status or "
      "curl error (errors/ under on_error: skip; the run stops under fail). Errors "
      "endpoint_failed, bad_reply; reason undecodable.",
      {
          {"model", ParamType::kString, "Qwen/Qwen2.5-VL-7B-Instruct", "the served model's name"},
          {"prompt", ParamType::kString,
           "Elaborate on the visual and narrative elements of the video in detail.",
           "the question asked after each window's frames (the anchor's)"},
          {"window_frames", ParamType::kInt, "256", "frames per request (the anchor's)"},
          {"sample_fps", ParamType::kFloat, "2", "frames sampled per second of clip"},
          {"max_side", ParamType::kInt, "448", "longer side of each frame sent (0: the source's)"},
          {"jpeg_qscale", ParamType::kInt, "5", "JPEG quantiser, 2 (best) to 31"},
          {"max_tokens", ParamType::kInt, "512", "longest caption, in tokens"},
          {"temperature", ParamType::kFloat, "0", "sampling temperature (0: greedy)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        CaptionSettings s;
        auto endpoint = chat_endpoint_settings(p);
        if (!endpoint.is_ok()) return endpoint.status();
        s.client = endpoint->client;
        s.concurrency = endpoint->concurrency;
        s.request.model = p.get_string("model");
        s.request.prompt = p.get_string("prompt");
        s.request.max_tokens = p.get_int("max_tokens");
        s.request.temperature = p.get_float("temperature");
        s.request.seed = static_cast<int64_t>(context.seed() & 0x7fffffff);
        s.window_frames = static_cast<int>(p.get_int("window_frames"));
        s.sample_fps = p.get_float("sample_fps");
        s.max_side = static_cast<int>(p.get_int("max_side"));
        s.jpeg_qscale = static_cast<int>(p.get_int("jpeg_qscale"));
        if (s.request.model.empty()) return p.error("model", "must name the served model");
        if (s.window_frames < 1 || s.window_frames > 4096) {
          return p.error("window_frames", "must be 1 to 4096");
        }
        if (!(s.sample_fps > 0)) return p.error("sample_fps", "must be above 0");
        if (s.max_side < 0 || s.max_side == 1) return p.error("max_side", "must be 0 or 2 or more");
        if (s.jpeg_qscale < 2 || s.jpeg_qscale > 31)
          return p.error("jpeg_qscale", "must be 2 to 31");
        if (s.request.max_tokens < 1) return p.error("max_tokens", "must be 1 or more");
        if (s.request.temperature < 0) return p.error("temperature", "must be 0 or more");
        return std::unique_ptr<Stage>(new Caption(std::move(s), context));
      },
  };
  // Where the endpoint is, requests in flight, timeouts, retries, the key's variable
  // (stages/chat_endpoint.h, shared with llm_rewrite).
  for (ParamSpec& p : chat_endpoint_params("300")) spec.params.push_back(std::move(p));
  spec.takes = ItemKind::kClip;
  spec.resources.cpus = 1;
  return spec;
}

}  // namespace winnow
