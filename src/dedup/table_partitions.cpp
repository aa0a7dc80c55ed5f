#include "dedup/table_partitions.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/hash.h"
#include "dedup/byte_codec.h"
#include "dist/record_exchange.h"
#include "io/atomic_file.h"

namespace winnow {

namespace {

constexpr uint64_t kSampleOneIn = 64;

void put_row(std::string& out, const TableRow& row) {
  BytePacker(out)
      .put(row.entry.component)
      .put(row.entry.doc)
      .put(row.component_size)
      .put(static_cast<uint8_t>(row.entry.survivor ? 1 : 0))
      .put_bytes(row.entry.id);
}

bool take_rows(const std::string& in, std::vector<TableRow>& rows) {
  ByteUnpacker message(in);
  while (!message.done()) {
    TableRow row;
    row.entry.component = message.get<uint64_t>();
    row.entry.doc = message.get<uint64_t>();
    row.component_size = message.get<uint64_t>();
    row.entry.survivor = message.get<uint8_t>() != 0;
    row.entry.id = std::string(message.get_bytes());
    if (message.failed()) return false;
    rows.push_back(std::move(row));
  }
  return true;
}

// Range boundaries: quantiles of the group ids whose hash falls in one bucket of kSampleOneIn,
// gathered from every rank (the same set, hence the same cuts, for any rank count).
std::vector<uint64_t> boundaries(dist::Comm& comm, const std::vector<TableRow>& rows,
                                 uint32_t partitions) {
  std::vector<uint64_t> sample;
  for (const TableRow& row : rows) {
    const uint64_t group = row.entry.component;
    if (row.entry.doc == group && hash_u64(group, 0x7ab1e5u) % kSampleOneIn == 0) {
      sample.push_back(group);
    }
  }
  std::vector<uint64_t> all;
  for (const std::string& theirs : comm.all_gather(std::string_view(
           reinterpret_cast<const char*>(sample.data()), sample.size() * sizeof(uint64_t)))) {
    const size_t n = theirs.size() / sizeof(uint64_t);
    const size_t at = all.size();
    all.resize(at + n);
    if (n > 0) std::memcpy(all.data() + at, theirs.data(), n * sizeof(uint64_t));
  }
  std::sort(all.begin(), all.end());
  std::vector<uint64_t> cuts;
  const size_t parts = std::min<size_t>(partitions, all.size() + 1);
  for (size_t i = 1; i < parts; ++i) cuts.push_back(all[i * all.size() / parts]);
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
}

std::string part_path(const std::string& path, size_t part) {
  return fmt::format("{}.part-{:05d}", path, part);
}

Status write_part(const std::string& path, std::vector<TableRow>& rows, TableFormat format) {
  std::sort(rows.begin(), rows.end(), [](const TableRow& a, const TableRow& b) {
    return a.entry.component != b.entry.component ? a.entry.component < b.entry.component
                                                  : a.entry.doc < b.entry.doc;
  });
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::string buffer;
  for (const TableRow& row : rows) {
    append_table_entry(buffer, row.entry, row.component_size, format);
    if (buffer.size() > (1 << 20)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.close();
  if (!out) return Status::errorf("cannot write duplicates table partition {}", path);
  return Status::ok();
}

// Rank 0: the partitions in order, framed as `format` wants, into `path`.
Status join_parts(const std::string& path, size_t parts, uint64_t entries, TableFormat format) {
  auto file = AtomicFile::create(path);
  if (!file.is_ok()) return file.status();
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  auto write = [&](std::string_view bytes) {
    if (format == TableFormat::kBinary) XXH3_64bits_update(state, bytes.data(), bytes.size());
    return file->write(bytes);
  };
  Status status;
  if (format == TableFormat::kBinary) {
    std::string head(kBinaryTableMagic);
    head.append(reinterpret_cast<const char*>(&entries), sizeof entries);
    status = write(head);
  }
  std::string block(size_t{1} << 20, '\0');
  for (size_t p = 0; p < parts && status.is_ok(); ++p) {
    std::ifstream in(part_path(path, p), std::ios::binary);
    if (!in) {
      status = Status::errorf("duplicates table partition {} is missing", part_path(path, p));
      break;
    }
    while (status.is_ok() && in) {
      in.read(block.data(), static_cast<std::streamsize>(block.size()));
      if (in.gcount() > 0) status = write(std::string_view(block.data(), static_cast<size_t>(in.gcount())));
    }
  }
  const uint64_t checksum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  if (status.is_ok() && format == TableFormat::kBinary) {
    status = file->write(std::string_view(reinterpret_cast<const char*>(&checksum), 8));
  }
  if (status.is_ok()) status = file->commit();
  std::error_code ec;
  for (size_t p = 0; p < parts; ++p) std::filesystem::remove(part_path(path, p), ec);
  return status;
}

}  // namespace

Status write_table_partitions(dist::Comm& comm, std::vector<TableRow>& rows, uint32_t partitions,
                              const std::string& path, TableFormat format) {
  const std::vector<uint64_t> cuts = boundaries(comm, rows, std::max<uint32_t>(partitions, 1));
  const size_t parts = cuts.size() + 1;
  const size_t ranks = static_cast<size_t>(comm.size());
  std::vector<std::string> outgoing(ranks);
  for (const TableRow& row : rows) {
    const size_t part =
        static_cast<size_t>(std::upper_bound(cuts.begin(), cuts.end(), row.entry.component) -
                            cuts.begin());
    put_row(outgoing[part % ranks], row);
  }
  const uint64_t mine = rows.size();
  std::vector<TableRow>().swap(rows);
  std::vector<TableRow> received;
  bool whole = true;
  for (const std::string& in : comm.all_to_all(std::move(outgoing))) whole &= take_rows(in, received);
  Status status = whole ? Status::ok() : Status::error("dedup: table rows arrived cut short");
  // This rank's partitions: p with p % ranks == rank.
  std::vector<std::vector<TableRow>> by_part(parts);
  for (TableRow& row : received) {
    by_part[static_cast<size_t>(std::upper_bound(cuts.begin(), cuts.end(), row.entry.component) -
                                cuts.begin())]
        .push_back(std::move(row));
  }
  std::vector<TableRow>().swap(received);
  for (size_t p = static_cast<size_t>(comm.rank()); p < parts && status.is_ok(); p += ranks) {
    status = write_part(part_path(path, p), by_part[p], format);
    std::vector<TableRow>().swap(by_part[p]);
  }
  const uint64_t entries = dist::sum_over_ranks(comm, {mine})[0];
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, status));
  return dist::agree(comm, comm.rank() == 0 ? join_parts(path, parts, entries, format)
                                            : Status::ok());
}

}  // namespace winnow
