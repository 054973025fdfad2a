#pragma once
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace articula {

// Error message carried by a failed Result. The text names the file, joint or key at
// fault, e.g. "walk.bvh: line 12: expected '{' after ROOT Hips".
struct Error {
  std::string message;
};

// A value or an error message (std::expected arrives with C++23; g++ 12 only has it there).
template <typename T>
class Result {
 public:
  Result(T value) : mData(std::move(value)) {}                 // NOLINT: implicit on purpose
  Result(Error error) : mData(std::move(error)) {}             // NOLINT
  bool ok() const { return std::holds_alternative<T>(mData); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(mData); }
  const T& value() const& { return std::get<T>(mData); }
  T&& value() && { return std::get<T>(std::move(mData)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const std::string& error() const { return std::get<Error>(mData).message; }

 private:
  std::variant<T, Error> mData;
};

inline Error makeError(std::string message) { return Error{std::move(message)}; }

}  // namespace articula
