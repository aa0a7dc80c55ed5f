#pragma once
// Speech for the audio tests, made at test time: espeak-ng speaks known sentences (Debian's
// espeak-ng), sox converts, mixes with silence and noise, and band-limits (Debian's sox), and
// ffmpeg's command line writes the formats sox lacks (mp3, m4a, opus).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace winnow::testing {

// Runs a shell command, failing the test (with its output) when it fails.
inline void must_run(const std::string& command) {
  std::string output;
  ASSERT_EQ(run_command(command + " 2>&1", &output), 0) << command << "\n" << output;
}

// `sentence` spoken by espeak-ng, as a 22.05 kHz mono 16-bit WAV at `path`.
inline void speak(const std::string& path, const std::string& sentence) {
  must_run(fmt::format("espeak-ng -w '{}' '{}'", path, sentence));
}

// `from` converted or processed by sox: `sox from [out_options] to [effects]`.
inline void sox(const std::string& from, const std::string& to, const std::string& out_options,
                const std::string& effects = "") {
  must_run(fmt::format("sox '{}' {} '{}' {}", from, out_options, to, effects));
}

// `from` re-encoded by the ffmpeg command (the format from `to`'s name).
inline void ffmpeg_convert(const std::string& from, const std::string& to) {
  must_run(fmt::format("ffmpeg -nostdin -loglevel error -y -i '{}' '{}'", from, to));
}

// The length sox reads of an audio file, in seconds.
inline double soxi_seconds(const std::string& path) {
  std::string output;
  EXPECT_EQ(run_command(fmt::format("soxi -D '{}'", path), &output), 0) << output;
  return std::stod(output);
}

}  // namespace winnow::testing
