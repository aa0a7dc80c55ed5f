#pragma once
// Little helpers to pack records into spill blocks and read them back with bounds checks
// (semantic dedup's logs) and the dedup steps' messages between ranks. Native byte order:
// spill files never leave the machine, and the ranks of one job share one architecture.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace winnow {

class BytePacker {
 public:
  explicit BytePacker(std::string& out) : out_(out) {}
  template <typename T>
  BytePacker& put(T value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
    return *this;
  }
  BytePacker& put_bytes(std::string_view bytes) {
    put(static_cast<uint32_t>(bytes.size()));
    out_.append(bytes);
    return *this;
  }
  BytePacker& put_raw(const void* data, size_t bytes) {
    out_.append(static_cast<const char*>(data), bytes);
    return *this;
  }

 private:
  std::string& out_;
};

// Reads what BytePacker wrote; any read past the end sets failed() and yields zeros.
class ByteUnpacker {
 public:
  explicit ByteUnpacker(std::string_view in) : in_(in) {}
  template <typename T>
  T get() {
    T value{};
    if (in_.size() - at_ < sizeof value) {
      failed_ = true;
      at_ = in_.size();
      return value;
    }
    std::memcpy(&value, in_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string_view get_bytes() { return get_raw(get<uint32_t>()); }
  std::string_view get_raw(size_t bytes) {
    if (in_.size() - at_ < bytes) {
      failed_ = true;
      at_ = in_.size();
      return {};
    }
    std::string_view out = in_.substr(at_, bytes);
    at_ += bytes;
    return out;
  }
  bool done() const { return at_ >= in_.size(); }
  bool failed() const { return failed_; }

 private:
  std::string_view in_;
  size_t at_ = 0;
  bool failed_ = false;
};

}  // namespace winnow
