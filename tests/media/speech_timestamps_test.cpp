// speech_timestamps against speech_timestamps_reference.py (Silero's get_speech_timestamps from
// the probabilities on, in Python) on seeded random probability sequences: runs of speech and
// pause of random lengths with noise around the thresholds, under settings that exercise every
// rule (short spans left out, pauses shorter than min_silence bridged, long speech cut at its
// longest or last pause or, with none, where it reaches max_speech_s, padding by half the gap),
// and on a hand-worked case.
#include "media/speech_timestamps.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "test_support.h"

namespace winnow::testing {
namespace {

struct Case {
  int64_t length;
  int rate, window;
  SpeechTimestampOptions options;
  std::vector<float> probs;
};

std::string spans_text(const std::vector<SampleSpan>& spans) {
  std::string out;
  for (const SampleSpan& s : spans) {
    if (!out.empty()) out += ' ';
    out += std::to_string(s.start) + ' ' + std::to_string(s.end);
  }
  return out;
}

// Runs of speech (high) and pause (low), each 1 to `max_run` windows, with some windows of
// the other kind and some between the two thresholds mixed in.
std::vector<float> random_probs(std::mt19937& rng, size_t windows, int max_run) {
  std::uniform_int_distribution<int> run(1, max_run);
  std::uniform_real_distribution<float> unit(0, 1);
  std::vector<float> probs;
  bool speech = unit(rng) < 0.5;
  while (probs.size() < windows) {
    for (int k = run(rng); k > 0 && probs.size() < windows; --k) {
      float p = speech ? 0.6f + 0.4f * unit(rng) : 0.3f * unit(rng);
      if (unit(rng) < 0.08) p = unit(rng);  // a stray window anywhere
      probs.push_back(p);
    }
    speech = !speech;
  }
  return probs;
}

TEST(SpeechTimestamps, MatchesSilerosAlgorithmInPython) {
  std::mt19937 rng(39);
  std::vector<Case> cases;
  for (int n = 0; n < 300; ++n) {
    Case c;
    c.rate = n % 3 == 0 ? 8000 : 16000;
    c.window = c.rate == 16000 ? 512 : 256;
    const size_t windows = 20 + rng() % 400;
    c.length = int64_t(windows - 1) * c.window + 1 + int64_t(rng() % c.window);
    c.probs = random_probs(rng, windows, 4 + int(rng() % 30));
    SpeechTimestampOptions& o = c.options;
    o.threshold = 0.4 + 0.05 * (rng() % 5);
    o.neg_threshold = n % 4 == 0 ? 0.2 : -1;
    o.min_speech_ms = double(rng() % 400);
    o.max_speech_s = n % 2 == 0 ? 0.5 + 0.25 * (rng() % 8) : 0;
    o.min_silence_ms = double(rng() % 300);
    o.speech_pad_ms = double(rng() % 200);
    o.use_max_possible_silence = n % 5 != 0;
    cases.push_back(std::move(c));
  }
  TempDir dir;
  {
    std::ofstream out(dir.file("cases.txt"));
    out.precision(17);  // every float and double read back exactly
    for (const Case& c : cases) {
      const auto& o = c.options;
      out << c.length << ' ' << c.rate << ' ' << c.window << ' ' << o.threshold << ' '
          << o.neg_threshold << ' ' << o.min_speech_ms << ' ' << o.max_speech_s << ' '
          << o.min_silence_ms << ' ' << o.speech_pad_ms << ' ' << o.use_max_possible_silence
          << " |";
      for (float p : c.probs) out << ' ' << p;
      out << '\n';
    }
  }
  std::string output;
  ASSERT_EQ(run_command("/usr/bin/python3 " + kSource +
                            "/tests/media/speech_timestamps_reference.py " + dir.file("cases.txt"),
                        &output),
            0)
      << output;
  std::vector<std::string> expected = split_lines(output);
  ASSERT_EQ(expected.size(), cases.size());
  size_t splits = 0, spans = 0;
  for (size_t n = 0; n < cases.size(); ++n) {
    Case c = cases[n];
    if (c.options.max_speech_s == 0) {
      c.options.max_speech_s = std::numeric_limits<double>::infinity();
    } else {
      ++splits;
    }
    auto got = speech_timestamps(c.probs, c.length, c.rate, c.window, c.options);
    spans += got.size();
    EXPECT_EQ(spans_text(got), expected[n]) << "case " << n;
  }
  EXPECT_GT(spans, cases.size());  // the cases do find speech, several spans each on average
  EXPECT_GT(splits, 0u);
}

// By hand, 16 kHz, windows of 512: speech in windows 2-9 (a one-window dip at 5, shorter than
// min_silence, bridged), a pause of windows 10-19, speech in 20-21 (1024 samples, under
// min_speech 100 ms = 1600: left out), then silence to the end.
TEST(SpeechTimestamps, HandWorkedCase) {
  std::vector<float> probs(30, 0.05f);
  for (int i = 2; i <= 9; ++i) probs[i] = 0.9f;
  probs[5] = 0.1f;
  probs[20] = probs[21] = 0.9f;
  SpeechTimestampOptions o;
  o.min_speech_ms = 100;
  o.min_silence_ms = 64;  // 1024 samples: two windows
  o.speech_pad_ms = 10;   // 160 samples
  auto spans = speech_timestamps(probs, 30 * 512, 16000, 512, o);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].start, 2 * 512 - 160);
  EXPECT_EQ(spans[0].end, 10 * 512 + 160);  // the pause begins at window 10
}

}  // namespace
}  // namespace winnow::testing
