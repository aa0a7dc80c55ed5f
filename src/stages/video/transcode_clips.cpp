// transcode_clips: each kept clip cut out of its source and encoded (media/video_codecs.h): the
// clips of one source, consecutive in the batch after split_video, in one decoder pass. The
// clip's payload becomes the MP4 in memory, with its contact sheet as a second member; the
// writer puts them at clips/<id>.mp4 and previews/<id>.jpg. With copy_when_possible, a clip
// that starts on a keyframe of an H.264 source and ends before one is remuxed, not encoded;
// `<stage>_method` says which each clip got.
#include <fmt/format.h>

#include <cstdio>
#include <mutex>

#include "stages/builtin_stages.h"
#include "stages/video/clip_fields.h"

namespace winnow {

namespace {

// The encoder `encoder` names, settled and checked when the pipeline loads, so that a missing
// NVENC fails the run before anything is read instead of dropping every clip: auto is
// h264_nvenc when the stage was given a GPU and NVENC opens here, else libx264 (said once per
// process); h264_nvenc without a GPU, or any encoder that does not open, is an error naming it.
Result<std::string> choose_encoder(const std::string& encoder, const StageContext& context) {
  if (encoder == "auto") {
    std::string chosen = "libx264", why = "no GPU given to the stage";
    if (context.gpus() > 0) {
      Status nvenc = check_video_encoder("h264_nvenc");
      if (nvenc.is_ok()) {
        chosen = "h264_nvenc";
        why = "a GPU given and NVENC opens";
      } else {
        why = nvenc.message();
      }
    }
    static std::once_flag said;
    std::call_once(said, [&] {
      std::fprintf(stderr, "winnow: %s encodes clips with %s (encoder auto: %s)\n",
                   context.stage_name().c_str(), chosen.c_str(), why.c_str());
    });
    return chosen;
  }
  if (encoder == "h264_nvenc" && context.gpus() == 0) {
    return Status::error(
        "h264_nvenc encodes on an NVIDIA GPU (NVENC) and this run has none; use libx264, or "
        "auto to take NVENC only where there is one");
  }
  WINNOW_RETURN_IF_ERROR(check_video_encoder(encoder));
  return encoder;
}

class TranscodeClips final : public Stage {
 public:
  TranscodeClips(EncodeSettings settings, StageContext& context)
      : settings_(std::move(settings)),
        method_(context.stage_name() + "_method"),
        failed_(context.declare_reason("encode_failed")) {}

  Status process(DocBatch& batch) override {
    size_t i = 0;
    while (i < batch.size()) {
      auto source = batch.kept(i) ? clip_fields::clip_source(batch, i) : std::nullopt;
      if (!source) {
        ++i;
        continue;
      }
      // This clip and the kept clips of the same source after it (dropped rows in between are
      // passed over).
      std::vector<size_t> rows = {i};
      std::vector<ClipSpan> spans = {source->span};
      size_t j = i + 1;
      for (; j < batch.size(); ++j) {
        if (!batch.kept(j)) continue;
        auto next = clip_fields::clip_source(batch, j);
        if (!next || next->path != source->path) break;
        rows.push_back(j);
        spans.push_back(next->span);
      }
      encode(batch, source->path, rows, spans);
      i = j;
    }
    return Status::ok();
  }

 private:
  void encode(DocBatch& batch, const std::string& path, const std::vector<size_t>& rows,
              const std::vector<ClipSpan>& spans) const {
    std::vector<EncodedClip> clips;
    Status status = transcode_clips(path, spans, settings_, clips);
    for (size_t k = 0; k < rows.size(); ++k) {
      const size_t row = rows[k];
      if (!status.is_ok() || k >= clips.size() || !clips[k].error.empty() || clips[k].mp4.empty()) {
        batch.drop(row, failed_);
        continue;
      }
      EncodedClip& clip = clips[k];
      const std::string id(batch.id(row));
      const uint64_t mp4_size = clip.mp4.size();
      const uint64_t jpg_size = clip.preview_jpg.size();
      Payload payload = Payload::of_bytes(clip.mp4 + clip.preview_jpg, "video/mp4");
      payload.size = mp4_size;
      // The source and span stay: stages after this one measure the same frames.
      payload.path = path;
      payload.time_begin = spans[k].begin_s;
      payload.time_end = spans[k].end_s;
      payload.members.push_back({id + ".mp4", 0, mp4_size});
      if (jpg_size > 0) payload.members.push_back({id + ".jpg", mp4_size, jpg_size});
      batch.set_payload(row, std::move(payload));
      batch.annotation(clip_fields::kFrames, AnnotationType::kInt).set_int(row, clip.frames);
      batch.annotation(clip_fields::kWidth, AnnotationType::kInt).set_int(row, clip.width);
      batch.annotation(clip_fields::kHeight, AnnotationType::kInt).set_int(row, clip.height);
      batch.annotation(method_, AnnotationType::kString)
          .set_string(row, clip.copied ? "copy" : "encode");
    }
  }

  EncodeSettings settings_;
  std::string method_;
  ReasonId failed_;
};

}  // namespace

StageSpec transcode_clips_spec() {
  StageSpec spec{
      "transcode_clips",
      "Cuts each kept clip out of its source and encodes it (H.264 in MP4, with the source's "
      "audio of the span copied unless keep_audio is false; audio MP4 cannot carry is left "
      "out), "
      "frame-accurately: decoding starts at the keyframe before the clip and every clip is "
      "encoded from its first frame. The clips of one source share one decoder pass. Fixed "
      "encoder settings (threads included) make the bytes the same whatever winnow's thread "
      "count. With copy_when_possible, a clip of an H.264 source that starts on a keyframe and "
      "ends just before one is remuxed instead (its packets copied, no quality lost, no "
      "encoding cost); the annotation <stage>_method says copy or encode. Written to "
      "clips/<id>.mp4 with a contact sheet at previews/<id>.jpg. Reason encode_failed.",
      {
          {"encoder", ParamType::kString, "libx264",
           "libx264 | h264_nvenc (needs a GPU given to the stage; VBR at CQ 21, the anchor's) | "
           "auto (h264_nvenc when the stage has a GPU and NVENC opens, else libx264) | another "
           "FFmpeg encoder's name; checked when the pipeline loads"},
          {"bit_rate", ParamType::kInt, "4000000",
           "bits per second (the anchor's 4 Mbit/s; 0: the source's)"},
          {"preset", ParamType::kString, "fast", "the encoder's preset"},
          {"encoder_threads", ParamType::kInt, "1",
           "threads per encoder: fixed, so output never depends on the machine"},
          {"preview_frames", ParamType::kInt, "4", "tiles in the contact sheet (0: none)"},
          {"preview_width", ParamType::kInt, "160", "width of each tile"},
          {"keep_audio", ParamType::kBool, "true",
           "copy the source's audio of the span into the clip (the anchor's)"},
          {"copy_when_possible", ParamType::kBool, "false",
           "remux a clip that starts on a keyframe of an H.264 source and ends before one "
           "(packets copied) instead of encoding it"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        EncodeSettings s;
        s.encoder = p.get_string("encoder");
        s.bit_rate = p.get_int("bit_rate");
        s.preset = p.get_string("preset");
        s.threads = static_cast<int>(p.get_int("encoder_threads"));
        s.preview_frames = static_cast<int>(p.get_int("preview_frames"));
        s.preview_width = static_cast<int>(p.get_int("preview_width"));
        s.keep_audio = p.get_bool("keep_audio");
        s.copy_when_possible = p.get_bool("copy_when_possible");
        if (s.encoder.empty()) return p.error("encoder", "must name an FFmpeg encoder");
        auto encoder = choose_encoder(s.encoder, context);
        if (!encoder.is_ok()) return p.error("encoder", encoder.status().message());
        s.encoder = std::move(encoder).value();
        if (s.bit_rate < 0) return p.error("bit_rate", "must be 0 or more");
        if (s.threads < 1 || s.threads > 64) return p.error("encoder_threads", "must be 1 to 64");
        if (s.preview_frames < 0 || s.preview_frames > 64) {
          return p.error("preview_frames", "must be 0 to 64");
        }
        if (s.preview_width < 16 || s.preview_width > 1920) {
          return p.error("preview_width", "must be 16 to 1920");
        }
        return std::unique_ptr<Stage>(new TranscodeClips(std::move(s), context));
      },
  };
  spec.takes = ItemKind::kClip;
  spec.resources.cpus = 1;
  return spec;
}

}  // namespace winnow
