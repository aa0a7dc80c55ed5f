#include "io/megatron_dataset.h"

#include <limits>

namespace winnow {

namespace {

constexpr std::string_view kIndexMagic("MMIDIDX\0\0", 9);
constexpr uint64_t kIndexVersion = 1;
// Megatron's threshold, a little under 65,536: the last ids of a uint16 range stay free.
constexpr uint64_t kUint16Vocabulary = 65500;

// Little-endian whatever the host, as numpy's "<" types that Megatron's files are.
void append_le(std::string& out, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

MegatronDtype megatron_dtype_for_vocabulary(uint64_t vocabulary_size) {
  return vocabulary_size < kUint16Vocabulary ? MegatronDtype::kUint16 : MegatronDtype::kInt32;
}

size_t megatron_dtype_bytes(MegatronDtype dtype) { return dtype == MegatronDtype::kUint16 ? 2 : 4; }

std::string_view megatron_dtype_name(MegatronDtype dtype) {
  return dtype == MegatronDtype::kUint16 ? "uint16" : "int32";
}

const int64_t* append_megatron_tokens(std::string& out, std::span<const int64_t> ids,
                                      MegatronDtype dtype) {
  const int64_t max = dtype == MegatronDtype::kUint16 ? std::numeric_limits<uint16_t>::max()
                                                      : std::numeric_limits<int32_t>::max();
  for (const int64_t& id : ids) {
    if (id < 0 || id > max) return &id;
  }
  const size_t width = megatron_dtype_bytes(dtype);
  size_t at = out.size();
  out.resize(at + ids.size() * width);
  auto* p = reinterpret_cast<unsigned char*>(out.data() + at);
  for (int64_t id : ids) {
    const auto value = static_cast<uint32_t>(id);
    for (size_t b = 0; b < width; ++b) *p++ = static_cast<unsigned char>(value >> (8 * b));
  }
  return nullptr;
}

std::string megatron_index_bytes(MegatronDtype dtype, std::span<const int32_t> lengths,
                                 std::span<const int64_t> document_indices) {
  std::string out;
  out.reserve(34 + lengths.size() * 12 + document_indices.size() * 8);
  out += kIndexMagic;
  append_le(out, kIndexVersion, 8);
  append_le(out, static_cast<uint8_t>(dtype), 1);
  append_le(out, lengths.size(), 8);
  append_le(out, document_indices.size(), 8);
  for (int32_t length : lengths) append_le(out, static_cast<uint32_t>(length), 4);
  const uint64_t width = megatron_dtype_bytes(dtype);
  uint64_t pointer = 0;
  for (int32_t length : lengths) {
    append_le(out, pointer, 8);
    pointer += static_cast<uint64_t>(length) * width;
  }
  for (int64_t index : document_indices) append_le(out, static_cast<uint64_t>(index), 8);
  return out;
}

std::string MegatronDatasetWriter::index_path(std::string_view bin_path) {
  std::string_view prefix = bin_path;
  if (prefix.ends_with(".bin")) prefix.remove_suffix(4);
  return std::string(prefix) + ".idx";
}

Result<std::unique_ptr<MegatronDatasetWriter>> MegatronDatasetWriter::create(
    const std::string& bin_path, MegatronDtype dtype) {
  auto file = AtomicFile::create(bin_path);
  if (!file.is_ok()) return file.status();
  return std::unique_ptr<MegatronDatasetWriter>(
      new MegatronDatasetWriter(std::move(file).value(), dtype));
}

Status MegatronDatasetWriter::add_documents(std::string_view bytes,
                                            std::span<const uint64_t> sizes) {
  const uint64_t width = megatron_dtype_bytes(dtype_);
  for (uint64_t size : sizes) {
    const uint64_t tokens = size / width;
    if (size % width != 0 || tokens > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
      return Status::errorf("{}: a document of {} bytes cannot be one {} sequence",
                            bin_.final_path(), size, megatron_dtype_name(dtype_));
    }
    if (tokens > 0) lengths_.push_back(static_cast<int32_t>(tokens));
    document_indices_.push_back(static_cast<int64_t>(lengths_.size()));
  }
  return bin_.write(bytes);
}

Status MegatronDatasetWriter::commit() {
  WINNOW_RETURN_IF_ERROR(bin_.commit());
  return AtomicFile::write_whole(index_path(bin_.final_path()),
                                 megatron_index_bytes(dtype_, lengths_, document_indices_));
}

}  // namespace winnow
