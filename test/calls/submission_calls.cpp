// The submission path's calls, counted: the readers, writers and checks it reaches are
// wrapped at link time (-Wl,--wrap), and each compile of the cases is checked for
//   - no round trip: no reader (JSON text, document tree, shape, query) runs after a
//     writer (JSON value or text) has run: what is written is never read again;
//   - no second path: never the document readers (read_jobspec, lower_jobspec; and
//     DocNode::from_json only for -S values an API gave as JSON values) nor the shape
//     and query doors, which check what they compile (compile_shape,
//     parse_constraint_query);
//   - each check once: the canonical, size, V1 and encoding passes and the resource
//     check at most once, the dependency rules once per dependency;
//   - each text read once: a shape and a query parsed at most once, JSON read at most
//     once per text that can hold it.
// Usage: submission-calls COMPILE_CASES.json
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>

#include <jobspec/constraint_model.hpp>
#include <jobspec/dependency.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>

#include <jobspec/document.hpp>

#include "support/json_text.hpp"
#include "syntax/document_tree.hpp"
#include "syntax/query_parser.hpp"
#include "syntax/shape_parser.hpp"

#include "call_wrap.hpp"

namespace {

std::vector<std::string> calls;

} // namespace

void record_call(const char* name) {
    calls.push_back(name);
}

using namespace jobspec;
using std::string_view;

// Readers.
JOBSPEC_WRAP("_ZN7jobspec6syntax9read_jsonESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "6LimitsERNS_11DiagnosticsERKNS0_11JsonDialectEPm",
             read_json, std::optional<syntax::DocNode>,
             (string_view t, const Limits& l, Diagnostics& d, const syntax::JsonDialect& j,
              unsigned long* n),
             (t, l, d, j, n))
JOBSPEC_WRAP("_ZN7jobspec6syntax7DocNode9from_jsonERKN5boost4json5valueE", from_json,
             syntax::DocNode, (const boost::json::value& v), (v))
JOBSPEC_WRAP("_ZN7jobspec5lower13lower_jobspecERKNS_6syntax7DocNodeENS_7DialectERNS_"
             "11DiagnosticsE",
             lower_jobspec, Jobspec, (const syntax::DocNode& n, Dialect x, Diagnostics& d),
             (n, x, d))
JOBSPEC_WRAP("_ZN7jobspec12read_jobspecESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "11ReadOptionsE",
             read_jobspec, Result<Jobspec>, (string_view t, const ReadOptions& o), (t, o))
JOBSPEC_WRAP("_ZN7jobspec6syntax11parse_shapeESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "6LimitsERNS_11DiagnosticsEPNS0_13ParseObserverE",
             parse_shape, std::optional<syntax::ParsedShape>,
             (string_view t, const Limits& l, Diagnostics& d, syntax::ParseObserver* o),
             (t, l, d, o))
JOBSPEC_WRAP("_ZN7jobspec6syntax11parse_queryESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "6LimitsERNS_11DiagnosticsEPNS0_13ParseObserverE",
             parse_query, std::optional<syntax::ParsedQuery>,
             (string_view t, const Limits& l, Diagnostics& d, syntax::ParseObserver* o),
             (t, l, d, o))
JOBSPEC_WRAP("_ZN7jobspec13compile_shapeESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "12ShapeOptionsE",
             compile_shape, Result<ResourceList>, (string_view t, const ShapeOptions& o), (t, o))
JOBSPEC_WRAP("_ZN7jobspec22parse_constraint_queryESt17basic_string_viewIcSt11char_traitsIcEERKNS_"
             "12QueryOptionsE",
             parse_constraint_query, Result<Constraint>, (string_view t, const QueryOptions& o),
             (t, o))
// Writers.
JOBSPEC_WRAP("_ZN7jobspec13to_json_valueERKNS_10ConstraintE", constraint_value, boost::json::value,
             (const Constraint& c), (c))
JOBSPEC_WRAP("_ZN7jobspec13to_json_valueERKNS_10DependencyE", dependency_value, boost::json::value,
             (const Dependency& c), (c))
JOBSPEC_WRAP("_ZN7jobspec13to_json_valueERKNS_7JobspecENS_10CountStyleE", jobspec_value,
             boost::json::value, (const Jobspec& j, CountStyle s), (j, s))
JOBSPEC_WRAP("_ZN7jobspec13to_json_valueERKSt6vectorINS_14ResourceVertexESaIS1_EENS_"
             "10CountStyleEN5boost4json11storage_ptrE",
             resources_value, boost::json::value,
             (const ResourceList& r, CountStyle s, boost::json::storage_ptr p), (r, s, p))
JOBSPEC_WRAP("_ZN7jobspec12to_json_textB5cxx11ERKN5boost4json5valueEb", json_text, std::string,
             (const boost::json::value& v, bool p), (v, p))
JOBSPEC_WRAP("_ZN7jobspec7support16append_json_textERNSt7__cxx1112basic_stringIcSt11char_"
             "traitsIcESaIcEEERKN5boost4json5valueENS0_13JsonTextStyleE",
             append_json_text, void,
             (std::string & out, const boost::json::value& v, support::JsonTextStyle s),
             (out, v, s))
// Checks.
JOBSPEC_WRAP("_ZN7jobspec4sema15check_canonicalERKNS_7JobspecERNS_11DiagnosticsE", check_canonical,
             void, (const Jobspec& j, Diagnostics& d), (j, d))
JOBSPEC_WRAP("_ZN7jobspec4sema19check_text_encodingERKNS_7JobspecERNS_11DiagnosticsE",
             check_text_encoding, void, (const Jobspec& j, Diagnostics& d), (j, d))
JOBSPEC_WRAP("_ZN7jobspec4sema8check_v1ERKNS_7JobspecERNS_11DiagnosticsE", check_v1, void,
             (const Jobspec& j, Diagnostics& d), (j, d))
JOBSPEC_WRAP("_ZN7jobspec4sema11check_sizesERKNS_7JobspecERKNS_6LimitsERNS_11DiagnosticsE",
             check_sizes, void, (const Jobspec& j, const Limits& l, Diagnostics& d), (j, l, d))
JOBSPEC_WRAP("_ZN7jobspec4sema15check_resourcesERKSt6vectorINS_14ResourceVertexESaIS2_EESt17"
             "basic_string_viewIcSt11char_traitsIcEERNS_11DiagnosticsENS_7DialectE",
             check_resources, void,
             (const ResourceList& r, string_view p, Diagnostics& d, Dialect x), (r, p, d, x))
JOBSPEC_WRAP("_ZN7jobspec16check_dependencyERKNS_10DependencyENS_17DependencyContextEbSt17basic_"
             "string_viewIcSt11char_traitsIcEERNS_11DiagnosticsE",
             check_dependency, void,
             (const Dependency& x, DependencyContext c, bool u, string_view p, Diagnostics& d),
             (x, c, u, p, d))

namespace {

const std::vector<std::string> readers = {
    "read_json",   "from_json",   "lower_jobspec", "read_jobspec",
    "parse_shape", "parse_query", "compile_shape", "parse_constraint_query"};
const std::vector<std::string> writers = {"constraint_value", "dependency_value",
                                          "jobspec_value",    "resources_value",
                                          "json_text",        "append_json_text"};

bool is_one_of(const std::string& name, const std::vector<std::string>& names) {
    for (const auto& n : names)
        if (n == name)
            return true;
    return false;
}

/// Files the cases name, served by the context's one door.
SubmitFile serve(string_view path, std::size_t) {
    static const std::map<std::string, std::string, std::less<>> files = {
        {"r.json", R"({"resources": [{"type": "slot", "count": 2, "label": "task", )"
                   R"("with": [{"type": "core", "count": 1}]}]})"},
        {"v.json", R"({"a": [1, 2]})"},
        {"f.txt", "hello\n"},
        {"s.sh", "#!/bin/sh\nhostname\n"},
        {"envfile", "X=1\n"},
        {"d.sh", "#!/bin/sh\n#flux: -N2\n#flux: --setattr=user.x=1\n#flux: -q debug\nhostname\n"},
    };
    const auto it = files.find(path);
    if (it == files.end())
        return SubmitFile{{}, 0, 2, false};
    return SubmitFile{it->second, 0100644, 0, false};
}

/// Cases beyond the flux-compat corpus: every option that is lowered from its own text.
const std::vector<std::pair<std::string, std::vector<std::string>>> extra_cases = {
    {"run", {"--resources-shape=node=2/slot/core=2", "--requires=ssd and host:a[1-2]", "app"}},
    {"run", {"--dependency=afterok:1?x=1&x=2", "--dependency=after:2", "--begin-time=+1h", "app"}},
    {"run", {"--resources-json=r.json", "-S", "system.duration=5", "-S", "user.x=[1,2]", "app"}},
    {"run", {"-S", "system.environment.FOO=bar", "-S", "^user.v=v.json", "-o", "a.b=1", "app"}},
    {"run", {"--requires=a", "-S", "system.constraints.properties=[\"b\"]", "-t", "5m", "app"}},
    {"run", {"-N2", "-n4", "-x", "--taskmap=cyclic:2", "--signal=USR1@30", "-S", "queue=q", "app"}},
    {"submit", {"--cc=1-2", "--job-name=j{cc}", "--add-file=f.txt", "app"}},
    {"batch", {"-n2", "--conf=a=1", "s.sh"}},
    {"batch", {"-q", "batch", "d.sh"}},
    {"alloc", {"-N1", "--bg", "-S", "system.job.x=a"}},
    {"run", {"--resources-shape=slot=1/core=2,4", "app"}},
    {"run", {"-S", "duration=NaN", "app"}},
    {"run", {"--requires=ssd and (", "app"}},
};

int failures = 0;

void expect(bool ok, const std::string& what, const std::string& name) {
    if (ok)
        return;
    ++failures;
    std::fprintf(stderr, "FAIL [%s]: %s; calls:", name.c_str(), what.c_str());
    for (const auto& c : calls)
        std::fprintf(stderr, " %s", c.c_str());
    std::fprintf(stderr, "\n");
}

std::size_t count(const std::string& name) {
    std::size_t n = 0;
    for (const auto& c : calls)
        n += c == name;
    return n;
}

void check_case(const std::string& command, const std::vector<std::string>& words,
                const std::string& name, const std::vector<SubmitSetting>& settings = {},
                const SubmitOptions& given = {}) {
    SubmitOptions start = given;
    start.command = *submit_command_named(command);
    SubmitContext context;
    context.environment = {{"HOME", "/home/u"}, {"PATH", "/bin"}};
    context.cwd = "/w";
    context.read_file = serve;
    auto options = settings.empty() ? read_submission(words, start, context)
                                    : read_submission(settings, words, start, context);
    if (!options.ok())
        return;
    calls.clear();
    (void)compile_submission(options.value(), context);
    const SubmitOptions& o = options.value();

    bool written = false;
    for (const auto& c : calls) {
        written = written || is_one_of(c, writers);
        expect(!(written && is_one_of(c, readers)), c + " after a writer: a round trip", name);
    }
    expect(count("from_json") <= o.setattr_values.size() + o.setopt_values.size(),
           "a value read into a tree that is not an -S value an API gave", name);
    for (const char* never :
         {"lower_jobspec", "read_jobspec", "compile_shape", "parse_constraint_query"})
        expect(count(never) == 0, std::string(never) + " on the submission path", name);
    for (const char* once :
         {"check_canonical", "check_text_encoding", "check_v1", "check_sizes", "check_resources"})
        expect(count(once) <= 1, std::string(once) + " more than once", name);
    expect(count("check_dependency") <= o.dependencies.size(), "a dependency checked twice", name);
    expect(count("parse_shape") <= (o.resources_shape ? 1U : 0U), "the shape read twice", name);
    expect(count("parse_query") <= (o.requires_terms.empty() ? 0U : 1U), "the query read twice",
           name);
    const std::size_t json_texts =
        o.setattrs.size() + o.setopts.size() + o.conf.size() + (o.resources_json ? 1 : 0);
    expect(count("read_json") <= json_texts, "JSON read more often than texts given", name);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: submission-calls COMPILE_CASES.json\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    const auto cases = boost::json::parse(text.str()).as_array();
    std::size_t checked = 0;
    for (const auto& c : cases) {
        std::vector<std::string> words;
        for (const auto& w : c.at("arguments").as_array())
            words.emplace_back(w.as_string());
        check_case(std::string(c.at("command").as_string()), words,
                   std::string(c.at("name").as_string()));
        ++checked;
    }
    for (const auto& [command, words] : extra_cases) {
        std::string name = command;
        for (const auto& w : words)
            name += " " + w;
        check_case(command, words, name);
        ++checked;
    }
    // Options an API gave by name, with -S and -o values as JSON values.
    SubmitOptions typed;
    typed.setattr_values = {{"user.x", boost::json::array{1, 2}}, {"duration", 5}};
    typed.setopt_values = {{"a.b", true}};
    check_case("run", {"app"}, "typed values", {{"nodes", "2"}, {"exclusive", std::nullopt}},
               typed);
    ++checked;
    // The wraps are in place: a compile reaches the checks (else this test proves nothing).
    calls.clear();
    SubmitOptions one;
    one.arguments = {"app"};
    SubmitContext context;
    (void)compile_submission(one, context);
    expect(count("check_canonical") == 1 && count("check_v1") == 1, "the wraps see no call", "app");
    std::printf("%zu compiles checked, %d failures\n", checked, failures);
    return failures == 0 ? 0 : 1;
}
