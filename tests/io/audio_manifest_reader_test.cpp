// AudioManifestReader and AudioFileReader: good audio becomes items with their decoded facts,
// the manifest's text and other fields, and their samples cached for the stages; every bad line
// and bad file is an error record naming the manifest, its line and the file (the pipeline
// test, tests/cli/audio_example_test.cpp, runs them under both on_error policies).
#include "io/audio_manifest_reader.h"

#include <gtest/gtest.h>

#include "core/decoded_audio_cache.h"
#include "io/audio_file_reader.h"
#include "speech_audio.h"

namespace winnow::testing {
namespace {

// Every batch of a reader until its end marker, joined into the first.
template <class Reader>
std::unique_ptr<DocBatch> read_all(Reader& reader, size_t* batches = nullptr) {
  std::vector<std::unique_ptr<DocBatch>> all;
  for (auto b = reader.next(); b && !b->end_of_shard; b = reader.next()) all.push_back(std::move(b));
  if (batches) *batches = all.size();
  EXPECT_FALSE(all.empty());
  return all.empty() ? std::make_unique<DocBatch>() : std::move(all.front());
}

TEST(AudioManifestReader, LinesBecomeItemsWithTheirFieldsOrErrorRecords) {
  TempDir dir;
  speak(dir.file("a.wav"), "the quick brown fox");
  must_run("mkdir -p " + dir.file("sub"));
  sox(dir.file("a.wav"), dir.file("sub/b.flac"), "-r 44100 -c 2");
  const std::string wav = read_file(dir.file("a.wav"));
  write_file(dir.file("empty.wav"), "");
  write_file(dir.file("cut.wav"), wav.substr(0, wav.size() / 2));
  must_run(fmt::format("sox -n -r 16000 -c 1 '{}' trim 0 0", dir.file("zero.wav")));
  write_file(dir.file("m.jsonl"),
             "{\"audio_filepath\": \"a.wav\", \"duration\": 99, \"text\": \"The fox.\", "
             "\"speaker\": 7, \"tags\": [\"x\", 1], \"clean\": true}\n"
             "\n"
             "{\"audio_filepath\": \"missing.wav\"}\n"
             "{\"audio_filepath\": \"empty.wav\"}\n"
             "{\"audio_filepath\": \"cut.wav\"}\n"
             "{\"audio_filepath\": \"zero.wav\"}\n"
             "{\"text\": \"no path\"}\n"
             "not json\n"
             "{\"audio_filepath\": \"sub/b.flac\", \"text\": \"second\", \"speaker\": \"A\"}\n");
  AudioManifestReader reader(dir.file("m.jsonl"), 2, 100);
  auto batch = read_all(reader);
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->kind(0), ItemKind::kAudio);
  EXPECT_EQ(batch->id(0), "a.wav");
  EXPECT_EQ(batch->payload(0)->path, dir.file("a.wav"));
  EXPECT_EQ(batch->text(0), "The fox.");
  auto f = [&](const char* name) { return batch->find_annotation(name); };
  EXPECT_NEAR(f("duration")->float_at(0), soxi_seconds(dir.file("a.wav")), 1e-3);  // not 99
  EXPECT_EQ(f("sample_rate")->int_at(0), 22050);
  EXPECT_EQ(f("channels")->int_at(0), 1);
  EXPECT_EQ(f("text")->string_at(0), "The fox.");
  EXPECT_DOUBLE_EQ(f("speaker")->float_at(0), 7);
  EXPECT_EQ(f("tags")->string_at(0), "[\"x\",1]");
  EXPECT_EQ(f("clean")->string_at(0), "true");
  EXPECT_NE(batch->cache<DecodedAudioCache>().find(batch->key(0)), nullptr);
  EXPECT_EQ(batch->blank_lines, 1u);
  const std::vector<std::pair<uint64_t, std::string>> expected = {
      {3, "unreadable_file"},  {4, "empty_file"},       {5, "undecodable_audio"},
      {6, "empty_audio"},      {7, "missing_audio_filepath"}, {8, "malformed_json"},
      {9, "not_an_object"}};  // "speaker" a string after a number in the same batch
  ASSERT_EQ(batch->errors.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const InputErrorRecord& e = batch->errors[i];
    EXPECT_EQ(e.line, expected[i].first);
    EXPECT_EQ(input_error_name(e.kind), expected[i].second) << e.message;
    const std::string where = fmt::format("{}:{}: ", dir.file("m.jsonl"), e.line);
    EXPECT_EQ(e.message.rfind(where, 0), 0u) << e.message;
  }
  EXPECT_NE(batch->errors[0].message.find(dir.file("missing.wav")), std::string::npos);
}

TEST(AudioManifestReader, BatchesHoldBatchRecordsLines) {
  TempDir dir;
  speak(dir.file("a.wav"), "one");
  std::string manifest;
  for (int i = 0; i < 5; ++i) manifest += "{\"audio_filepath\": \"a.wav\"}\n";
  write_file(dir.file("m.jsonl"), manifest);
  AudioManifestReader reader(dir.file("m.jsonl"), 0, 2);
  size_t batches = 0;
  read_all(reader, &batches);
  EXPECT_EQ(batches, 3u);
}

TEST(AudioFileReader, AFileIsOneItemOrAnErrorNamingIt) {
  TempDir dir;
  speak(dir.file("a.wav"), "hello");
  ffmpeg_convert(dir.file("a.wav"), dir.file("a.opus"));
  AudioFileReader reader(dir.file("a.opus"), 4);
  auto batch = read_all(reader);
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->id(0), "a.opus");
  EXPECT_EQ(batch->key(0), DocKey::make(4, 0));
  EXPECT_EQ(batch->payload(0)->media_type, "audio/opus");
  EXPECT_EQ(batch->find_annotation("audio_codec")->string_at(0), "opus");
  write_file(dir.file("bad.mp3"), "not audio at all, just text\n");
  AudioFileReader bad(dir.file("bad.mp3"), 0);
  auto refused = read_all(bad);
  EXPECT_EQ(refused->size(), 0u);
  ASSERT_EQ(refused->errors.size(), 1u);
  EXPECT_EQ(input_error_name(refused->errors[0].kind), "unknown_media");
  EXPECT_EQ(refused->errors[0].message.rfind(dir.file("bad.mp3") + ": ", 0), 0u);
}

}  // namespace
}  // namespace winnow::testing
