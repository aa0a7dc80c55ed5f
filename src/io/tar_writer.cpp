#include "io/tar_writer.h"

#include <archive.h>
#include <archive_entry.h>

#include "io/atomic_file.h"

namespace winnow {

struct TarWriter::State {
  explicit State(AtomicFile f) : file(std::move(f)) {}
  ~State() {
    if (handle) archive_write_free(handle);
  }
  AtomicFile file;
  ::archive* handle = nullptr;
  Status write_status;
};

Result<std::unique_ptr<TarWriter>> TarWriter::create(const std::string& path) {
  auto file = AtomicFile::create(path);
  if (!file.is_ok()) return file.status();
  std::unique_ptr<TarWriter> writer(new TarWriter());
  writer->state_ = std::make_unique<State>(std::move(file).value());
  State* state = writer->state_.get();
  state->handle = archive_write_new();
  archive_write_set_format_pax_restricted(state->handle);
  // No padding of the last block to 10 KiB: the archive ends after its two zero blocks.
  archive_write_set_bytes_in_last_block(state->handle, 1);
  auto writer_callback = [](archive*, void* data, const void* buffer, size_t length) -> la_ssize_t {
    auto* s = static_cast<State*>(data);
    Status status = s->file.write(std::string_view(static_cast<const char*>(buffer), length));
    if (!status.is_ok()) {
      s->write_status = status;
      return -1;
    }
    return static_cast<la_ssize_t>(length);
  };
  if (archive_write_open(state->handle, state, nullptr, writer_callback, nullptr) != ARCHIVE_OK) {
    return Status::errorf("cannot write tar {}: {}", path, archive_error_string(state->handle));
  }
  return writer;
}

TarWriter::~TarWriter() = default;

uint64_t TarWriter::member_bytes(std::string_view name, uint64_t size) {
  uint64_t bytes = 512 + (size + 511) / 512 * 512;
  if (name.size() > 100) bytes += 512 + (name.size() + 64 + 511) / 512 * 512;
  return bytes;
}

Status TarWriter::add(const PayloadMember& member, std::string_view bytes) {
  archive_entry* entry = archive_entry_new();
  archive_entry_set_pathname(entry, member.name.c_str());
  archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_perm(entry, member.mode);
  archive_entry_set_mtime(entry, member.mtime, 0);
  int r = archive_write_header(state_->handle, entry);
  archive_entry_free(entry);
  if (r == ARCHIVE_OK && !bytes.empty()) {
    la_ssize_t n = archive_write_data(state_->handle, bytes.data(), bytes.size());
    if (n != static_cast<la_ssize_t>(bytes.size())) r = ARCHIVE_FATAL;
  }
  if (r != ARCHIVE_OK) {
    WINNOW_RETURN_IF_ERROR(state_->write_status);
    return Status::errorf("cannot write member {} to {}: {}", member.name,
                          state_->file.final_path(), archive_error_string(state_->handle));
  }
  written_ += member_bytes(member.name, bytes.size());
  return Status::ok();
}

Status TarWriter::commit() {
  if (archive_write_close(state_->handle) != ARCHIVE_OK) {
    WINNOW_RETURN_IF_ERROR(state_->write_status);
    return Status::errorf("cannot finish tar {}: {}", state_->file.final_path(),
                          archive_error_string(state_->handle));
  }
  return state_->file.commit();
}

}  // namespace winnow
