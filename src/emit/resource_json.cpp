// The resource list as JSON: one walk (write_list) over two sinks, compact text written
// directly (the hot path of compiling a shape) and a JSON value (which the YAML writer
// and pretty JSON start from).
#include <jobspec/emit.hpp>

#include <array>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/json_text.hpp"
#include "support/json_string.hpp"

namespace jobspec {

namespace {

/// Keys written right after type and count, in this order; others follow in source order.
constexpr std::array<std::string_view, 3> leading_keys = {"label", "unit", "exclusive"};

/// The key's place in leading_keys, or leading_keys.size().
std::size_t leading_index(std::string_view key) {
    std::size_t i = 0;
    while (i < leading_keys.size() && leading_keys[i] != key)
        ++i;
    return i;
}

/// Calls f(key, value) for a vertex's properties in canonical order: the leading keys,
/// then the others in source order. One pass finds the leading keys.
template <class F>
void for_each_property(const ResourceVertex& v, F&& f) {
    std::array<const VertexProperty*, leading_keys.size()> leading{};
    bool others = false;
    for (const auto& p : v.properties) {
        if (const std::size_t i = leading_index(p.key); i < leading.size())
            leading[i] = leading[i] ? leading[i] : &p;
        else
            others = true;
    }
    for (std::size_t i = 0; i < leading.size(); ++i)
        if (leading[i])
            f(leading_keys[i], leading[i]->value);
    if (others)
        for (const auto& p : v.properties)
            if (leading_index(p.key) == leading_keys.size())
                f(std::string_view(p.key), p.value);
}

/// A key of RFC 14's own (plain ASCII letters), kept both bare and as the JSON text
/// `"key":`, made at compile time so the text sink copies it in one append.
template <std::size_t N>
struct Name {
    std::array<char, N + 2> text{};

    consteval Name(const char (&key)[N]) {
        text[0] = '"';
        for (std::size_t i = 0; i + 1 < N; ++i)
            text[i + 1] = key[i];
        text[N] = '"';
        text[N + 1] = ':';
    }
    std::string_view quoted() const { return {text.data(), N + 2}; }
    std::string_view bare() const { return {text.data() + 1, N - 1}; }
};

constexpr Name name_type("type");
constexpr Name name_count("count");
constexpr Name name_with("with");
constexpr Name name_min("min");
constexpr Name name_max("max");
constexpr Name name_operator("operator");
constexpr Name name_operand("operand");

/// Writes compact JSON text into a string: the shape compiler's hot path. Every value
/// is followed by a comma, which the closing bracket overwrites, so no state is kept.
/// (Each sink's begin_array and begin_object take the number of members to come, a hint.)
class TextSink {
public:
    explicit TextSink(std::string& out) : out_(out) {}

    void begin_array(std::size_t) { out_ += '['; }
    void end_array() { close(']'); }
    void begin_object(std::size_t) { out_ += '{'; }
    void end_object() { close('}'); }
    void key(std::string_view k) {
        support::append_json_quoted(out_, k);
        out_ += ':';
    }
    template <std::size_t N>
    void name(const Name<N>& k) {
        out_.append(k.quoted());
    }
    void string(std::string_view s) {
        support::append_json_quoted(out_, s);
        out_ += ',';
    }
    void number(std::uint64_t n) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, n);
        *r.ptr = ',';
        out_.append(buf, r.ptr + 1);
    }
    void value(const boost::json::value& v) {
        support::append_json_text(out_, v);
        out_ += ',';
    }

    /// Ends the text: the comma after the outermost value is dropped.
    void finish() {
        if (!out_.empty() && out_.back() == ',')
            out_.pop_back();
    }

private:
    void close(char bracket) {
        if (out_.back() == ',')
            out_.back() = bracket;
        else
            out_ += bracket;
        out_ += ',';
    }

    std::string& out_;
};

/// Builds a boost::json::value: what pretty JSON and YAML are written from.
class ValueSink {
public:
    explicit ValueSink(boost::json::storage_ptr storage) : root_(std::move(storage)) {
        open_.reserve(8);
    }

    void begin_array(std::size_t size) { open(boost::json::array_kind).get_array().reserve(size); }
    void end_array() { open_.pop_back(); }
    void begin_object(std::size_t size) {
        open(boost::json::object_kind).get_object().reserve(size);
    }
    void end_object() { open_.pop_back(); }
    void key(std::string_view k) { key_ = k; }
    template <std::size_t N>
    void name(const Name<N>& k) {
        key_ = k.bare();
    }
    void string(std::string_view s) { add(boost::json::value(s, root_.storage())); }
    void number(std::uint64_t n) {
        add(boost::json::value(static_cast<std::int64_t>(n), root_.storage()));
    }
    void value(const boost::json::value& v) { add(boost::json::value(v, root_.storage())); }

    boost::json::value take() { return std::move(root_); }

private:
    /// Adds an empty array or object where the next value goes and fills it from now on.
    template <class Kind>
    boost::json::value& open(Kind kind) {
        boost::json::value& container = add(boost::json::value(kind, root_.storage()));
        open_.push_back(&container);
        return container;
    }
    /// Adds `v` to the innermost open container (under key_ in an object), or makes it
    /// the root. Only the innermost container grows, so the pointers in open_ stay valid.
    boost::json::value& add(boost::json::value v) {
        if (open_.empty())
            return root_ = std::move(v);
        boost::json::value& top = *open_.back();
        if (top.is_array())
            return top.get_array().emplace_back(std::move(v));
        // Keys are views of the resource list or of literals, which outlive the walk;
        // each appears once per object (the list's vertices hold unique keys).
        return top.get_object().emplace(key_, std::move(v)).first->value();
    }

    std::vector<boost::json::value*> open_;
    std::string_view key_;
    boost::json::value root_;
};

/// The count as RFC 14 writes it: an integer, an idset string, a range dictionary (or,
/// with CountStyle::string, the RFC 45 string).
template <class Sink>
void write_count(Sink& out, const Count& count, CountStyle style) {
    if (count.is_fixed())
        return out.number(count.fixed());
    if (count.is_idset() || style == CountStyle::string)
        return out.string(count.format());
    const CountRange& r = count.range();
    out.begin_object(4);
    out.name(name_min);
    out.number(r.min);
    if (r.max) {
        out.name(name_max);
        out.number(*r.max);
    }
    if (r.max || r.explicit_step) {
        const char op = static_cast<char>(r.op);
        out.name(name_operator);
        out.string(std::string_view(&op, 1));
        out.name(name_operand);
        out.number(r.operand);
    }
    out.end_object();
}

/// The one walk over a resource list both sinks share: keys in canonical order.
template <class Sink>
void write_list(Sink& out, const ResourceList& resources, CountStyle style) {
    out.begin_array(resources.size());
    for (const ResourceVertex& v : resources) {
        out.begin_object(3 + v.properties.size());
        out.name(name_type);
        out.string(v.type);
        out.name(name_count);
        write_count(out, v.count, style);
        for_each_property(v, [&](std::string_view key, const boost::json::value& value) {
            out.key(key);
            out.value(value);
        });
        if (v.has_with) {
            out.name(name_with);
            write_list(out, v.with, style);
        }
        out.end_object();
    }
    out.end_array();
}

/// The number of vertices in the list and below: about 64 bytes of text each.
std::size_t vertex_count(const ResourceList& resources) {
    std::size_t n = resources.size();
    for (const ResourceVertex& v : resources)
        n += vertex_count(v.with);
    return n;
}

} // namespace

boost::json::value to_json_value(const ResourceList& resources, CountStyle counts,
                                 boost::json::storage_ptr storage) {
    ValueSink out(std::move(storage));
    write_list(out, resources, counts);
    return out.take();
}

std::string to_json_text(const ResourceList& resources, CountStyle counts, bool pretty) {
    if (pretty)
        return to_json_text(to_json_value(resources, counts), true);
    std::string text;
    text.reserve(64 * resources.size() + 16);
    TextSink out(text);
    write_list(out, resources, counts);
    out.finish();
    text += '\n';
    return text;
}

} // namespace jobspec
