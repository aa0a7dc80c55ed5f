// The audio stages on items as the readers make them (io/audio_item.h): duration_filter at its
// edges, resample's FLAC payload and cached samples, audio_bandwidth and wer on it, and audio a
// stage cannot decode (a batch stored for a later pass holds no samples) as an error record
// under on_error: skip and the run's error under fail.
#include <gtest/gtest.h>

#include "core/decoded_audio_cache.h"
#include "io/audio_item.h"
#include "media/audio_samples.h"
#include "speech_audio.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {
namespace {

// Audio items for `paths`, decoded as the readers decode them; `fields` a string field each.
std::unique_ptr<DocBatch> audio_batch(const std::vector<std::string>& paths,
                                      const std::vector<std::pair<std::string, std::string>>& fields = {}) {
  auto batch = std::make_unique<DocBatch>();
  for (size_t i = 0; i < paths.size(); ++i) {
    AudioDecode d = decode_audio_file(paths[i], {});
    EXPECT_TRUE(d.audio) << d.message;
    const size_t row = add_audio_item(*batch, DocKey::make(0, i), paths[i], paths[i], i + 1,
                                      std::move(*d.audio));
    if (i < fields.size()) {
      batch->annotation("text", AnnotationType::kString).set_string(row, fields[i].first);
      batch->annotation("pred_text", AnnotationType::kString).set_string(row, fields[i].second);
    }
  }
  return batch;
}

TEST(AudioStages, DurationFilterKeepsTheLimitsInclusive) {
  TempDir dir;
  for (double seconds : {0.5, 1.0, 2.0, 3.0}) {
    must_run(fmt::format("sox -n -r 8000 -c 1 '{}' synth {} sine 440",
                         dir.file(fmt::format("{}.wav", seconds)), seconds));
  }
  ReasonTable reasons;
  StageContext context(reasons, "duration", 0, 0);
  auto stage = build_stage(duration_filter_spec(), {{"min_seconds", 1.0}, {"max_seconds", 2.0}},
                           context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = audio_batch({dir.file("0.5.wav"), dir.file("1.wav"), dir.file("2.wav"),
                            dir.file("3.wav")});
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  EXPECT_EQ(reasons_of(*batch, reasons),
            (std::vector<std::string>{"duration/too_short", "kept", "kept", "duration/too_long"}));
  EXPECT_DOUBLE_EQ(batch->drop_score(0), 0.5);
  auto bad = build_stage(duration_filter_spec(), {{"min_seconds", 2.0}, {"max_seconds", 1.0}},
                         context);
  EXPECT_FALSE(bad.is_ok());
}

TEST(AudioStages, ResampleMakesFlacAndLaterStagesMeasureIt) {
  TempDir dir;
  speak(dir.file("s.wav"), "the quick brown fox");
  sox(dir.file("s.wav"), dir.file("s.flac"), "-r 44100 -c 2");
  ReasonTable reasons;
  StageContext c1(reasons, "resample", 0, 0), c2(reasons, "bandwidth", 1, 0), c3(reasons, "wer", 2, 0);
  auto resample = build_stage(resample_spec(), {{"sample_rate", int64_t{8000}}}, c1);
  auto bandwidth = build_stage(audio_bandwidth_spec(), {{"min_bandwidth", int64_t{3000}}}, c2);
  auto wer = build_stage(wer_spec(), {{"max_wer", 0.3}}, c3);
  ASSERT_TRUE(resample.is_ok() && bandwidth.is_ok() && wer.is_ok());
  auto batch = audio_batch({dir.file("s.flac"), dir.file("s.wav"), dir.file("s.wav")},
                           {{"The quick brown fox!", "the quick brown fox"},
                            {"The quick brown fox", "the slow brown cat"},
                            {"", "anything"}});
  ASSERT_TRUE((*resample)->process(*batch).is_ok());
  const Payload* payload = batch->payload(0);
  ASSERT_TRUE(payload && payload->in_memory());
  EXPECT_EQ(payload->media_type, "audio/flac");
  EXPECT_EQ(payload->path, dir.file("s.flac"));  // the source, for rejected/
  AudioDecode flac = decode_audio_bytes(payload->bytes(), {});
  ASSERT_TRUE(flac.audio) << flac.message;
  EXPECT_EQ(flac.audio->sample_rate, 8000);
  EXPECT_EQ(flac.audio->channels, 1);
  const AudioSamples* cached = batch->cache<DecodedAudioCache>().find(batch->key(0));
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(cached->sample_rate, 8000);
  EXPECT_EQ(cached->frames(), flac.audio->frames());
  EXPECT_EQ(batch->find_annotation("sample_rate")->int_at(0), 8000);
  EXPECT_EQ(batch->find_annotation("channels")->int_at(0), 1);
  ASSERT_TRUE((*bandwidth)->process(*batch).is_ok());
  // At 8 kHz speech reaches its Nyquist frequency, 4 kHz, at most.
  EXPECT_LE(batch->find_annotation("bandwidth")->int_at(0), 4000);
  EXPECT_GT(batch->find_annotation("bandwidth")->int_at(0), 3000);
  ASSERT_TRUE((*wer)->process(*batch).is_ok());
  EXPECT_EQ(reasons_of(*batch, reasons), (std::vector<std::string>{"kept", "wer/high_wer", "kept"}));
  EXPECT_DOUBLE_EQ(batch->find_annotation("wer")->float_at(0), 0.0);
  EXPECT_DOUBLE_EQ(batch->find_annotation("wer")->float_at(1), 0.5);  // 2 of 4 words
  EXPECT_FALSE(batch->find_annotation("wer")->has(2));               // empty reference
  EXPECT_EQ(batch->stage_counts["wer/empty_reference"], 1u);
}

// NeMo's ComputeWERStage normalises both texts before it compares them ("3" and "three" are the
// same word); normalize: false compares them as written.
TEST(AudioStages, WerReadsNumbersAsNemosNormaliserDoes) {
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"I have 3 cats.", "i have three cats"},
      {"It cost $5.50 in 1995", "it cost five dollars fifty cents in nineteen ninety five"},
      {"50% of the 2nd half", "fifty percent of the second half"},
      {"I have 3 cats", "I have four cats"},
  };
  auto batch_of = [&] {
    auto batch = std::make_unique<DocBatch>();
    for (size_t i = 0; i < texts.size(); ++i) {
      batch->add_item(DocKey::make(0, i), ItemKind::kAudio, "a.wav",
                      Payload::of_bytes("", "audio/wav"), i + 1);
      const size_t row = batch->size() - 1;
      batch->annotation("text", AnnotationType::kString).set_string(row, texts[i].first);
      batch->annotation("pred_text", AnnotationType::kString).set_string(row, texts[i].second);
    }
    return batch;
  };
  ReasonTable reasons;
  StageContext context(reasons, "wer", 0, 0);
  auto spoken = build_stage(wer_spec(), {}, context);
  auto written = build_stage(wer_spec(), {{"normalize", false}}, context);
  ASSERT_TRUE(spoken.is_ok() && written.is_ok());
  auto a = batch_of(), b = batch_of();
  ASSERT_TRUE((*spoken)->process(*a).is_ok());
  ASSERT_TRUE((*written)->process(*b).is_ok());
  const AnnotationColumn* wer = a->find_annotation("wer");
  const AnnotationColumn* cer = a->find_annotation("cer");
  EXPECT_DOUBLE_EQ(wer->float_at(0), 0.0);
  EXPECT_DOUBLE_EQ(cer->float_at(0), 0.0);
  EXPECT_DOUBLE_EQ(wer->float_at(1), 0.0);
  EXPECT_DOUBLE_EQ(wer->float_at(2), 0.0);
  EXPECT_DOUBLE_EQ(wer->float_at(3), 0.25);
  EXPECT_DOUBLE_EQ(b->find_annotation("wer")->float_at(0), 0.25);   // "3" against "three"
  // "it cost $5 50 in 1995": 3 of its 6 words substituted, 4 words inserted.
  EXPECT_DOUBLE_EQ(b->find_annotation("wer")->float_at(1), 7.0 / 6.0);
  // "50%" and "2nd" substituted, "percent" inserted, of 5 words.
  EXPECT_DOUBLE_EQ(b->find_annotation("wer")->float_at(2), 0.6);
  EXPECT_DOUBLE_EQ(b->find_annotation("wer")->float_at(3), 0.25);
}

TEST(AudioStages, AudioThatCannotBeDecodedIsAnErrorRecordOrTheRunsError) {
  TempDir dir;
  ReasonTable reasons;
  auto stored_batch = [] {  // no cached samples, bytes that are no audio
    auto batch = std::make_unique<DocBatch>();
    batch->add_item(DocKey::make(0, 0), ItemKind::kAudio, "bad.flac",
                    Payload::of_bytes("fLaC but nothing else", "audio/flac"), 1);
    return batch;
  };
  StageContext skip(reasons, "bandwidth", 0, 0);
  skip.set_skip_errors(true);
  auto lenient = build_stage(audio_bandwidth_spec(), {}, skip);
  ASSERT_TRUE(lenient.is_ok());
  auto batch = stored_batch();
  ASSERT_TRUE((*lenient)->process(*batch).is_ok());
  EXPECT_EQ(reason_of(*batch, reasons, 0), "bandwidth/undecodable_audio");
  EXPECT_EQ(reasons.at(batch->drop_reason(0)).outcome, RowOutcome::kError);
  StageContext fail(reasons, "duration", 1, 0);
  auto strict = build_stage(duration_filter_spec(), {}, fail);
  ASSERT_TRUE(strict.is_ok());
  auto again = stored_batch();
  Status status = (*strict)->process(*again);
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("audio 'bad.flac' cannot be decoded"), std::string::npos);
}

}  // namespace
}  // namespace winnow::testing
