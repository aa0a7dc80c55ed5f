#pragma once
// Status and Result<T>: the error type of every fallible call. A message always says where
// (file and line, or stage and key) and what was expected, because users read it, not code.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>

namespace winnow {

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    s.failed_ = true;
    return s;
  }
  template <typename... Args>
  static Status errorf(fmt::format_string<Args...> format, Args&&... args) {
    return error(fmt::format(format, std::forward<Args>(args)...));
  }

  bool is_ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
  bool failed_ = false;
};

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool is_ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace winnow

// Returns early from the enclosing function when `expr` yields a failed Status.
#define WINNOW_RETURN_IF_ERROR(expr)                    \
  do {                                                  \
    ::winnow::Status winnow_status_ = (expr);           \
    if (!winnow_status_.is_ok()) return winnow_status_; \
  } while (0)
