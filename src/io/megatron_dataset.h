#pragma once
// Megatron-LM's indexed dataset (megatron/core/datasets/indexed_dataset.py), the pair a
// Megatron or NeMo pretraining run reads its tokens from:
//   <prefix>.bin  every sequence's token ids back to back, little-endian, in one dtype;
//   <prefix>.idx  b"MMIDIDX\x00\x00", version 1 (<Q), the dtype's code (<B), the sequence count
//                 (<Q), the document count (<Q), then each sequence's length in tokens (int32),
//                 each sequence's byte offset in .bin (int64), and the document indices (int64):
//                 0, then after each document the number of sequences so far.
// winnow writes one sequence per document (Megatron's preprocess_data.py without sentence
// splitting); a document with no token is a document with no sequence, as there.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "io/atomic_file.h"

namespace winnow {

// Megatron's DType codes for the two token types it chooses between.
enum class MegatronDtype : uint8_t { kInt32 = 4, kUint16 = 8 };

// uint16 for a vocabulary of fewer than 65,500 ids, else int32 (Megatron's optimal_dtype).
MegatronDtype megatron_dtype_for_vocabulary(uint64_t vocabulary_size);
size_t megatron_dtype_bytes(MegatronDtype dtype);
std::string_view megatron_dtype_name(MegatronDtype dtype);  // "uint16" or "int32"

// Appends `ids` to `out` as little-endian values of `dtype`. Returns the first id that does not
// fit (and appends nothing), or nullptr.
const int64_t* append_megatron_tokens(std::string& out, std::span<const int64_t> ids,
                                      MegatronDtype dtype);

// The whole .idx file for sequences of `lengths` tokens and these document indices.
std::string megatron_index_bytes(MegatronDtype dtype, std::span<const int32_t> lengths,
                                 std::span<const int64_t> document_indices);

// Writes one .bin/.idx pair: the .bin under a temporary name as documents arrive, then, at
// commit(), renamed into place and followed by its .idx (written whole, atomically). A reader
// that sees the .idx sees a whole .bin; a pair never committed leaves nothing behind.
class MegatronDatasetWriter {
 public:
  // "<prefix>.bin" -> "<prefix>.idx".
  static std::string index_path(std::string_view bin_path);
  static Result<std::unique_ptr<MegatronDatasetWriter>> create(const std::string& bin_path,
                                                               MegatronDtype dtype);

  // Appends documents whose token bytes lie back to back in `bytes`, `sizes[i]` bytes each (a
  // multiple of the dtype's size; 0: a document with no sequence).
  Status add_documents(std::string_view bytes, std::span<const uint64_t> sizes);
  Status commit();

 private:
  MegatronDatasetWriter(AtomicFile bin, MegatronDtype dtype)
      : bin_(std::move(bin)), dtype_(dtype) {}

  AtomicFile bin_;
  MegatronDtype dtype_;
  std::vector<int32_t> lengths_;
  std::vector<int64_t> document_indices_{0};
};

}  // namespace winnow
