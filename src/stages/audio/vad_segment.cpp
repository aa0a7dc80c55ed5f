// vad_segment: each audio item becomes its speech segments (a fan-out, core/row_builder.h), as
// NeMo Curator's VADSegmentationStage makes them: a Silero-style VAD model exported to ONNX
// (models/silero_vad.h) gives a speech probability per window, Silero's get_speech_timestamps
// rules turn them into spans (media/speech_timestamps.h), and each span of the item's own audio
// becomes an audio item of its own: its samples cached for the later stages, FLAC as its
// payload (written to OUT/files/ if kept), its span and parent in fields.
#include <fmt/format.h>

#include "core/decoded_audio_cache.h"
#include "core/row_builder.h"
#include "media/audio_flac.h"
#include "media/audio_samples.h"
#include "media/speech_timestamps.h"
#include "models/silero_vad.h"
#include "stages/audio/speech_segments.h"
#include "stages/audio/undecodable_audio.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

struct VadOptions {
  std::shared_ptr<const SileroVad> model;
  SpeechTimestampOptions spans;
};

// One item's VAD input and the spans found in it, in seconds.
struct Item {
  size_t row;
  VadAudio vad;
  std::vector<std::pair<double, double>> spans;
};

class VadSegment final : public Stage {
 public:
  VadSegment(VadOptions options, StageContext& context)
      : o_(std::move(options)),
        split_(context.declare_fan_out("split")),
        no_speech_(context.declare_reason("no_speech")),
        undecodable_(context) {}

  Status process(DocBatch& batch) override {
    std::vector<Item> items;
    WINNOW_RETURN_IF_ERROR(gather(batch, items));
    WINNOW_RETURN_IF_ERROR(find_spans(items, 16000));
    WINNOW_RETURN_IF_ERROR(find_spans(items, 8000));
    return fan_out(batch, items);
  }

 private:
  // Each kept item's VAD input; the ones that do not decode reported.
  Status gather(DocBatch& batch, std::vector<Item>& items) const {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string why;
      const AudioSamples* audio = audio_samples(batch, i, &why);
      std::optional<VadAudio> vad = audio ? vad_audio(*audio, &why) : std::nullopt;
      if (!vad) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, why));
        continue;
      }
      items.push_back({i, std::move(*vad), {}});
    }
    return Status::ok();
  }

  // The spans of the items whose VAD input is at `rate`, their windows run as one batch.
  Status find_spans(std::vector<Item>& items, int rate) const {
    std::vector<Item*> at_rate;
    std::vector<std::span<const float>> audios;
    for (Item& item : items) {
      if (item.vad.sample_rate != rate) continue;
      at_rate.push_back(&item);
      audios.emplace_back(item.vad.samples);
    }
    if (at_rate.empty()) return Status::ok();
    std::vector<std::vector<float>> probs;
    WINNOW_RETURN_IF_ERROR(o_.model->probabilities(audios, rate, probs));
    for (size_t k = 0; k < at_rate.size(); ++k) {
      const auto length = int64_t(audios[k].size());
      for (const SampleSpan& s :
           speech_timestamps(probs[k], length, rate, SileroVad::window(rate), o_.spans)) {
        at_rate[k]->spans.emplace_back(double(s.start) / rate, double(s.end) / rate);
      }
    }
    return Status::ok();
  }

  struct Child {
    size_t row;
    double begin_s, end_s;
    uint32_t index;
    std::string parent_id;
    AudioSamples audio;
  };

  // The rows rebuilt: each item with speech replaced by its segments, the others dropped.
  Status fan_out(DocBatch& batch, const std::vector<Item>& items) const {
    std::vector<Child> children;
    RowBuilder out(batch);
    size_t next = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
      const Item* item = next < items.size() && items[next].row == i ? &items[next++] : nullptr;
      if (!item || item->spans.empty()) {
        if (item)
          batch.drop(i, no_speech_, double(item->vad.samples.size()) / item->vad.sample_rate);
        out.carry(i);
        continue;
      }
      const AudioSamples& audio = *batch.cache<DecodedAudioCache>().find(batch.key(i));
      out.carry_as(i, split_);
      for (size_t k = 0; k < item->spans.size(); ++k) {
        const auto [begin_s, end_s] = item->spans[k];
        AudioSamples segment = cut_segment(audio, begin_s, end_s);
        auto flac = encode_flac(segment);
        if (!flac.is_ok()) return flac.status();
        const size_t row = out.add_child(i, uint32_t(k), split_, {});
        Payload payload = Payload::of_bytes(std::move(flac).value(), "audio/flac");
        payload.path = batch.payload(i)->path;  // the source, named in rejected/ if dropped later
        out.set_payload(row, std::move(payload));
        children.push_back(
            {row, begin_s, end_s, uint32_t(k), std::string(batch.id(i)), std::move(segment)});
      }
    }
    out.finish();
    annotate(batch, children);
    return Status::ok();
  }

  static void annotate(DocBatch& batch, std::vector<Child>& children) {
    if (children.empty()) return;
    auto& start = batch.annotation("segment_start", AnnotationType::kFloat);
    auto& end = batch.annotation("segment_end", AnnotationType::kFloat);
    auto& index = batch.annotation("segment_index", AnnotationType::kInt);
    auto& parent = batch.annotation("parent_id", AnnotationType::kString);
    auto& duration = batch.annotation("duration", AnnotationType::kFloat);
    for (Child& c : children) {
      start.set_float(c.row, c.begin_s);
      end.set_float(c.row, c.end_s);
      index.set_int(c.row, c.index);
      parent.set_string(c.row, c.parent_id);
      duration.set_float(c.row, c.audio.duration_s());
      batch.cache<DecodedAudioCache>().put(batch.key(c.row), std::move(c.audio));
    }
  }

  VadOptions o_;
  ReasonId split_, no_speech_;
  UndecodableAudio undecodable_;
};

}  // namespace

StageSpec vad_segment_spec() {
  StageSpec spec{
      "vad_segment",
      "Splits each audio item into its speech segments (a fan-out: audio items in, audio items "
      "out), as NeMo Curator's VADSegmentationStage: a VAD model exported to ONNX with Silero "
      "VAD's interface gives a speech probability per 32 ms window (the audio mono at 16 kHz), "
      "and Silero's get_speech_timestamps rules make spans of them. Each segment is an audio "
      "item with the span's audio (FLAC in OUT/files/ when kept), id <parent id>-<index>, "
      "segment_start and segment_end (seconds in the parent), segment_index, parent_id and "
      "duration. Reasons split (the parent, replaced by its segments), no_speech (score: the "
      "seconds); audio that cannot be decoded is an error record (undecodable_audio).",
      {
          {"model", ParamType::kString, "", "the VAD model (ONNX, Silero VAD's interface)"},
          {"threshold", ParamType::kFloat, "0.5", "a window at or above this is speech"},
          {"neg_threshold", ParamType::kFloat, "-1",
           "in speech, a window below this may end it (below 0: threshold - 0.15, at least 0.01)"},
          {"min_speech_duration_ms", ParamType::kFloat, "250", "shorter spans are left out"},
          {"max_speech_duration_s", ParamType::kFloat, "0",
           "longer speech is cut at its longest pause over 98 ms, else where it reaches this "
           "(0: no limit)"},
          {"min_silence_duration_ms", ParamType::kFloat, "100",
           "a pause this long ends a span (shorter ones are bridged)"},
          {"speech_pad_ms", ParamType::kFloat, "30",
           "added to both ends of each span (half the gap when two are closer than twice this)"},
      },
      nullptr,
  };
  spec.make = [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
    VadOptions o;
    if (p.get_string("model").empty()) return p.error("model", "needs the VAD model's ONNX file");
    SpeechTimestampOptions& s = o.spans;
    s.threshold = p.get_float("threshold");
    s.neg_threshold = p.get_float("neg_threshold");
    s.min_speech_ms = p.get_float("min_speech_duration_ms");
    s.max_speech_s = p.get_float("max_speech_duration_s");
    s.min_silence_ms = p.get_float("min_silence_duration_ms");
    s.speech_pad_ms = p.get_float("speech_pad_ms");
    if (!(s.threshold > 0 && s.threshold < 1))
      return p.error("threshold", "must be between 0 and 1");
    if (s.neg_threshold >= s.threshold) return p.error("neg_threshold", "must be below threshold");
    for (const char* key : {"min_speech_duration_ms", "max_speech_duration_s",
                            "min_silence_duration_ms", "speech_pad_ms"}) {
      if (p.get_float(key) < 0) return p.error(key, "must be 0 or more");
    }
    if (s.max_speech_s == 0) s.max_speech_s = std::numeric_limits<double>::infinity();
    OnnxSessionOptions session;
    session.intra_op_threads = 1;  // the CPU a worker declares; workers share the session
    auto model = SileroVad::load(p.get_string("model"), session);
    if (!model.is_ok()) return p.error("model", model.status().message());
    o.model = std::move(model).value();
    return std::unique_ptr<Stage>(new VadSegment(std::move(o), context));
  };
  spec.takes = ItemKind::kAudio;
  spec.gives = ItemKind::kAudio;
  return spec;
}

}  // namespace winnow
