// Writes the synthetic video corpus examples/video.yaml runs on (tools/synthetic_video.h):
//   build/make_video_corpus build/video_corpus
#include <cstdio>
#include <filesystem>
#include <string>

#include "synthetic_video.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  std::string error;
  if (!winnow::testing::write_video_corpus(argv[1], &error)) {
    std::fprintf(stderr, "make_video_corpus: %s\n", error.c_str());
    return 1;
  }
  return 0;
}
