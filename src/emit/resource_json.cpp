// The resource list as JSON: one walk (write_list) over two sinks, compact text written
// directly (the hot path of compiling a shape) and a JSON value (which the YAML writer
// and pretty JSON start from).
#include <jobspec/emit.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "emit/json_text.hpp"
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
    /// A key of RFC 14's own (a literal of plain ASCII letters): written in one append,
    /// without looking for escapes.
    template <std::size_t N>
    void name(const char (&k)[N]) {
        char quoted[N + 2] = {'"'};
        std::copy(k, k + N - 1, quoted + 1);
        quoted[N] = '"';
        quoted[N + 1] = ':';
        out_.append(quoted, N + 2);
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
        emit::append_json_text(out_, v);
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
    void begin_array(std::size_t size) {
        boost::json::array a;
        a.reserve(size);
        push(std::move(a));
    }
    void end_array() { pop(); }
    void begin_object(std::size_t size) { push(boost::json::object(size)); }
    void end_object() { pop(); }
    void key(std::string_view k) { key_ = k; }
    template <std::size_t N>
    void name(const char (&k)[N]) {
        key_ = std::string_view(k, N - 1);
    }
    void string(std::string_view s) { add(boost::json::value(s)); }
    void number(std::uint64_t n) { add(static_cast<std::int64_t>(n)); }
    void value(const boost::json::value& v) { add(v); }

    boost::json::value take() { return std::move(root_); }

private:
    void push(boost::json::value v) {
        stack_.push_back(std::move(v));
        keys_.push_back(key_);
    }
    void pop() {
        boost::json::value done = std::move(stack_.back());
        stack_.pop_back();
        key_ = keys_.back();
        keys_.pop_back();
        add(std::move(done));
    }
    void add(boost::json::value v) {
        if (stack_.empty())
            root_ = std::move(v);
        else if (stack_.back().is_array())
            stack_.back().get_array().push_back(std::move(v));
        else
            stack_.back().get_object().emplace(key_, std::move(v));
    }

    // Keys are views of the resource list or of literals, which outlive the walk; each
    // appears once per object (the list's vertices hold unique keys).
    std::vector<boost::json::value> stack_;
    std::vector<std::string_view> keys_;
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
    out.name("min");
    out.number(r.min);
    if (r.max) {
        out.name("max");
        out.number(*r.max);
    }
    if (r.max || r.explicit_step) {
        const char op = static_cast<char>(r.op);
        out.name("operator");
        out.string(std::string_view(&op, 1));
        out.name("operand");
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
        out.name("type");
        out.string(v.type);
        out.name("count");
        write_count(out, v.count, style);
        for_each_property(v, [&](std::string_view key, const boost::json::value& value) {
            out.key(key);
            out.value(value);
        });
        if (v.has_with) {
            out.name("with");
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

boost::json::value to_json_value(const ResourceList& resources, CountStyle counts) {
    ValueSink out;
    write_list(out, resources, counts);
    return out.take();
}

std::string to_json_text(const ResourceList& resources, CountStyle counts, bool pretty) {
    if (pretty)
        return to_json_text(to_json_value(resources, counts), true);
    std::string text;
    text.reserve(64 * vertex_count(resources) + 16);
    TextSink out(text);
    write_list(out, resources, counts);
    out.finish();
    text += '\n';
    return text;
}

} // namespace jobspec
