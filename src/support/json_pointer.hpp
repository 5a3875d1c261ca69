// Building RFC 6901 JSON pointers while walking a document.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace jobspec::support {

/// A JSON pointer grown and shrunk as a walk descends and returns, reusing one buffer.
/// Example: JsonPointer p("/resources"); p.push(0); p.push("with") -> "/resources/0/with".
class JsonPointer {
public:
    explicit JsonPointer(std::string_view base = {}) : text_(base) {}

    /// Appends a member name, escaping '~' and '/' as RFC 6901 says.
    void push(std::string_view key);
    void push(std::size_t index);
    /// Removes the last `n` segments.
    void pop(std::size_t n = 1);

    const std::string& str() const noexcept { return text_; }

private:
    std::string text_;
};

/// Pushes segments for the lifetime of a scope.
class PointerScope {
public:
    template <class... Segments>
    explicit PointerScope(JsonPointer& p, const Segments&... segments)
        : p_(p), n_(sizeof...(segments)) {
        (p_.push(segments), ...);
    }
    ~PointerScope() { p_.pop(n_); }
    PointerScope(const PointerScope&) = delete;
    PointerScope& operator=(const PointerScope&) = delete;

private:
    JsonPointer& p_;
    std::size_t n_;
};

} // namespace jobspec::support
