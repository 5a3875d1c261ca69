// Expected<T, E>: a value or an error, inside the library: what the leaf codecs return to
// the passes that turn their errors into diagnostics (C++20 has no std::expected).
#pragma once

#include <cstddef>
#include <exception>
#include <string>
#include <utility>
#include <variant>

namespace jobspec {

/// Wraps an error so Expected can tell it from a value: `return Unexpected{err};`.
template <class E>
struct Unexpected {
    E error;
};

/// Either a T or an E. Dereferencing an Expected that holds an error terminates.
template <class T, class E>
class Expected {
public:
    Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Expected(Unexpected<E> u) : v_(std::in_place_index<1>, std::move(u.error)) {}

    bool has_value() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    const T& operator*() const& { return (require(), std::get<0>(v_)); }
    T& operator*() & { return (require(), std::get<0>(v_)); }
    T&& operator*() && { return (require(), std::move(std::get<0>(v_))); }
    const T* operator->() const { return &**this; }
    T* operator->() { return &**this; }

    /// The error; only meaningful when !has_value().
    const E& error() const { return std::get<1>(v_); }

private:
    void require() const {
        if (v_.index() != 0)
            std::terminate();
    }
    std::variant<T, E> v_;
};

/// A codec's complaint about its input: what is wrong, where in the input (byte offset
/// and length, counting from 0), and a short message.
template <class Kind>
struct CodecError {
    Kind kind;
    std::size_t offset = 0;
    std::size_t length = 0;
    std::string message;
};

} // namespace jobspec
