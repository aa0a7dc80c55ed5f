#include "io/output_format.h"

namespace winnow {

std::string_view parquet_codec_name(ParquetCodec codec) {
  switch (codec) {
    case ParquetCodec::kZstd:
      return "zstd";
    case ParquetCodec::kSnappy:
      return "snappy";
    case ParquetCodec::kGzip:
      return "gzip";
    case ParquetCodec::kLz4:
      return "lz4";
    case ParquetCodec::kNone:
      return "none";
  }
  return "?";
}

std::optional<ParquetCodec> parquet_codec_from_name(std::string_view name) {
  for (ParquetCodec codec : {ParquetCodec::kZstd, ParquetCodec::kSnappy, ParquetCodec::kGzip,
                             ParquetCodec::kLz4, ParquetCodec::kNone}) {
    if (name == parquet_codec_name(codec)) return codec;
  }
  return std::nullopt;
}

std::string_view OutputFormat::name() const {
  if (megatron_tokens()) return "megatron";
  return parquet() ? std::string_view("parquet") : format_extension(compression).substr(1);
}

std::string_view OutputFormat::extension() const {
  if (megatron_tokens()) return ".bin";
  return parquet() ? std::string_view(".parquet") : format_extension(compression);
}

std::string_view OutputFormat::rejected_extension() const {
  return megatron_tokens() ? format_extension(compression) : extension();
}

std::optional<OutputFormat> OutputFormat::with_name(std::string_view name) const {
  OutputFormat format = *this;
  if (name == "parquet") {
    format.table = TableFormat::kParquet;
    return format;
  }
  if (name == "megatron") {
    format.table = TableFormat::kMegatron;
    return format;
  }
  auto compression = compression_from_format(name);
  if (!compression) return std::nullopt;
  format.table = TableFormat::kJsonl;
  format.compression = *compression;
  return format;
}

}  // namespace winnow
