// Result<T>: the value of a fallible call, or the diagnostics that explain why there is none.
#pragma once

#include <exception>
#include <optional>
#include <utility>

#include <jobspec/diagnostic.hpp>

namespace jobspec {

/// Holds a value when the call succeeded (possibly with warnings), otherwise only the
/// diagnostics, at least one of them an error. Nothing in jobspec throws across its API;
/// calling value() on a failed result is a programming error and terminates.
template <class T>
class Result {
public:
    Result(T value, Diagnostics diagnostics = Diagnostics{})
        : value_(std::move(value)), diagnostics_(std::move(diagnostics)) {}
    /// A failed result; `diagnostics` should hold at least one error.
    explicit Result(Diagnostics diagnostics) : diagnostics_(std::move(diagnostics)) {}

    bool ok() const noexcept { return value_.has_value(); }
    explicit operator bool() const noexcept { return ok(); }

    const T& value() const& { return (require(), *value_); }
    T& value() & { return (require(), *value_); }
    T&& value() && { return (require(), std::move(*value_)); }
    /// The value, or nullptr when the call failed.
    const T* get() const noexcept { return value_ ? &*value_ : nullptr; }

    const Diagnostics& diagnostics() const& noexcept { return diagnostics_; }
    Diagnostics& diagnostics() & noexcept { return diagnostics_; }
    /// By value on a temporary, so `for (auto& d : f().diagnostics())` cannot dangle.
    Diagnostics diagnostics() && noexcept { return std::move(diagnostics_); }

private:
    void require() const {
        if (!value_)
            std::terminate();
    }

    std::optional<T> value_;
    Diagnostics diagnostics_;
};

} // namespace jobspec
