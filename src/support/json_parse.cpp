#include "support/json_parse.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value_stack.hpp>

namespace jobspec::support {

double exact_double(std::string_view number, double fallback) noexcept {
    double d = 0;
    const auto r = std::from_chars(number.data(), number.data() + number.size(), d);
    return r.ec == std::errc() && r.ptr == number.data() + number.size() ? d : fallback;
}

namespace {

using boost::json::error_code;
using boost::json::string_view;

/// Boost.JSON's own value building, with doubles read from their text.
class ValueHandler {
public:
    static constexpr std::size_t max_object_size = boost::json::object::max_size();
    static constexpr std::size_t max_array_size = boost::json::array::max_size();
    static constexpr std::size_t max_key_size = boost::json::string::max_size();
    static constexpr std::size_t max_string_size = boost::json::string::max_size();

    explicit ValueHandler(boost::json::storage_ptr sp) { stack_.reset(std::move(sp)); }

    boost::json::value release() { return stack_.release(); }

    bool on_document_begin(error_code&) { return true; }
    bool on_document_end(error_code&) { return true; }
    bool on_object_begin(error_code&) { return true; }
    bool on_object_end(std::size_t n, error_code&) {
        stack_.push_object(n);
        return true;
    }
    bool on_array_begin(error_code&) { return true; }
    bool on_array_end(std::size_t n, error_code&) {
        stack_.push_array(n);
        return true;
    }
    bool on_key_part(string_view s, std::size_t, error_code&) {
        stack_.push_chars(s);
        return true;
    }
    bool on_key(string_view s, std::size_t, error_code&) {
        stack_.push_key(s);
        return true;
    }
    bool on_string_part(string_view s, std::size_t, error_code&) {
        stack_.push_chars(s);
        return true;
    }
    bool on_string(string_view s, std::size_t, error_code&) {
        stack_.push_string(s);
        return true;
    }
    bool on_number_part(string_view s, error_code&) {
        number_.append(s.data(), s.size());
        return true;
    }
    bool on_int64(std::int64_t i, string_view, error_code&) {
        number_.clear();
        stack_.push_int64(i);
        return true;
    }
    bool on_uint64(std::uint64_t u, string_view, error_code&) {
        number_.clear();
        stack_.push_uint64(u);
        return true;
    }
    bool on_double(double d, string_view s, error_code& ec) {
        number_.append(s.data(), s.size());
        const double exact = exact_double(number_, d);
        number_.clear();
        if (!std::isfinite(exact)) {
            ec = boost::json::error::exponent_overflow;
            return false;
        }
        stack_.push_double(exact);
        return true;
    }
    bool on_bool(bool b, error_code&) {
        stack_.push_bool(b);
        return true;
    }
    bool on_null(error_code&) {
        stack_.push_null();
        return true;
    }
    bool on_comment_part(string_view, error_code&) { return true; }
    bool on_comment(string_view, error_code&) { return true; }

private:
    boost::json::value_stack stack_;
    std::string number_;
};

} // namespace

boost::json::value parse_json(std::string_view text, error_code& ec, std::size_t max_depth,
                              boost::json::storage_ptr sp, std::size_t* used) {
    boost::json::parse_options options;
    options.max_depth = max_depth;
    boost::json::basic_parser<ValueHandler> parser(options, std::move(sp));
    const std::size_t n = parser.write_some(false, text.data(), text.size(), ec);
    if (used != nullptr)
        *used = n;
    else if (!ec && n < text.size())
        ec = boost::json::error::extra_data;
    if (ec)
        return nullptr;
    return parser.handler().release();
}

} // namespace jobspec::support
