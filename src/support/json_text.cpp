// JSON text from boost::json values. Our own writer rather than boost::json::serialize:
// it writes doubles in their shortest round-trip form ("2.5", not "2.5E0"), keeps
// strings terminal-safe, and shares one walk between its styles.
#include "support/json_text.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "support/json_string.hpp"
#include "support/python_numbers.hpp"

namespace jobspec::support {

namespace {

class JsonWriter {
public:
    JsonWriter(std::string& out, JsonTextStyle style) : out_(out), style_(style) {}

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
        if (style_ == JsonTextStyle::python) {
            out_ += std::isnan(d)   ? "NaN"
                    : std::isinf(d) ? (d < 0 ? "-Infinity" : "Infinity")
                                    : python_float_repr(d);
            return;
        }
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

    void string(std::string_view s) {
        append_json_quoted(out_, s,
                           style_ == JsonTextStyle::python ? JsonEscapes::minimal
                                                           : JsonEscapes::terminal_safe);
    }

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
            out_ += style_ == JsonTextStyle::compact ? ":" : ": ";
            value(member.value());
        }
        close('}', !o.empty());
    }

    void separator(std::size_t index) {
        if (index > 0)
            out_ += style_ == JsonTextStyle::python ? ", " : ",";
        newline();
    }

    void close(char bracket, bool had_members) {
        --depth_;
        if (had_members)
            newline();
        out_ += bracket;
    }

    void newline() {
        if (style_ != JsonTextStyle::pretty)
            return;
        out_ += '\n';
        out_.append(2 * depth_, ' ');
    }

    std::string& out_;
    JsonTextStyle style_;
    std::size_t depth_ = 0;
};

} // namespace

void append_json_text(std::string& out, const boost::json::value& value, JsonTextStyle style) {
    JsonWriter(out, style).value(value);
}

std::string json_text(const boost::json::value& value, JsonTextStyle style) {
    std::string out;
    append_json_text(out, value, style);
    return out;
}

} // namespace jobspec::support
