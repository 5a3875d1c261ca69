// From a Directives parse to argument vectors, with the checks the grammar leaves out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/submit_options.hpp>

#include "Directives.h"

namespace jobspec::syntax {

/// Reads a script's lines in order, as flux-core 0.88's DirectiveParser does: the
/// sentinel and stop rules, triple-quote pairing, multi-line values, then each
/// directive's words. Stops at the first error (directive.*).
class DirectiveBuilder {
public:
    DirectiveBuilder(std::string_view script, Diagnostics& diagnostics)
        : script_(script), diags_(diagnostics) {}

    std::vector<Directive> script(grammar::Directives::ScriptContext& ctx);

    /// A word as the shell reads it, and the script's byte offset of each of its bytes;
    /// none, and `placed` false, once a part of it has no place in the script.
    struct Word {
        std::string text;
        std::vector<std::uint32_t> at;
        bool placed = true;

        void add(char c, std::size_t where);
        void add(const Word& more);
        void add_unplaced(std::string_view more);
    };

private:
    /// A line's place in the script.
    struct Where {
        std::size_t number;
        std::size_t begin;
        std::string_view text;
    };
    /// A multi-line value being read: where it started and its words so far.
    struct Open {
        std::size_t line = 0;
        std::size_t offset = 0;
        std::string_view value;
        std::string start;
        std::string indent;
        /// The triple quote that opened it (and closes it).
        std::string quote;
        std::vector<Word> words;
        /// How the text joins the words: to the last word, as a new word, or not at
        /// all (the triple quote ended a comment).
        enum class Join { last_word, new_word, dropped } join = Join::new_word;
        /// The lines of the value, each with the offset of the line end after it.
        std::vector<std::pair<Word, std::size_t>> lines;
    };

    void line(grammar::Directives::LineContext& ctx, const Where& where);
    void other_line(const Where& where);
    void continued(grammar::Directives::LineContext& ctx, const Where& where);
    /// Words of a single-line value; opens a multi-line value when it ends with one.
    void value(grammar::Directives::ValueContext& ctx, const Where& where, std::size_t offset,
               std::string_view text);
    bool same_sentinel(grammar::Directives::LineContext& ctx, const Where& where);
    /// The value with paired triple quotes replaced by their shell-quoted text, as flux
    /// does before splitting; nothing (reported) for an unpaired one before the end.
    std::optional<std::string> paired_triple_quotes(std::string_view value, const Where& where,
                                                    std::size_t offset);
    void literal_error(std::size_t line, std::size_t offset, std::size_t length);
    void directive(std::vector<Word> words, std::size_t number, std::size_t offset,
                   std::string_view value);
    void error(Code code, std::size_t line, std::size_t offset, std::size_t length,
               std::string message);

    std::string_view script_;
    Diagnostics& diags_;
    std::vector<Directive> out_;
    std::string sentinel_;
    std::string_view prefix_;
    bool stopped_ = false;
    std::size_t stop_line_ = 0;
    std::optional<Open> open_;
};

} // namespace jobspec::syntax
