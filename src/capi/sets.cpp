// The C API's idsets and hostlists.
#include <limits>

#include "capi/handles.hpp"

using namespace jobspec::capi;

namespace {

const jobspec::IdSet& value(const jobspec_idset* set) {
    static const jobspec::IdSet empty;
    return set != nullptr ? set->value : empty;
}

const jobspec::Hostlist& value(const jobspec_hostlist* hosts) {
    static const jobspec::Hostlist empty;
    return hosts != nullptr ? hosts->value : empty;
}

} // namespace

extern "C" {

jobspec_idset* jobspec_idset_new(void) {
    return make<jobspec_idset>([] { return jobspec::IdSet{}; });
}

jobspec_idset* jobspec_idset_parse(const char* text, jobspec_error** error) {
    return guarded<jobspec_idset*>(error, nullptr, [&]() -> jobspec_idset* {
        if (!require(text, "text", error))
            return nullptr;
        auto parsed = jobspec::IdSet::parse(text);
        return succeeded(parsed, options_or_default(nullptr), text, error)
                   ? new jobspec_idset{std::move(parsed).value()}
                   : nullptr;
    });
}

void jobspec_idset_free(jobspec_idset* set) {
    delete set;
}

char* jobspec_idset_encode(const jobspec_idset* set) {
    return guarded<char*>(nullptr, [&] { return new_text(value(set).format()); });
}

uint64_t jobspec_idset_count(const jobspec_idset* set) {
    return value(set).count();
}

bool jobspec_idset_contains(const jobspec_idset* set, uint64_t id) {
    return value(set).contains(id);
}

bool jobspec_idset_insert(jobspec_idset* set, uint64_t first, uint64_t last) {
    if (set == nullptr || first > last || last > jobspec::Limits::max_integer)
        return false;
    return guarded(false, [&] {
        set->value.insert(first, last);
        return true;
    });
}

void jobspec_idset_erase(jobspec_idset* set, uint64_t first, uint64_t last) {
    if (set == nullptr)
        return;
    guarded(false, [&] {
        set->value.erase(first, last);
        return true;
    });
}

int64_t jobspec_idset_first(const jobspec_idset* set) {
    const auto& s = value(set);
    return s.empty() ? -1 : static_cast<int64_t>(s.first());
}

int64_t jobspec_idset_next(const jobspec_idset* set, uint64_t id) {
    const auto next = value(set).next(id);
    return next ? static_cast<int64_t>(*next) : -1;
}

bool jobspec_idset_equal(const jobspec_idset* a, const jobspec_idset* b) {
    return value(a) == value(b);
}

jobspec_idset* jobspec_idset_union(const jobspec_idset* a, const jobspec_idset* b) {
    return make<jobspec_idset>([&] { return value(a).united(value(b)); });
}

jobspec_idset* jobspec_idset_intersect(const jobspec_idset* a, const jobspec_idset* b) {
    return make<jobspec_idset>([&] { return value(a).intersected(value(b)); });
}

jobspec_idset* jobspec_idset_difference(const jobspec_idset* a, const jobspec_idset* b) {
    return make<jobspec_idset>([&] { return value(a).without(value(b)); });
}

jobspec_hostlist* jobspec_hostlist_new(void) {
    return make<jobspec_hostlist>([] { return jobspec::Hostlist{}; });
}

jobspec_hostlist* jobspec_hostlist_parse(const char* text, jobspec_error** error) {
    return guarded<jobspec_hostlist*>(error, nullptr, [&]() -> jobspec_hostlist* {
        if (!require(text, "text", error))
            return nullptr;
        auto parsed = jobspec::Hostlist::parse(text);
        return succeeded(parsed, options_or_default(nullptr), text, error)
                   ? new jobspec_hostlist{std::move(parsed).value()}
                   : nullptr;
    });
}

void jobspec_hostlist_free(jobspec_hostlist* hosts) {
    delete hosts;
}

bool jobspec_hostlist_append(jobspec_hostlist* hosts, const char* text, jobspec_error** error) {
    return guarded(error, false, [&] {
        if (!require(hosts, "hosts", error) || !require(text, "text", error))
            return false;
        auto parsed = jobspec::Hostlist::parse(text);
        if (!succeeded(parsed, options_or_default(nullptr), text, error))
            return false;
        hosts->value.append(parsed.value());
        return true;
    });
}

char* jobspec_hostlist_encode(const jobspec_hostlist* hosts) {
    return guarded<char*>(nullptr, [&] { return new_text(value(hosts).encode()); });
}

uint64_t jobspec_hostlist_count(const jobspec_hostlist* hosts) {
    return value(hosts).count();
}

char* jobspec_hostlist_nth(const jobspec_hostlist* hosts, uint64_t index) {
    return guarded<char*>(nullptr, [&]() -> char* {
        const auto host = value(hosts).nth(index);
        return host ? new_text(*host) : nullptr;
    });
}

int64_t jobspec_hostlist_find(const jobspec_hostlist* hosts, const char* host) {
    if (host == nullptr)
        return -1;
    return guarded<int64_t>(-1, [&]() -> int64_t {
        const auto at = value(hosts).find(host);
        return at ? static_cast<int64_t>(*at) : -1;
    });
}

jobspec_hostlist* jobspec_hostlist_sort(const jobspec_hostlist* hosts, bool unique) {
    return make<jobspec_hostlist>(
        [&] { return unique ? value(hosts).unique() : value(hosts).sorted(); });
}

jobspec_hostlist* jobspec_hostlist_union(const jobspec_hostlist* a, const jobspec_hostlist* b) {
    return make<jobspec_hostlist>([&] { return value(a).united(value(b)); });
}

jobspec_hostlist* jobspec_hostlist_intersect(const jobspec_hostlist* a, const jobspec_hostlist* b) {
    return make<jobspec_hostlist>([&] { return value(a).intersected(value(b)); });
}

jobspec_hostlist* jobspec_hostlist_difference(const jobspec_hostlist* a,
                                              const jobspec_hostlist* b) {
    return make<jobspec_hostlist>([&] { return value(a).without(value(b)); });
}

} // extern "C"
