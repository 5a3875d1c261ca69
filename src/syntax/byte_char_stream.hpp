// A character stream over bytes, for generated lexers that read text byte by byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <CharStream.h>

namespace jobspec::syntax {

/// Gives each byte of a text as one symbol (0-255), so that any bytes lex (no UTF-8
/// decoding, which ANTLR's own streams do and throw on) and token indexes are byte
/// offsets. The text must outlive the stream.
class ByteCharStream final : public antlr4::CharStream {
public:
    ByteCharStream(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}

    void consume() override;
    std::size_t LA(ssize_t i) override;
    ssize_t mark() override { return -1; }
    void release(ssize_t /*marker*/) override {}
    std::size_t index() override { return at_; }
    void seek(std::size_t index) override { at_ = index < text_.size() ? index : text_.size(); }
    std::size_t size() override { return text_.size(); }
    std::string getSourceName() const override { return name_; }
    std::string getText(const antlr4::misc::Interval& interval) override;
    std::string toString() const override { return std::string(text_); }

private:
    std::string_view text_;
    std::string name_;
    std::size_t at_ = 0;
};

} // namespace jobspec::syntax
