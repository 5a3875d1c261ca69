// JSON text from boost::json values. Our own writer rather than boost::json::serialize:
// it writes doubles in their shortest round-trip form ("2.5", not "2.5E0") and shares one
// walk between compact and indented output.
#include <jobspec/emit.hpp>

#include <charconv>
#include <cmath>
#include <string_view>

#include "emit/json_text.hpp"
#include "support/json_string.hpp"

namespace jobspec {

namespace {

class JsonWriter {
public:
    JsonWriter(std::string& out, bool pretty) : out_(out), pretty_(pretty) {}

    void value(const boost::json::value& v) {
        switch (v.kind()) {
        case boost::json::kind::null:
            out_ += "null";
            break;
        case boost::json::kind::bool_:
            out_ += v.get_bool() ? "true" : "false";
            break;
        case boost::json::kind::int64:
            number(v.get_int64());
            break;
        case boost::json::kind::uint64:
            number(v.get_uint64());
            break;
        case boost::json::kind::double_:
            real(v.get_double());
            break;
        case boost::json::kind::string:
            string(v.get_string());
            break;
        case boost::json::kind::array:
            array(v.get_array());
            break;
        case boost::json::kind::object:
            object(v.get_object());
            break;
        }
    }

private:
    template <class N>
    void number(N n) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, n);
        out_.append(buf, r.ptr);
    }

    void real(double d) {
        if (!std::isfinite(d)) {
            out_ += "null";
            return;
        }
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, d);
        const std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
        out_ += text;
        // Keep it a floating-point number when read back: 3.0 stays 3.0, not 3.
        if (text.find_first_of(".e") == std::string_view::npos)
            out_ += ".0";
    }

    void string(std::string_view s) { support::append_json_quoted(out_, s); }

    void array(const boost::json::array& a) {
        out_ += '[';
        ++depth_;
        for (std::size_t i = 0; i < a.size(); ++i) {
            separator(i);
            value(a[i]);
        }
        close(']', !a.empty());
    }

    void object(const boost::json::object& o) {
        out_ += '{';
        ++depth_;
        std::size_t i = 0;
        for (const auto& member : o) {
            separator(i++);
            string(member.key());
            out_ += pretty_ ? ": " : ":";
            value(member.value());
        }
        close('}', !o.empty());
    }

    void separator(std::size_t index) {
        if (index > 0)
            out_ += ',';
        newline();
    }

    void close(char bracket, bool had_members) {
        --depth_;
        if (had_members)
            newline();
        out_ += bracket;
    }

    void newline() {
        if (!pretty_)
            return;
        out_ += '\n';
        out_.append(2 * depth_, ' ');
    }

    std::string& out_;
    bool pretty_;
    std::size_t depth_ = 0;
};

} // namespace

namespace emit {

void append_json_text(std::string& out, const boost::json::value& value) {
    JsonWriter(out, false).value(value);
}

} // namespace emit

std::string to_json_text(const boost::json::value& value, bool pretty) {
    std::string out;
    JsonWriter(out, pretty).value(value);
    out += '\n';
    return out;
}

} // namespace jobspec
