// split_video: each video becomes its clips (a fan-out, core/row_builder.h): windows of fixed
// length (`fixed_stride`, NeMo's default) or shots (`shot_detection`: media/shot_detector.h on
// frames decoded small; `transnetv2`: the anchor's model, models/transnet_v2.h, on frames at its
// 48 x 27; either way then the anchor's rules in media/clip_spans.h). A clip is a reference to
// its source file with a span; nothing is encoded here (transcode_clips does that, after the
// filters have had their say), so a dropped clip costs no encoding.
#include <fmt/format.h>

#include "core/row_builder.h"
#include "media/clip_spans.h"
#include "media/shot_detector.h"
#include "models/transnet_v2.h"
#include "stages/builtin_stages.h"
#include "stages/video/clip_fields.h"

namespace winnow {

namespace {

struct SplitOptions {
  bool shots = true;
  std::shared_ptr<const TransNetV2> transnet;  // shots by the model instead of the detector
  double cut_threshold = 0.4;
  double clip_len_s = 10, stride_s = 10, min_clip_s = 2;  // fixed_stride
  ShotRules rules;                                        // shot_detection
  ShotDetectorOptions detector;
  int detect_width = 64;
};

class SplitVideo final : public Stage {
 public:
  SplitVideo(SplitOptions options, StageContext& context)
      : options_(options),
        split_(context.declare_fan_out("split")),
        no_clips_(context.declare_reason("no_clips")),
        undecodable_(context.declare_reason("undecodable")) {}

  Status process(DocBatch& batch) override {
    struct Child {
      size_t row;
      std::string source;
      ClipSpan span;
      uint32_t index;
    };
    std::vector<Child> children;
    RowBuilder out(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      auto source = batch.kept(i) ? clip_fields::clip_source(batch, i) : std::nullopt;
      if (!source) {
        if (batch.kept(i)) batch.drop(i, undecodable_);
        out.carry(i);
        continue;
      }
      std::vector<ClipSpan> spans;
      if (options_.shots) {
        auto detected = detect_shots(source->path, source->span.end_s);
        if (!detected.is_ok()) {
          batch.drop(i, undecodable_);
          out.carry(i);
          continue;
        }
        spans = std::move(detected).value();
      } else {
        spans = fixed_stride_spans(source->span.end_s, options_.clip_len_s, options_.stride_s,
                                   options_.min_clip_s);
      }
      if (spans.empty()) {
        batch.drop(i, no_clips_, source->span.end_s);
        out.carry(i);
        continue;
      }
      out.carry_as(i, split_);
      const Payload* parent = batch.payload(i);
      for (size_t k = 0; k < spans.size(); ++k) {
        const auto index = static_cast<uint32_t>(k);
        size_t row = out.add_child(i, index, split_, {});
        Payload clip = Payload::of_file(source->path, parent->media_type);
        clip.time_begin = spans[k].begin_s;
        clip.time_end = spans[k].end_s;
        out.set_kind(row, ItemKind::kClip);
        out.set_id(row, clip_fields::clip_id(source->path, spans[k]));
        out.set_payload(row, std::move(clip));
        children.push_back({row, source->path, spans[k], index});
      }
    }
    out.finish();
    if (children.empty()) return Status::ok();
    auto& start = batch.annotation(clip_fields::kSpanStart, AnnotationType::kFloat);
    auto& end = batch.annotation(clip_fields::kSpanEnd, AnnotationType::kFloat);
    auto& index = batch.annotation(clip_fields::kClipIndex, AnnotationType::kInt);
    for (const Child& c : children) {
      start.set_float(c.row, c.span.begin_s);
      end.set_float(c.row, c.span.end_s);
      index.set_int(c.row, c.index);
    }
    // The frames each clip should hold (transcode_clips replaces it with the count it wrote).
    auto& frames = batch.annotation(clip_fields::kFrames, AnnotationType::kInt);
    for (const Child& c : children) {
      if (auto fps = clip_fields::number(batch, c.row, clip_fields::kFps)) {
        frames.set_int(c.row, std::llround((c.span.end_s - c.span.begin_s) * *fps));
      }
    }
    return Status::ok();
  }

 private:
  // Every frame decoded detect_width wide, the detector's cuts, then the rules.
  Result<std::vector<ClipSpan>> detect_shots(const std::string& path, double duration_s) const {
    if (options_.transnet) return model_shots(path, duration_s);
    ShotDetector detector(options_.detector);
    std::vector<double> times;
    FrameRequest request;
    request.width = options_.detect_width;
    WINNOW_RETURN_IF_ERROR(decode_video_frames(path, request, [&](VideoFrame& frame) {
      detector.add(frame.bgr.data(), frame.width, frame.height);
      times.push_back(frame.time_s);
      return true;
    }));
    if (times.empty()) return Status::error("no frame decodes");
    return shot_spans(times, detector.cuts(), duration_s, options_.rules);
  }

  // Every frame at TransNetV2's 48 x 27 (squeezed, whatever the aspect, as the model was
  // trained), streamed into the model as it is decoded (a few hundred frames held, not the
  // video), its per-frame probabilities, the shots they mark, then the rules.
  Result<std::vector<ClipSpan>> model_shots(const std::string& path, double duration_s) const {
    std::vector<double> times;
    std::vector<uint8_t> rgb;
    TransNetStream stream(*options_.transnet);
    Status fed = Status::ok();
    FrameRequest request;
    request.width = TransNetV2::kWidth;
    request.height = TransNetV2::kHeight;
    WINNOW_RETURN_IF_ERROR(decode_video_frames(path, request, [&](VideoFrame& frame) {
      rgb.clear();
      for (size_t p = 0; p < frame.bgr.size(); p += 3) {
        rgb.insert(rgb.end(), {frame.bgr[p + 2], frame.bgr[p + 1], frame.bgr[p]});
      }
      times.push_back(frame.time_s);
      fed = stream.add(rgb);
      return fed.is_ok();
    }));
    WINNOW_RETURN_IF_ERROR(fed);
    if (times.empty()) return Status::error("no frame decodes");
    std::vector<float> probabilities;
    WINNOW_RETURN_IF_ERROR(stream.finish(probabilities));
    return shot_spans(times, transnet_shot_starts(probabilities, options_.cut_threshold),
                      duration_s, options_.rules);
  }

  SplitOptions options_;
  ReasonId split_, no_clips_, undecodable_;
};

std::vector<ParamSpec> split_video_params() {
  return {
      {"method", ParamType::kString, "shot_detection",
       "fixed_stride | shot_detection | transnetv2"},
      {"model", ParamType::kString, "",
       "transnetv2: the model, an ONNX file taking [batch, 100, 27, 48, 3] pixels (float or "
       "uint8, 0-255) and giving the single-frame head first"},
      {"logits", ParamType::kBool, "false",
       "transnetv2: the model gives logits, not probabilities (a sigmoid is applied)"},
      {"cut_threshold", ParamType::kFloat, "0.4",
       "transnetv2: a frame whose probability is above this ends a shot (the anchor's)"},
      {"clip_len_s", ParamType::kFloat, "10", "fixed_stride: clip length (NeMo's default)"},
      {"stride_s", ParamType::kFloat, "0",
       "fixed_stride: seconds between clip starts (0: clip_len_s, clips end to end)"},
      {"min_clip_s", ParamType::kFloat, "2",
       "shortest clip kept (fixed_stride: the last window; shots: after cropping)"},
      {"min_clip_frames", ParamType::kInt, "48",
       "shot_detection, transnetv2: fewest frames in a clip"},
      {"max_clip_s", ParamType::kFloat, "60",
       "shot_detection, transnetv2: longer shots are cut into pieces of this length (0: "
       "never)"},
      {"crop_s", ParamType::kFloat, "0.5",
       "shot_detection, transnetv2: seconds cut from each end of a shot"},
      {"threshold", ParamType::kFloat, "3",
       "shot_detection: a frame's HSV change over the mean of its neighbours' that makes a "
       "cut (AdaptiveDetector's adaptive_threshold)"},
      {"min_content", ParamType::kFloat, "15",
       "shot_detection: least HSV change (0-255) for a cut (min_content_val)"},
      {"window", ParamType::kInt, "2",
       "shot_detection: neighbours on each side a frame is compared with"},
      {"min_scene_frames", ParamType::kInt, "15", "shot_detection: fewest frames between two cuts"},
      {"detect_width", ParamType::kInt, "64",
       "shot_detection: frames are decoded this wide for the detector"},
  };
}

// The method, and with transnetv2 its model, loaded.
Status read_method(const StageParams& p, SplitOptions& o) {
  const std::string method = p.get_string("method");
  if (method != "fixed_stride" && method != "shot_detection" && method != "transnetv2") {
    return p.error("method", "must be fixed_stride, shot_detection or transnetv2");
  }
  o.shots = method != "fixed_stride";
  if (method != "transnetv2") {
    if (!p.get_string("model").empty())
      return p.error("model", "only method transnetv2 takes a model");
    return Status::ok();
  }
  if (p.get_string("model").empty()) {
    return p.error("model", "method transnetv2 needs the model's ONNX file");
  }
  TransNetOptions model_options;
  model_options.logits = p.get_bool("logits");
  // One intra-op thread: the CPU a worker declares; workers share the session.
  model_options.session.intra_op_threads = 1;
  auto model = TransNetV2::load(p.get_string("model"), model_options);
  if (!model.is_ok()) return p.error("model", model.status().message());
  o.transnet = std::move(model).value();
  return Status::ok();
}

// The clips' lengths: fixed windows, and the rules shots are cropped, kept and cut by.
Status read_clip_rules(const StageParams& p, SplitOptions& o) {
  o.cut_threshold = p.get_float("cut_threshold");
  if (o.cut_threshold <= 0 || o.cut_threshold >= 1) {
    return p.error("cut_threshold", "must be between 0 and 1");
  }
  o.clip_len_s = p.get_float("clip_len_s");
  o.stride_s = p.get_float("stride_s") > 0 ? p.get_float("stride_s") : o.clip_len_s;
  o.min_clip_s = p.get_float("min_clip_s");
  o.rules.min_clip_s = o.min_clip_s;
  o.rules.min_clip_frames = p.get_int("min_clip_frames");
  o.rules.max_clip_s = p.get_float("max_clip_s");
  o.rules.crop_s = p.get_float("crop_s");
  if (o.clip_len_s <= 0) return p.error("clip_len_s", "must be above 0");
  if (p.get_float("stride_s") < 0) return p.error("stride_s", "must be 0 or more");
  if (o.min_clip_s < 0) return p.error("min_clip_s", "must be 0 or more");
  if (o.rules.min_clip_frames < 0) return p.error("min_clip_frames", "must be 0 or more");
  if (o.rules.max_clip_s < 0) return p.error("max_clip_s", "must be 0 or more");
  if (o.rules.max_clip_s > 0 && o.rules.max_clip_s < o.min_clip_s) {
    return p.error("max_clip_s", "must be at least min_clip_s");
  }
  if (o.rules.crop_s < 0) return p.error("crop_s", "must be 0 or more");
  return Status::ok();
}

// The content detector's settings (shot_detection).
Status read_detector(const StageParams& p, SplitOptions& o) {
  o.detector.adaptive_threshold = p.get_float("threshold");
  o.detector.min_content = p.get_float("min_content");
  o.detector.window = static_cast<int>(p.get_int("window"));
  o.detector.min_scene_frames = static_cast<int>(p.get_int("min_scene_frames"));
  o.detect_width = static_cast<int>(p.get_int("detect_width"));
  if (o.detector.adaptive_threshold <= 0) return p.error("threshold", "must be above 0");
  if (o.detector.min_content < 0) return p.error("min_content", "must be 0 or more");
  if (o.detector.window < 1) return p.error("window", "must be 1 or more");
  if (o.detector.min_scene_frames < 1) return p.error("min_scene_frames", "must be 1 or more");
  if (o.detect_width < 8 || o.detect_width > 1024) {
    return p.error("detect_width", "must be between 8 and 1024");
  }
  return Status::ok();
}

}  // namespace

StageSpec split_video_spec() {
  StageSpec spec{
      "split_video",
      "Splits each video into clips (a fan-out: video items in, clip items out): fixed windows "
      "(method fixed_stride) or shots found by a content detector over small decoded frames "
      "(method shot_detection: HSV difference against the mean of its neighbours, "
      "PySceneDetect's AdaptiveDetector), each shot cropped at both ends, left out when short "
      "and cut into pieces when long. A clip refers to its source file and span; "
      "transcode_clips encodes it. Method transnetv2 finds the shots with a TransNetV2 ONNX "
      "model instead (the anchor's: frames at 48 x 27, windows of 100 stepped by 50, a frame "
      "above cut_threshold ends a shot). Reasons no_clips (score: the video's duration), "
      "undecodable.",
      split_video_params(),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        SplitOptions o;
        if (Status status = read_method(p, o); !status.is_ok()) return status;
        if (Status status = read_clip_rules(p, o); !status.is_ok()) return status;
        if (Status status = read_detector(p, o); !status.is_ok()) return status;
        return std::unique_ptr<Stage>(new SplitVideo(o, context));
      },
  };
  spec.takes = ItemKind::kVideo;
  spec.gives = ItemKind::kClip;
  return spec;
}

}  // namespace winnow
