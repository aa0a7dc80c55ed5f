#pragma once
// Real tokenizer files (gemma3, llama3, qwen3; scripts/fetch_tokenizer_files) for the tokenizer
// tests, fetched on first use when scripts/setup has not fetched them yet.
#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_support.h"

namespace winnow::testing {

// The folder holding NAME/tokenizer.json, or "" when it is absent and cannot be fetched.
inline std::string tokenizer_files_dir() {
  const char* cache = std::getenv("WINNOW_CACHE");
  std::string root = (cache ? cache : std::string(std::getenv("HOME")) + "/.cache/winnow") +
                     "/tokenizer-files-3.7.2";
  auto present = [&] {
    for (const char* name : {"gemma3", "llama3", "qwen3"}) {
      if (!std::filesystem::exists(root + "/" + name + "/tokenizer.json")) return false;
    }
    return true;
  };
  if (!present()) {
    std::string out;
    run_command(kSource + "/scripts/fetch_tokenizer_files", &out);
  }
  return present() ? root : "";
}

}  // namespace winnow::testing
