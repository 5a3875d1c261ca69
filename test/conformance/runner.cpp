// The conformance runner: reads the data files of one suite and checks each case.
//   conformance-runner jobspec DIR
//     DIR/valid/*            documents the canonical pass accepts; "v1-*" ones also pass V1.
//                            Each one's canonical JSON must read back to the same JSON.
//     DIR/invalid/, DIR/invalid-v1/   documents and expected.txt, "FILE<TAB>CODE<TAB>POINTER"
//                            per expected diagnostic ('-': no pointer); invalid-v1 is read
//                            with the V1 pass. Every document there must be listed.
//     DIR/valid-fluxion/, DIR/invalid-fluxion/   the same, read in the Fluxion dialect.
//   conformance-runner dependency DIR
//     DIR/valid.txt          "URI<TAB>EXPECTED JSON"; "#! allow-unknown-scheme" applies below it
//     DIR/invalid.txt        "CODE<TAB>COLUMN<TAB>URI": the first error
//     DIR/workflow/NAME.yaml|.json   a workflow; NAME.expected.json its resolved graph
//   conformance-runner R DIR
//     DIR/valid/*.json       R that reads without errors and writes back to itself
//     DIR/invalid/ + expected.txt   as for jobspec: every file listed, each (code, pointer)
//   conformance-runner constraint DIR
//     DIR/queries.txt        "QUERY<TAB>EXPECTED JSON"; "#! default-operator NAME" applies below
//     DIR/invalid.txt        "CODE<TAB>COLUMN<TAB>QUERY": the first error
//     DIR/invalid-json.txt   "CODE<TAB>POINTER<TAB>RFC 31 JSON"
//     DIR/match.txt          "RFC 31 JSON<TAB>EXPECTED RANKS" against DIR/r.json
//   conformance-runner shape DIR
//     DIR/valid/NAME.shape   the shape (lines starting with '#' are comments; a line
//                            "#! key=value" sets an option: counts=string, default-label=X)
//     DIR/valid/NAME.yaml|.json   the expected resources (YAML as the RFCs print it)
//     DIR/invalid.txt        "CODE<TAB>COLUMN<TAB>SHAPE" per line: the first error
// Prints every failure and a summary; exits 1 when any case fails.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <yaml-cpp/yaml.h>

#include <boost/json/serialize.hpp>
#include <jobspec/constraint.hpp>
#include <jobspec/dependency.hpp>

#include <jobspec/document.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/resource_set.hpp>
#include <jobspec/shape.hpp>
#include <jobspec/submit.hpp>
#include <jobspec/workflow.hpp>
#include <jobspec/write_back.hpp>

#include "support/utf8.hpp"
#include "yaml_to_json.hpp"

namespace fs = std::filesystem;

namespace {

struct Tally {
    int passed = 0;
    int failed = 0;

    void check(bool ok, const std::string& name, const std::string& detail) {
        if (ok) {
            ++passed;
            return;
        }
        ++failed;
        std::cout << "FAIL " << name << "\n" << detail << "\n";
    }
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<fs::path> files_with(const fs::path& dir, const std::string& extension) {
    std::vector<fs::path> out;
    if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == extension)
                out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// The expected value next to a case file: NAME.json or NAME.yaml.
boost::json::value expected_value(const fs::path& case_file) {
    auto json = case_file;
    json.replace_extension(".json");
    if (fs::exists(json))
        return boost::json::parse(read_file(json));
    auto yaml = case_file;
    yaml.replace_extension(".yaml");
    return test::yaml_to_json(YAML::LoadFile(yaml.string()));
}

std::string diagnostics_text(const jobspec::Diagnostics& d) {
    std::string out;
    for (const auto& item : d) {
        out += "  " + std::string(item.code_name()) + ": " + item.message;
        if (item.location.range.known())
            out += " @" + std::to_string(item.location.range.begin + 1);
        out += "\n";
    }
    return out;
}

/// The shape written back from `resources` compiles to them again (issue 59).
void shape_round_trip(const jobspec::ResourceList& resources, const jobspec::ShapeOptions& options,
                      const std::string& name, Tally& tally) {
    auto written = jobspec::shape_of(resources, options.default_label);
    if (!written.ok()) {
        tally.check(false, name + " (shape_of)", diagnostics_text(written.diagnostics()));
        return;
    }
    auto again = jobspec::compile_shape(written.value().text, options);
    const std::string want = jobspec::to_json_text(resources);
    const std::string got =
        again.ok() ? jobspec::to_json_text(again.value()) : diagnostics_text(again.diagnostics());
    tally.check(got == want, name + " (written back as " + written.value().text + ")",
                "  want " + want + "  got  " + got);
}

void valid_shapes(const fs::path& dir, Tally& tally) {
    for (const auto& file : files_with(dir / "valid", ".shape")) {
        jobspec::ShapeOptions options;
        auto counts = jobspec::CountStyle::dict;
        std::string shape;
        std::istringstream lines(read_file(file));
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("#!", 0) == 0) {
                const auto eq = line.find('=');
                const std::string key = line.substr(3, eq - 3);
                const std::string value = line.substr(eq + 1);
                if (key == "counts")
                    counts =
                        value == "string" ? jobspec::CountStyle::string : jobspec::CountStyle::dict;
                else if (key == "default-label")
                    options.default_label = value;
            } else if (!line.empty() && line[0] != '#') {
                shape = line;
            }
        }
        const std::string name = file.filename().string();
        auto result = jobspec::compile_shape(shape, options);
        if (!result.ok()) {
            tally.check(false, name, "  " + shape + "\n" + diagnostics_text(result.diagnostics()));
            continue;
        }
        // The direct writer and the JSON value must agree, for both count styles.
        const std::string got = jobspec::to_json_text(result.value(), counts);
        const std::string want = jobspec::to_json_text(expected_value(file));
        tally.check(got == want, name, "  " + shape + "\n  want " + want + "  got  " + got);
        shape_round_trip(result.value(), options, name, tally);
        for (const auto style : {jobspec::CountStyle::dict, jobspec::CountStyle::string}) {
            const std::string direct = jobspec::to_json_text(result.value(), style);
            const std::string via_value =
                jobspec::to_json_text(jobspec::to_json_value(result.value(), style));
            tally.check(direct == via_value, name + " (direct writer)",
                        "  value: " + via_value + "  direct: " + direct);
        }
    }
}

/// The first error of `d` as "code column" (column from 1, in characters of `source`).
std::string first_error(const jobspec::Diagnostics& d, std::string_view source) {
    for (const auto& item : d) {
        if (item.severity != jobspec::Severity::error)
            continue;
        std::string out(item.code_name());
        if (item.location.range.known())
            out += " " + std::to_string(1 + jobspec::support::count_code_points(
                                                source.substr(0, item.location.range.begin)));
        return out;
    }
    return "(no error)";
}

/// Runs `check` on each "CODE<TAB>COLUMN<TAB>INPUT" line of an invalid-cases file, and
/// `directive` on each "#! TEXT" line.
template <class Check, class Directive = void (*)(const std::string&)>
void invalid_lines(
    const fs::path& file, Tally& tally, Check check,
    Directive directive = [](const std::string&) {}) {
    std::istringstream lines(read_file(file));
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        if (line.rfind("#! ", 0) == 0)
            directive(line.substr(3));
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab1 = line.find('\t');
        const auto tab2 = line.find('\t', tab1 + 1);
        const std::string name = file.filename().string() + ":" + std::to_string(number);
        if (tab1 == std::string::npos || tab2 == std::string::npos) {
            tally.check(false, name, "  malformed line");
            continue;
        }
        const std::string input = line.substr(tab2 + 1);
        const std::string want =
            line.substr(0, tab1) + " " + line.substr(tab1 + 1, tab2 - tab1 - 1);
        const jobspec::Diagnostics got = check(input);
        tally.check(first_error(got, input) == want, name + " '" + input + "'",
                    "  want " + want + "\n  got  " + first_error(got, input) + "\n" +
                        diagnostics_text(got));
    }
}

void dependencies(const fs::path& dir, Tally& tally) {
    std::istringstream lines(read_file(dir / "valid.txt"));
    jobspec::DependencyOptions options;
    for (std::string line; std::getline(lines, line);) {
        if (line == "#! allow-unknown-scheme")
            options.allow_unknown_scheme = true;
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab = line.find('\t');
        const std::string uri = line.substr(0, tab);
        auto result = jobspec::parse_dependency(uri, options);
        const std::string got = result.ok()
                                    ? jobspec::to_json_text(jobspec::to_json_value(result.value()))
                                    : "(invalid)\n";
        const std::string want = jobspec::to_json_text(boost::json::parse(line.substr(tab + 1)));
        tally.check(got == want, "valid.txt '" + uri + "'",
                    "  want " + want + "  got  " + got + diagnostics_text(result.diagnostics()));
    }
    invalid_lines(dir / "invalid.txt", tally, [](const std::string& uri) {
        return jobspec::parse_dependency(uri).diagnostics();
    });
    std::vector<fs::path> workflows;
    for (const auto& e : fs::directory_iterator(dir / "workflow")) {
        const std::string name = e.path().filename().string();
        if (name.find(".expected.") == std::string::npos)
            workflows.push_back(e.path());
    }
    std::sort(workflows.begin(), workflows.end());
    for (const auto& file : workflows) {
        auto result = jobspec::read_workflow(read_file(file));
        auto expected = file;
        expected.replace_extension(".expected.json");
        const std::string got = result.ok()
                                    ? jobspec::to_json_text(jobspec::to_json_value(result.value()))
                                    : "(invalid)\n";
        const std::string want = jobspec::to_json_text(boost::json::parse(read_file(expected)));
        tally.check(got == want, "workflow/" + file.filename().string(),
                    "  want " + want + "  got  " + got + diagnostics_text(result.diagnostics()));
    }
}

void invalid_shapes(const fs::path& dir, Tally& tally) {
    std::istringstream lines(read_file(dir / "invalid.txt"));
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab1 = line.find('\t');
        const auto tab2 = line.find('\t', tab1 + 1);
        if (tab1 == std::string::npos || tab2 == std::string::npos) {
            tally.check(false, "invalid.txt:" + std::to_string(number), "  malformed line");
            continue;
        }
        const std::string code = line.substr(0, tab1);
        const std::string column = line.substr(tab1 + 1, tab2 - tab1 - 1);
        const std::string shape = line.substr(tab2 + 1);
        auto result = jobspec::compile_shape(shape);
        std::string got = "(no error)";
        for (const auto& d : result.diagnostics()) {
            if (d.severity != jobspec::Severity::error)
                continue;
            got = std::string(d.code_name());
            if (d.location.range.known())
                got +=
                    " " + std::to_string(
                              1 + jobspec::support::count_code_points(
                                      std::string_view(shape).substr(0, d.location.range.begin)));
            break;
        }
        const std::string want = code + " " + column;
        tally.check(!result.ok() && got == want,
                    "invalid.txt:" + std::to_string(number) + " '" + shape + "'",
                    "  want " + want + "\n  got  " + got + "\n" +
                        diagnostics_text(result.diagnostics()));
    }
}

std::string codes_and_pointers(const jobspec::Diagnostics& d) {
    std::string out;
    for (const auto& item : d)
        out += "  " + std::string(item.code_name()) + " " +
               (item.location.pointer.empty() ? "-" : item.location.pointer) + ": " + item.message +
               "\n";
    return out;
}

void valid_documents(const fs::path& dir, jobspec::Dialect dialect, Tally& tally) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        const std::string name = dir.filename().string() + "/" + file.filename().string();
        const std::string text = read_file(file);
        jobspec::ReadOptions options;
        options.v1 = name.rfind("valid/v1-", 0) == 0;
        options.dialect = dialect;
        auto result = jobspec::read_jobspec(text, options);
        tally.check(result.ok(), name, codes_and_pointers(result.diagnostics()));
        if (!result.ok())
            continue;
        // The canonical form reads back to itself.
        const std::string canonical = jobspec::to_json_text(jobspec::to_json_value(result.value()));
        auto again = jobspec::read_jobspec(canonical, options);
        const std::string second =
            again.ok() ? jobspec::to_json_text(jobspec::to_json_value(again.value())) : "(invalid)";
        tally.check(second == canonical, name + " (canonical JSON round trip)",
                    "  first  " + canonical + "  second " + second +
                        codes_and_pointers(again.diagnostics()));
        if (dialect == jobspec::Dialect::rfc)
            shape_round_trip(result.value().resources, {}, name, tally);
    }
}

template <class Read>
void invalid_files(const fs::path& dir, Tally& tally, Read read);

void invalid_documents(const fs::path& dir, bool v1, jobspec::Dialect dialect, Tally& tally) {
    invalid_files(dir, tally, [v1, dialect](const std::string& text) {
        jobspec::ReadOptions options;
        options.v1 = v1;
        options.dialect = dialect;
        return jobspec::read_jobspec(text, options).diagnostics();
    });
}

template <class Read>
void invalid_files(const fs::path& dir, Tally& tally, Read read) {
    struct Expectation {
        std::string code;
        std::string pointer;
    };
    std::map<std::string, std::vector<Expectation>> expected;
    std::istringstream lines(read_file(dir / "expected.txt"));
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab1 = line.find('\t');
        const auto tab2 = line.find('\t', tab1 + 1);
        expected[line.substr(0, tab1)].push_back(
            {line.substr(tab1 + 1, tab2 - tab1 - 1), line.substr(tab2 + 1)});
    }
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string file = e.path().filename().string();
        if (file != "expected.txt" && expected.count(file) == 0)
            tally.check(false, dir.filename().string() + "/" + file, "  not in expected.txt");
    }
    for (const auto& [file, wants] : expected) {
        const std::string name = dir.filename().string() + "/" + file;
        const jobspec::Diagnostics diagnostics = read(read_file(dir / file));
        std::string missing;
        for (const auto& want : wants) {
            bool found = false;
            for (const auto& d : diagnostics)
                found = found || (d.code_name() == want.code &&
                                  (want.pointer == "-" ? d.location.pointer.empty()
                                                       : d.location.pointer == want.pointer));
            if (!found)
                missing += "  missing " + want.code + " " + want.pointer + "\n";
        }
        tally.check(diagnostics.has_errors() && missing.empty(), name,
                    missing + "  got:\n" + codes_and_pointers(diagnostics));
    }
}

void resource_sets(const fs::path& dir, Tally& tally) {
    for (const auto& file : files_with(dir / "valid", ".json")) {
        const std::string name = "valid/" + file.filename().string();
        auto result = jobspec::read_resource_set(read_file(file));
        tally.check(result.ok(), name, codes_and_pointers(result.diagnostics()));
        if (!result.ok())
            continue;
        const std::string written = jobspec::to_json_text(jobspec::to_json_value(result.value()));
        auto again = jobspec::read_resource_set(written);
        const std::string second =
            again.ok() ? jobspec::to_json_text(jobspec::to_json_value(again.value()))
                       : "(invalid)\n";
        tally.check(second == written, name + " (written R reads back to itself)",
                    "  first  " + written + "  second " + second);
    }
    invalid_files(dir / "invalid", tally, [](const std::string& text) {
        return jobspec::read_resource_set(text).diagnostics();
    });
}

/// Lines of a tab-separated data file, skipping comments and blank lines; "#!" lines are
/// passed to `directive`.
template <class Line, class Directive>
void data_lines(const fs::path& file, Line line, Directive directive) {
    std::istringstream lines(read_file(file));
    int number = 0;
    for (std::string text; std::getline(lines, text);) {
        ++number;
        if (text.rfind("#!", 0) == 0)
            directive(text.substr(3));
        if (text.empty() || text[0] == '#')
            continue;
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (int i = 0; i < 2; ++i) {
            const auto tab = text.find('\t', start);
            if (tab == std::string::npos)
                break;
            fields.push_back(text.substr(start, tab - start));
            start = tab + 1;
        }
        fields.push_back(text.substr(start));
        line(file.filename().string() + ":" + std::to_string(number), fields);
    }
}

void constraints(const fs::path& dir, Tally& tally) {
    jobspec::QueryOptions options;
    data_lines(
        dir / "queries.txt",
        [&](const std::string& name, const std::vector<std::string>& f) {
            auto result = jobspec::parse_constraint_query(f[0], options);
            const std::string got =
                result.ok() ? jobspec::to_json_text(jobspec::to_json_value(result.value()))
                            : "(invalid)\n";
            const std::string want = jobspec::to_json_text(boost::json::parse(f[1]));
            tally.check(got == want, name + " '" + f[0] + "'",
                        "  want " + want + "  got  " + got +
                            diagnostics_text(result.diagnostics()));
            // In flux's --requires language, the query written back compiles to the same
            // constraint (issue 59).
            if (result.ok() && !options.default_operator) {
                auto written = jobspec::query_of(result.value());
                auto again = written.ok()
                                 ? jobspec::parse_constraint_query(written.value().text, options)
                                 : jobspec::Result<jobspec::Constraint>(written.diagnostics());
                const std::string back =
                    again.ok() ? jobspec::to_json_text(jobspec::to_json_value(again.value()))
                               : diagnostics_text(again.diagnostics());
                tally.check(back == got,
                            name + " '" + f[0] + "' written back as '" +
                                (written.ok() ? written.value().text : "") + "'",
                            "  want " + got + "  got  " + back);
            }
        },
        [&](const std::string& directive) {
            if (directive.rfind("default-operator ", 0) == 0)
                options.default_operator = directive.substr(17);
        });
    jobspec::QueryOptions invalid;
    invalid_lines(
        dir / "invalid.txt", tally,
        [&](const std::string& query) {
            return jobspec::parse_constraint_query(query, invalid).diagnostics();
        },
        [&](const std::string& directive) {
            if (directive.rfind("default-operator ", 0) == 0)
                invalid.default_operator = directive.substr(17);
        });
    data_lines(
        dir / "invalid-json.txt",
        [&](const std::string& name, const std::vector<std::string>& f) {
            auto result = jobspec::read_constraint(f[2]);
            bool found = false;
            for (const auto& d : result.diagnostics())
                found = found ||
                        (d.code_name() == f[0] &&
                         (f[1] == "-" ? d.location.pointer.empty() : d.location.pointer == f[1]));
            tally.check(!result.ok() && found, name + " " + f[2],
                        "  want " + f[0] + " " + f[1] + "\n  got:\n" +
                            codes_and_pointers(result.diagnostics()));
        },
        [](const std::string&) {});
    const auto r = jobspec::read_resource_set(read_file(dir / "r.json"));
    tally.check(r.ok(), "r.json", codes_and_pointers(r.diagnostics()));
    if (!r.ok())
        return;
    data_lines(
        dir / "match.txt",
        [&](const std::string& name, const std::vector<std::string>& f) {
            auto c = jobspec::read_constraint(f[0]);
            auto matched = c.ok() ? c.value().match(r.value())
                                  : jobspec::Result<jobspec::IdSet>(c.diagnostics());
            const std::string got = matched.ok() ? matched.value().format() : "(invalid)";
            const std::string want = f.size() > 1 ? f[1] : "";
            tally.check(got == want, name + " " + f[0],
                        "  want '" + want + "'\n  got  '" + got + "'");
            // Written as a query where one says it, the constraint matches the same ranks.
            if (auto written = c.ok() ? jobspec::query_of(c.value())
                                      : jobspec::Result<jobspec::WrittenText>(c.diagnostics());
                written.ok()) {
                auto again = jobspec::parse_constraint_query(written.value().text);
                auto ranks = again.ok() ? again.value().match(r.value())
                                        : jobspec::Result<jobspec::IdSet>(again.diagnostics());
                const std::string back = ranks.ok() ? ranks.value().format() : "(invalid)";
                tally.check(back == got, name + " " + f[0] + " as '" + written.value().text + "'",
                            "  want '" + got + "'\n  got  '" + back + "'");
            }
        },
        [](const std::string&) {});
}

/// RFC 36 directives: valid/NAME.sh with NAME.json (the argument vectors flux-core 0.88's
/// parser gives), invalid/NAME.sh with NAME.error ("CODE LINE COLUMN", both from 1).
void directives(const fs::path& dir, Tally& tally) {
    for (const auto& file : files_with(dir / "valid", ".sh")) {
        auto result = jobspec::parse_directives(read_file(file));
        boost::json::array got;
        if (result.ok())
            for (const auto& d : result.value()) {
                boost::json::array words;
                for (const auto& w : d.arguments)
                    words.emplace_back(boost::json::string(w));
                got.push_back(std::move(words));
            }
        const auto want = expected_value(file);
        tally.check(result.ok() && boost::json::value(got) == want, file.filename().string(),
                    "  want " + boost::json::serialize(want) + "\n  got  " +
                        boost::json::serialize(got) + "\n" +
                        diagnostics_text(result.diagnostics()));
    }
    for (const auto& file : files_with(dir / "invalid", ".sh")) {
        const std::string script = read_file(file);
        auto result = jobspec::parse_directives(script);
        auto error_file = file;
        error_file.replace_extension(".error");
        std::istringstream want_text(read_file(error_file));
        std::string code;
        std::size_t line = 0, column = 0;
        want_text >> code >> line >> column;
        std::string got = "accepted";
        for (const auto& d : result.diagnostics()) {
            const std::size_t at = d.location.range.begin;
            const std::size_t line_start = script.rfind('\n', at == 0 ? 0 : at - 1);
            const std::size_t got_line =
                1 + static_cast<std::size_t>(std::count(
                        script.begin(), script.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
            const std::size_t got_column =
                at - (line_start == std::string::npos || at == 0 ? 0 : line_start + 1) + 1;
            got = std::string(d.code_name()) + " " + std::to_string(got_line) + " " +
                  std::to_string(got_column);
            break;
        }
        const std::string want = code + " " + std::to_string(line) + " " + std::to_string(column);
        tally.check(got == want, file.filename().string(),
                    "  want " + want + "\n  got  " + got + "\n" +
                        diagnostics_text(result.diagnostics()));
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: conformance-runner SUITE DIR  (SUITE: shape, jobspec, dependency, R, "
                     "constraint, directives)\n";
        return 2;
    }
    const std::string suite = argv[1];
    const fs::path dir = argv[2];
    Tally tally;
    if (suite == "shape") {
        valid_shapes(dir, tally);
        invalid_shapes(dir, tally);
    } else if (suite == "constraint") {
        constraints(dir, tally);
    } else if (suite == "R") {
        resource_sets(dir, tally);
    } else if (suite == "dependency") {
        dependencies(dir, tally);
    } else if (suite == "directives") {
        directives(dir, tally);
    } else if (suite == "jobspec") {
        using jobspec::Dialect;
        valid_documents(dir / "valid", Dialect::rfc, tally);
        invalid_documents(dir / "invalid", false, Dialect::rfc, tally);
        invalid_documents(dir / "invalid-v1", true, Dialect::rfc, tally);
        valid_documents(dir / "valid-fluxion", Dialect::fluxion, tally);
        invalid_documents(dir / "invalid-fluxion", false, Dialect::fluxion, tally);
    } else {
        std::cerr << "conformance-runner: unknown suite '" << suite << "'\n";
        return 2;
    }
    std::cout << suite << ": " << tally.passed << " passed, " << tally.failed << " failed\n";
    return tally.failed == 0 && tally.passed > 0 ? 0 : 1;
}
