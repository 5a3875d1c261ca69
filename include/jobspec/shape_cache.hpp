// ShapeCache: an opt-in cache of compiled shapes, for front ends that see the same shape
// strings again and again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/result.hpp>
#include <jobspec/shape.hpp>

namespace jobspec {

/// The canonical JSON text of shapes, kept for the `capacity` most recently used
/// (shape text, options, count style) keys; compiling is deterministic, so a hit is
/// exactly what compile_shape would give, diagnostics included. One cache may be shared
/// by any number of threads (a lookup holds one mutex for a hash lookup).
class JOBSPEC_API ShapeCache {
public:
    /// A cache of at most `capacity` entries (at least 1).
    explicit ShapeCache(std::size_t capacity = 1024);
    ~ShapeCache();
    ShapeCache(const ShapeCache&) = delete;
    ShapeCache& operator=(const ShapeCache&) = delete;

    /// compile_shape(text, options) written as compact JSON text (to_json_text) with
    /// `counts`; failures are cached too. The text is shared, never copied, on a hit.
    Result<std::shared_ptr<const std::string>> json(std::string_view text,
                                                    const ShapeOptions& options = {},
                                                    CountStyle counts = CountStyle::dict);

    std::size_t size() const;
    std::uint64_t hits() const;
    std::uint64_t misses() const;
    void clear();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace jobspec
