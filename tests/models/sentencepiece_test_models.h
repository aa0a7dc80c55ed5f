#pragma once
// SentencePiece models trained by the tests themselves (no tokenizer.model of a published model
// can be had offline) on real text: Debian's license texts (English) and a German fortune file,
// with one training thread and no input shuffling, so the same pieces come out every time.
// The reference for every count is the `spm_encode` command (from Debian's sentencepiece
// package), run on the same model and text: an independent encoder, not our code.
#include <gtest/gtest.h>
#include <sentencepiece_trainer.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

// Real text files, read in a fixed order.
inline std::vector<std::string> sentencepiece_training_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/share/common-licenses")) {
    if (entry.is_regular_file() && !entry.is_symlink()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  files.push_back("/usr/share/games/fortunes/de/anekdoten");
  return files;
}

// Trains a model of `type` (unigram or bpe) into `dir`; returns the .model path. `extra` is
// appended to the trainer's flags (e.g. "--bos_id=-1"). About a second.
inline std::string train_sentencepiece_model(const TempDir& dir, const std::string& type,
                                             int vocab_size = 2000, const std::string& extra = "") {
  std::string input;
  for (const auto& file : sentencepiece_training_files())
    input += (input.empty() ? "" : ",") + file;
  std::string prefix = dir.file("spm-" + type);
  auto status = sentencepiece::SentencePieceTrainer::Train(
      "--input=" + input + " --model_prefix=" + prefix + " --model_type=" + type +
      " --vocab_size=" + std::to_string(vocab_size) +
      " --num_threads=1 --shuffle_input_sentence=false --minloglevel=2 " + extra);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return prefix + ".model";
}

// Lines of real text (no '\r', no '\n'), from `path`, empty lines left out.
inline std::vector<std::string> text_lines(const std::string& path, size_t limit = 1u << 30) {
  std::vector<std::string> lines;
  for (std::string& line : split_lines(read_file(path))) {
    line.erase(std::remove(line.begin(), line.end(), '\r'), line.end());
    if (line.empty()) continue;
    lines.push_back(std::move(line));
    if (lines.size() == limit) break;
  }
  return lines;
}

// The ids `spm_encode` gives each of `lines` (each must hold no newline), in order.
inline std::vector<std::vector<int>> spm_encode_ids(const std::string& model,
                                                    const std::vector<std::string>& lines) {
  TempDir dir;
  std::string body;
  for (const auto& line : lines) body += line + "\n";
  write_file(dir.file("in.txt"), body);
  std::string command = "spm_encode --minloglevel=2 --model=" + model +
                        " --output_format=id --input=" + dir.file("in.txt") +
                        " --output=" + dir.file("out.txt");
  std::string output;
  int rc = run_command(command, &output);
  EXPECT_EQ(rc, 0) << command << "\n" << output;
  std::vector<std::vector<int>> ids;
  // Each input line gives one output line, empty for a text with no piece.
  std::string text = read_file(dir.file("out.txt"));
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::vector<int> row;
    for (int id; words >> id;) row.push_back(id);
    ids.push_back(std::move(row));
  }
  EXPECT_EQ(ids.size(), lines.size());
  return ids;
}

// The two models the tests share, each trained on first use (ctest runs every test in its own
// process, so a test trains only what it uses): a unigram model (SentencePiece's default, as
// T5's) and a BPE model with byte fallback and no BOS piece (Llama-style pieces).
inline const TempDir& shared_model_dir() {
  static TempDir dir;
  return dir;
}
inline const std::string& unigram_model() {
  static const std::string path = train_sentencepiece_model(shared_model_dir(), "unigram");
  return path;
}
inline const std::string& bpe_model() {
  static const std::string path = train_sentencepiece_model(shared_model_dir(), "bpe", 2000,
                                                            "--byte_fallback=true --bos_id=-1");
  return path;
}

inline std::vector<size_t> spm_encode_counts(const std::string& model,
                                             const std::vector<std::string>& lines) {
  std::vector<size_t> counts;
  for (const auto& row : spm_encode_ids(model, lines)) counts.push_back(row.size());
  return counts;
}

}  // namespace winnow::testing
