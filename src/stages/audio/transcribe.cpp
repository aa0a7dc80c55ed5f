// transcribe: each audio item's transcript by a CTC speech recogniser exported to ONNX
// (models/ctc_asr_model.h), as NeMo Curator's InferenceAsrNemoStage gives NeMo's CTC models'
// greedy transcripts: the audio mono at the model's rate (resampled by libswresample when it is
// not), log-mel features as the model's config says, items of similar length batched together
// (models/length_batcher.h, longest first, under a budget of frames with the padding counted),
// greedy CTC decoding. The transcript goes to `field` (NeMo's pred_text), where `wer` reads it.
#include "media/audio_samples.h"
#include "media/log_mel.h"
#include "models/ctc_asr_model.h"
#include "models/length_batcher.h"
#include "stages/audio/nemo_asr_config.h"
#include "stages/audio/undecodable_audio.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

struct TranscribeOptions {
  std::shared_ptr<const CtcAsrModel> model;
  std::shared_ptr<const LogMel> mel;
  std::string field;
  BatchPlanOptions batches;
};

class Transcribe final : public Stage {
 public:
  Transcribe(TranscribeOptions options, StageContext& context)
      : o_(std::move(options)), undecodable_(context) {}

  Status process(DocBatch& batch) override {
    std::vector<size_t> rows;
    std::vector<MelFeatures> features;
    WINNOW_RETURN_IF_ERROR(featurise(batch, rows, features));
    std::vector<size_t> lengths;
    for (const MelFeatures& f : features) lengths.push_back(size_t(f.frames));
    auto& field = batch.annotation(o_.field, AnnotationType::kString);
    std::vector<std::vector<int>> ids;
    for (const std::vector<size_t>& plan : plan_batches(lengths, o_.batches)) {
      std::vector<CtcFeatures> group;
      for (size_t k : plan) group.push_back({features[k].values, features[k].frames});
      WINNOW_RETURN_IF_ERROR(o_.model->decode(group, ids));
      for (size_t g = 0; g < plan.size(); ++g) {
        field.set_string(rows[plan[g]], o_.model->text(ids[g]));
      }
    }
    return Status::ok();
  }

 private:
  // Each kept item's features; the ones that do not decode (or resample) reported.
  Status featurise(DocBatch& batch, std::vector<size_t>& rows,
                   std::vector<MelFeatures>& features) const {
    const int rate = o_.mel->options().sample_rate;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string why;
      const AudioSamples* audio = audio_samples(batch, i, &why);
      std::vector<float> mono = audio ? mono_samples(*audio) : std::vector<float>();
      if (audio && audio->sample_rate != rate) {
        AudioSamples one{std::move(mono), audio->sample_rate, 1, audio->codec, audio->container};
        AudioDecode resampled = resample_audio(one, {rate, true});
        if (resampled.audio)
          mono = std::move(resampled.audio->samples);
        else
          why = resampled.message, audio = nullptr;
      }
      if (!audio) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, why));
        continue;
      }
      rows.push_back(i);
      features.push_back(o_.mel->compute(mono));
    }
    return Status::ok();
  }

  TranscribeOptions o_;
  UndecodableAudio undecodable_;
};

}  // namespace

StageSpec transcribe_spec() {
  StageSpec spec{
      "transcribe",
      "Each audio item's transcript by a CTC speech recogniser exported to ONNX as NeMo exports "
      "its CTC models (log-mel features [batch, n_mels, frames] and their lengths in, per-frame "
      "scores over the vocabulary and the blank out), with the model's config "
      "(model_config.yaml: the preprocessor's log-mel settings and decoder.vocabulary): the "
      "audio mono at the model's rate, NeMo's log-mel features, items of similar length "
      "batched, greedy CTC decoding (best token per frame, repeats collapsed, blanks dropped). "
      "The transcript goes to `field`. Never drops; audio that cannot be decoded is an error "
      "record (undecodable_audio).",
      {
          {"model", ParamType::kString, "", "the CTC model (ONNX)"},
          {"config", ParamType::kString, "", "the model's NeMo config (model_config.yaml)"},
          {"field", ParamType::kString, "pred_text", "where the transcript goes"},
          {"max_batch_size", ParamType::kInt, "16", "items per model run"},
          {"max_batch_frames", ParamType::kInt, "60000",
           "feature frames per model run, padding counted (10 ms each at NeMo's stride)"},
      },
      nullptr,
  };
  spec.make = [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
    TranscribeOptions o;
    if (p.get_string("model").empty()) return p.error("model", "needs the CTC model's ONNX file");
    if (p.get_string("config").empty()) return p.error("config", "needs the model's config");
    o.field = p.get_string("field");
    if (o.field.empty()) return p.error("field", "must not be empty");
    if (p.get_int("max_batch_size") < 1) return p.error("max_batch_size", "must be 1 or more");
    if (p.get_int("max_batch_frames") < 1) return p.error("max_batch_frames", "must be 1 or more");
    o.batches.max_batch_size = size_t(p.get_int("max_batch_size"));
    o.batches.max_batch_tokens = size_t(p.get_int("max_batch_frames"));
    o.batches.window = 0;
    OnnxSessionOptions session;
    session.intra_op_threads = 1;  // the CPU a worker declares; workers share the session
    auto config = read_nemo_asr_config(p.get_string("config"));
    if (!config.is_ok()) return p.error("config", config.status().message());
    o.mel = std::make_shared<const LogMel>(config->mel);
    auto model = CtcAsrModel::load(p.get_string("model"), std::move(config->vocabulary),
                                   config->mel.n_mels, config->subsampling, session);
    if (!model.is_ok()) return p.error("model", model.status().message());
    o.model = std::move(model).value();
    return std::unique_ptr<Stage>(new Transcribe(std::move(o), context));
  };
  spec.takes = ItemKind::kAudio;
  return spec;
}

}  // namespace winnow
