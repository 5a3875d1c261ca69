// ShapeCache: least-recently-used compiled shapes behind one mutex.
#include <jobspec/shape_cache.hpp>

#include <list>
#include <mutex>
#include <unordered_map>

namespace jobspec {

namespace {

using Entry = Result<std::shared_ptr<const std::string>>;

/// Everything the compiled text depends on, in one string.
std::string cache_key(std::string_view text, const ShapeOptions& options, CountStyle counts) {
    std::string key;
    key.reserve(text.size() + options.default_label.size() + 48);
    key += static_cast<char>('0' + static_cast<int>(counts));
    for (const std::size_t n : {options.limits.max_input_bytes, options.limits.max_depth,
                                options.limits.max_diagnostics, options.limits.max_alias_nodes,
                                options.limits.max_vertices,
                                options.limits.max_constraint_terms}) {
        key.append(reinterpret_cast<const char*>(&n), sizeof n);
    }
    key += options.default_label;
    key += '\0';
    key += text;
    return key;
}

Entry compile(std::string_view text, const ShapeOptions& options, CountStyle counts) {
    auto r = compile_shape(text, options);
    if (!r.ok())
        return Entry(std::move(r).diagnostics());
    auto json = std::make_shared<const std::string>(to_json_text(r.value(), counts));
    return Entry(std::move(json), std::move(r).diagnostics());
}

} // namespace

struct ShapeCache::Impl {
    using Order = std::list<std::pair<std::string, Entry>>;

    std::size_t capacity = 1;
    mutable std::mutex mutex;
    Order order; // most recently used first
    std::unordered_map<std::string_view, Order::iterator> index;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
};

ShapeCache::ShapeCache(std::size_t capacity) : impl_(std::make_unique<Impl>()) {
    impl_->capacity = capacity > 0 ? capacity : 1;
}

ShapeCache::~ShapeCache() = default;

Result<std::shared_ptr<const std::string>>
ShapeCache::json(std::string_view text, const ShapeOptions& options, CountStyle counts) {
    std::string key = cache_key(text, options, counts);
    {
        const std::lock_guard lock(impl_->mutex);
        if (const auto it = impl_->index.find(key); it != impl_->index.end()) {
            impl_->order.splice(impl_->order.begin(), impl_->order, it->second);
            ++impl_->hits;
            return it->second->second;
        }
        ++impl_->misses;
    }
    // Compiled outside the lock: other threads keep hitting meanwhile.
    Entry entry = compile(text, options, counts);
    const std::lock_guard lock(impl_->mutex);
    if (impl_->index.find(key) == impl_->index.end()) {
        impl_->order.emplace_front(std::move(key), entry);
        impl_->index.emplace(impl_->order.front().first, impl_->order.begin());
        if (impl_->order.size() > impl_->capacity) {
            impl_->index.erase(impl_->order.back().first);
            impl_->order.pop_back();
        }
    }
    return entry;
}

std::size_t ShapeCache::size() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->order.size();
}

std::uint64_t ShapeCache::hits() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->hits;
}

std::uint64_t ShapeCache::misses() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->misses;
}

void ShapeCache::clear() {
    const std::lock_guard lock(impl_->mutex);
    impl_->index.clear();
    impl_->order.clear();
}

} // namespace jobspec
