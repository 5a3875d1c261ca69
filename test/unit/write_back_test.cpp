// shape_of and query_of: generated shapes, queries and RFC 31 objects, each written back
// and compiled again (issue 59). The seed is printed; JOBSPEC_WRITE_BACK_SEED replays it.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include <jobspec/constraint.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/write_back.hpp>

#include "random_seed.hpp"

namespace {

using Rng = std::mt19937;

unsigned seed() {
    static const unsigned s = jobspec::test::random_seed("JOBSPEC_WRITE_BACK_SEED", "write-back");
    return s;
}

std::size_t pick(Rng& g, std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(g);
}

template <class T>
const T& one_of(Rng& g, const std::vector<T>& v) {
    return v[pick(g, v.size())];
}

/// Shapes spelled in the ways people and flux-core write them: counts as numbers, idsets
/// and ranges, bracketed or not; keys bare, signed, quoted; values of every JSON kind,
/// quoted strings with escapes and non-ASCII text; lists bracketed; spaces between tokens.
class ShapeMaker {
public:
    explicit ShapeMaker(Rng& g) : g_(g) {}

    std::string shape() {
        slots_ = 0;
        return list(0);
    }

private:
    std::string space() { return pick(g_, 6) == 0 ? " " : ""; }

    std::string list(int depth) {
        const std::size_t n = pick(g_, 4) == 0 ? 2 + pick(g_, 2) : 1;
        if (n == 1 && pick(g_, 4) != 0)
            return vertex(depth);
        std::string out = "[" + space();
        for (std::size_t i = 0; i < n; ++i)
            out += (i ? space() + ";" + space() : "") + vertex(depth);
        return out + space() + "]";
    }

    std::string vertex(int depth) {
        const bool slot = depth < 3 && pick(g_, 3) == 0;
        std::string out =
            slot ? one_of(g_, std::vector<std::string>{"slot", "slot", "Slot", "\"slot\""})
                 : one_of(g_, std::vector<std::string>{"node", "socket", "core", "gpu", "memory",
                                                       "\"a b\"", "\"x\"", "'odd;type'", "\"SLOT\"",
                                                       "ib10g", "hw.thread"});
        if (pick(g_, 3) != 0)
            out += space() + "=" + space() + count();
        const std::string items = dict(slot, 0);
        out += items;
        if (slot || (depth < 4 && pick(g_, 2) == 0))
            out += space() + "/" + space() + list(depth + 1);
        return out;
    }

    std::string count() {
        const std::string c =
            one_of(g_, std::vector<std::string>{"1", "2", "4", "16", "1,3", "2,4-6", "1,2,3", "4,5",
                                                "1-4", "2+", "3-30", "1-9:2", "2-32:2:*", "2+:1",
                                                "2+:3", "2-16:2:^", "5", "12"});
        return pick(g_, 5) == 0 ? "[" + c + "]" : c;
    }

    std::string dict(bool slot, int depth) {
        const std::size_t n = pick(g_, 4);
        if (!slot && n == 0)
            return "";
        std::vector<std::string> items;
        if (slot && depth == 0 && (n > 0 || pick(g_, 3) == 0)) {
            // Labels differ, as RFC 14 wants them to; quoted in either style at times.
            std::string label =
                one_of(g_, std::vector<std::string>{"task", "default", "a", "two words", "db", "q",
                                                    "\\u00e9t\\u00e9"}) +
                (slots_++ ? std::to_string(slots_) : "");
            const bool plain = label.find_first_of(" \\") == std::string::npos;
            const std::size_t style = pick(g_, plain ? 3 : 1);
            items.push_back(style == 0   ? "\"" + label + "\""
                            : style == 1 ? "'" + label + "'"
                                         : label);
        }
        for (std::size_t i = 0; i < n; ++i) {
            switch (pick(g_, 5)) {
            case 0:
                items.push_back(one_of(g_, std::vector<std::string>{"x", "-x", "+x"}));
                break;
            case 1:
                items.push_back(one_of(g_, std::vector<std::string>{"+", "-", ""}) + "k" +
                                std::to_string(i));
                break;
            default: {
                // A key of its own, bare where it can be, quoted in either style.
                const std::string name =
                    one_of(g_, std::vector<std::string>{"unit", "key", "x", "a:b", "-y", "é"}) +
                    (pick(g_, 2) ? std::to_string(depth) + std::to_string(i) : "");
                const bool plain = name.find_first_of(":-\xc3") == std::string::npos;
                const std::size_t style = pick(g_, plain ? 3 : 2);
                items.push_back((style == 0   ? "\"" + name + "\""
                                 : style == 1 ? "'" + name + "'"
                                              : name) +
                                ":" + space() + value(depth));
            }
            }
        }
        if (items.empty())
            return "";
        std::string out = "{";
        for (std::size_t i = 0; i < items.size(); ++i)
            out += (i ? "," + space() : "") + items[i];
        return out + "}";
    }

    std::string value(int depth) {
        switch (pick(g_, depth < 2 ? 6 : 4)) {
        case 0:
            return one_of(g_, std::vector<std::string>{"GB", "true", "false", "null", "ab-c.d",
                                                       "url:http://x/y", "a=b;c", "-1"});
        case 1:
            return one_of(g_, std::vector<std::string>{"0", "42", "-7", "2.5", "1e3", "-0.25",
                                                       "9223372036854775807"});
        case 2:
            return one_of(g_,
                          std::vector<std::string>{"\"true\"", "\"12\"", "\"\"", "\"tab\\there\"",
                                                   "\"\\u202e\"", "\"caf\\u00e9 \\ud83d\\ude00\"",
                                                   "'a b'", "\"q\\\"uote\"", "\"\\u001b[0m\""});
        case 3:
            return "[]";
        case 4: {
            std::string out = "[";
            for (std::size_t i = 0, n = 1 + pick(g_, 3); i < n; ++i)
                out += (i ? "," : "") + value(depth + 1);
            return out + "]";
        }
        default: {
            const std::string inner = dict(false, depth + 1);
            return inner.empty() ? "{}" : inner;
        }
        }
    }

    Rng& g_;
    int slots_ = 0;
};

/// Queries in flux's --requires language: bare, signed and quoted properties, host and
/// rank terms, and, or, not and juxtaposition, parentheses.
class QueryMaker {
public:
    explicit QueryMaker(Rng& g) : g_(g) {}

    std::string query(int depth = 0) {
        switch (pick(g_, depth < 3 ? 6 : 2)) {
        case 0:
        case 1:
            return term();
        case 2:
            return query(depth + 1) +
                   one_of(g_, std::vector<std::string>{" and ", " & ", " && ", " ", ","}) + term();
        case 3:
            return query(depth + 1) + one_of(g_, std::vector<std::string>{" or ", "|", " || "}) +
                   query(depth + 1);
        case 4:
            return one_of(g_, std::vector<std::string>{"not ", "-"}) + term();
        default:
            return "(" + query(depth + 1) + ")" +
                   one_of(g_, std::vector<std::string>{" and ", " or ", " "}) + "not " + term();
        }
    }

private:
    std::string term() {
        switch (pick(g_, 5)) {
        case 0:
            return one_of(g_, std::vector<std::string>{"host:node[0-3]", "hosts:node1,node7",
                                                       "hostlist:node[2,5-6]", "host:'node4'"});
        case 1:
            return one_of(
                g_, std::vector<std::string>{"rank:0", "ranks:1-3,6", "rank:5", "rank:'2-4'"});
        case 2:
            return one_of(g_, std::vector<std::string>{"properties:ssd", "^ssd", "'big mem'",
                                                       "gpu,^ssd", "\"x.y\"", "'and'"});
        default:
            return one_of(g_, std::vector<std::string>{"ssd", "gpu", "bigmem", "a", "b", "c"});
        }
    }

    Rng& g_;
};

/// RFC 31 objects beyond what a query compiles to: one-child and/or, and of properties
/// apart, several hostlists or ranks in one term.
jobspec::Constraint object(Rng& g, int depth = 0) {
    using jobspec::Constraint;
    switch (pick(g, depth < 3 ? 6 : 3)) {
    case 0: {
        std::vector<std::string> values;
        for (std::size_t i = 0, n = 1 + pick(g, 3); i < n; ++i)
            values.push_back(one_of(
                g, std::vector<std::string>{"ssd", "^ssd", "gpu", "^gpu", "big mem", "and", "-x"}));
        return Constraint{"properties", std::move(values)};
    }
    case 1: {
        std::vector<std::string> values;
        for (std::size_t i = 0, n = 1 + pick(g, 2); i < n; ++i)
            values.push_back(
                one_of(g, std::vector<std::string>{"node[0-3]", "node7", "node[1,5]", "other"}));
        return Constraint{"hostlist", std::move(values)};
    }
    case 2: {
        std::vector<std::string> values;
        for (std::size_t i = 0, n = 1 + pick(g, 2); i < n; ++i)
            values.push_back(one_of(g, std::vector<std::string>{"0", "1-3", "2,6-7", "5"}));
        return Constraint{"ranks", std::move(values)};
    }
    case 3:
        return Constraint{"not", {}, {object(g, depth + 1)}};
    default: {
        const char* op = pick(g, 2) ? "and" : "or";
        std::vector<Constraint> children;
        for (std::size_t i = 0, n = 1 + pick(g, 3); i < n; ++i)
            children.push_back(object(g, depth + 1));
        return Constraint{op, {}, std::move(children)};
    }
    }
}

/// Eight nodes, properties ssd on 0-3, gpu on 2-5, "big mem" on 6, "and" on 7, "-x" on 1.
jobspec::ResourceSet eight_nodes() {
    auto r = jobspec::read_resource_set(R"({"version":1,"execution":{"R_lite":[
        {"rank":"0-7","children":{"core":"0-3"}}],"nodelist":["node[0-7]"],
        "properties":{"ssd":"0-3","gpu":"2-5","big mem":"6","and":"7","-x":"1"}}})");
    REQUIRE(r.ok());
    return r.value();
}

} // namespace

TEST_CASE("write back - 10,000 generated shapes compile back to what they said") {
    Rng g(seed());
    ShapeMaker maker(g);
    // About half the shapes generated compile (duplicate keys, wrong value types): as
    // many are made as it takes for 10,000 that do.
    std::size_t compiled = 0;
    for (int i = 0; i < 40000 && compiled < 10000; ++i) {
        const std::string shape = maker.shape();
        auto first = jobspec::compile_shape(shape);
        if (!first.ok())
            continue;
        ++compiled;
        auto written = jobspec::shape_of(first.value());
        CAPTURE(shape);
        REQUIRE_MESSAGE(written.ok(), written.diagnostics()[0].message);
        CAPTURE(written.value().text);
        auto again = jobspec::compile_shape(written.value().text);
        REQUIRE_MESSAGE(again.ok(), again.diagnostics()[0].message);
        CHECK(jobspec::to_json_text(again.value()) == jobspec::to_json_text(first.value()));
        // Written once more, it is the same text: the writer has one spelling.
        CHECK(jobspec::shape_of(again.value()).value().text == written.value().text);
        // Each vertex's span is its own shape.
        for (const auto& span : written.value().spans) {
            const auto part = jobspec::compile_shape(
                std::string_view(written.value().text).substr(span.offset, span.length));
            CHECK_MESSAGE(part.ok(), span.pointer);
        }
    }
    // A generator whose shapes all failed would prove nothing.
    CHECK(compiled == 10000);
}

TEST_CASE("write back - 10,000 generated queries compile back to the same constraint") {
    Rng g(seed() + 1);
    QueryMaker maker(g);
    std::size_t compiled = 0;
    for (int i = 0; i < 10000; ++i) {
        const std::string query = maker.query();
        auto first = jobspec::parse_constraint_query(query);
        if (!first.ok())
            continue;
        ++compiled;
        auto written = jobspec::query_of(first.value());
        CAPTURE(query);
        REQUIRE_MESSAGE(written.ok(), written.diagnostics()[0].message);
        CAPTURE(written.value().text);
        auto again = jobspec::parse_constraint_query(written.value().text);
        REQUIRE_MESSAGE(again.ok(), again.diagnostics()[0].message);
        CHECK(jobspec::to_json_text(jobspec::to_json_value(again.value())) ==
              jobspec::to_json_text(jobspec::to_json_value(first.value())));
    }
    CHECK(compiled > 5000);
}

TEST_CASE("write back - 10,000 generated RFC 31 objects match the same nodes as their query") {
    Rng g(seed() + 2);
    const auto r = eight_nodes();
    for (int i = 0; i < 10000; ++i) {
        const jobspec::Constraint c = object(g);
        const std::string json = jobspec::to_json_text(jobspec::to_json_value(c));
        CAPTURE(json);
        auto written = jobspec::query_of(c);
        REQUIRE_MESSAGE(written.ok(), written.diagnostics()[0].message);
        CAPTURE(written.value().text);
        auto again = jobspec::parse_constraint_query(written.value().text);
        REQUIRE_MESSAGE(again.ok(), again.diagnostics()[0].message);
        CHECK(again.value().match(r).value().format() == c.match(r).value().format());
    }
}

TEST_CASE("write back - what no shape or query says is refused, located") {
    jobspec::ResourceList empty_with(1);
    empty_with[0].type = "node";
    empty_with[0].has_with = true;
    auto shape = jobspec::shape_of(empty_with, "default", "/resources");
    REQUIRE_FALSE(shape.ok());
    CHECK(shape.diagnostics()[0].code == jobspec::Code::shape_unwritable);
    CHECK(shape.diagnostics()[0].location.pointer == "/resources/0/with");
    CHECK_FALSE(jobspec::shape_of({}).ok());

    jobspec::Constraint unknown{"frob", {"x"}, {}};
    auto query = jobspec::query_of(jobspec::Constraint{"or", {}, {unknown}}, "/c");
    REQUIRE_FALSE(query.ok());
    CHECK(query.diagnostics()[0].code == jobspec::Code::query_unwritable);
    CHECK(query.diagnostics()[0].location.pointer == "/c/or/0");
}
