#pragma once
// Errors: sz::Error for I/O and library failures (thrown, caught once in main), and
// Result<T> for untrusted text whose message must name the bad field. g++ 12 has no
// std::expected, so Result is a small tagged union of its own.
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace sz {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

struct Failure {
  std::string message;
};

inline Failure fail(std::string message) { return Failure{std::move(message)}; }

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Failure failure) : v_(std::move(failure)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<1>(v_).message; }
  // Throws sz::Error with `context` before the message: for callers that treat bad input as fatal.
  T take_or_throw(const std::string& context = "") && {
    if (!ok()) throw Error(context.empty() ? error() : context + ": " + error());
    return std::get<0>(std::move(v_));
  }

 private:
  std::variant<T, Failure> v_;
};

}  // namespace sz
