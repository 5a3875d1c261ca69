// The resource list as JSON: one walk (write_list) over two sinks, compact text written
// directly (the hot path of compiling a shape) and a JSON value (which the YAML writer
// and pretty JSON start from).
#include <jobspec/emit.hpp>

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

bool is_leading(std::string_view key) {
    for (const auto k : leading_keys)
        if (k == key)
            return true;
    return false;
}

/// Calls f(key, value) for a vertex's properties in canonical order: the leading keys,
/// then the others in source order.
template <class F>
void for_each_property(const ResourceVertex& v, F&& f) {
    for (const auto key : leading_keys)
        if (const VertexProperty* p = v.find(key))
            f(key, p->value);
    for (const auto& p : v.properties)
        if (!is_leading(p.key))
            f(std::string_view(p.key), p.value);
}

/// Writes compact JSON text into a string: the shape compiler's hot path.
class TextSink {
public:
    explicit TextSink(std::string& out) : out_(out) {}

    void begin_array() { open('['); }
    void end_array() { close(']'); }
    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void key(std::string_view k) {
        separate();
        support::append_json_quoted(out_, k);
        out_ += ':';
        after_key_ = true;
    }
    /// A key of RFC 14's own (plain ASCII letters): written without looking for escapes.
    void name(std::string_view k) {
        separate();
        out_ += '"';
        out_ += k;
        out_ += "\":";
        after_key_ = true;
    }
    void string(std::string_view s) {
        separate();
        support::append_json_quoted(out_, s);
    }
    void number(std::uint64_t n) {
        separate();
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, n);
        out_.append(buf, r.ptr);
    }
    void value(const boost::json::value& v) {
        separate();
        emit::append_json_text(out_, v);
    }

private:
    void open(char bracket) {
        separate();
        out_ += bracket;
        first_ = true;
    }
    void close(char bracket) {
        out_ += bracket;
        first_ = false;
    }
    /// A comma before every member but the first, and nothing between a key and its value.
    void separate() {
        if (after_key_)
            after_key_ = false;
        else if (!first_)
            out_ += ',';
        first_ = false;
    }

    std::string& out_;
    bool first_ = true;
    bool after_key_ = false;
};

/// Builds a boost::json::value: what pretty JSON and YAML are written from.
class ValueSink {
public:
    void begin_array() { push(boost::json::array()); }
    void end_array() { pop(); }
    void begin_object() { push(boost::json::object()); }
    void end_object() { pop(); }
    void key(std::string_view k) { key_ = k; }
    void name(std::string_view k) { key_ = k; }
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
    out.begin_object();
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
    out.begin_array();
    for (const ResourceVertex& v : resources) {
        out.begin_object();
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
    text.reserve(64 * resources.size() + 16);
    TextSink out(text);
    write_list(out, resources, counts);
    text += '\n';
    return text;
}

} // namespace jobspec
