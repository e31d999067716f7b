#pragma once
// The tokenizer behind torch::jit::parseSchema, and the error texts it and the parser raise.
// Internal: use dispatcher/SchemaParser.h.
//
//   impl::SchemaLexer L("aten::add(Tensor self) -> Tensor");
//   L.expect(impl::TK_IDENT).text();   // "aten"
//   L.nextIf(':');                     // single-character tokens are their own kind
//
// See Note [Schema lexer fidelity].

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace torch {
namespace jit {
namespace impl {

// Note [Schema lexer fidelity]
// libtorch parses schemas with the TorchScript lexer, and its error messages name that
// lexer's token kinds ("expected ) but found 'ident' here:"). To give the same texts this lexer
// keeps the same token classes: a single character is its own kind; numbers are what strtod
// would read (`1`, `1.`, `.5`, `1e-05`, with an optional trailing `j`); strings take single,
// double or triple quotes; and TorchScript's keywords and operators (`if`, `in`, `not`, `==`,
// `**`, ...) are tokens of their own, so `Tensor in` fails in both. Differences, none of which a
// registered schema can hit: hexadecimal numbers are not read, and of TorchScript's indentation
// tokens only the first after a line break is reproduced (the grammar accepts none of them).
enum TokenKind : int {
  TK_NOTHING = -1,  // matches no token; parse_list's "no opening/closing bracket"
  // 0-255: a single character.
  TK_EOF = 256,
  TK_NUMBER,
  TK_IDENT,
  TK_STRINGLITERAL,
  TK_ARROW,  // ->
  TK_DOTS,   // ...
  TK_TRUE,
  TK_FALSE,
  TK_NONE,
  TK_NONE_TYPE,
  TK_NEWLINE,  // see Note [Newlines in schemas] in SchemaLexer.cpp
  TK_INDENT,
  TK_OTHER,  // first of the keywords/operators the schema grammar never uses
};

// "ident", "number", "eof", "arrow", ")" — TorchScript's name for a token kind.
std::string kind_name(int kind);

struct Token {
  int kind;
  size_t start;  // byte offsets into the source
  size_t end;
  std::string_view source;

  std::string text() const { return std::string(source.substr(start, end - start)); }
};

class SchemaLexer {
 public:
  explicit SchemaLexer(std::string_view source);
  // Tokens point into source_, so the lexer stays put.
  SchemaLexer(const SchemaLexer&) = delete;
  SchemaLexer& operator=(const SchemaLexer&) = delete;

  const Token& cur();
  const Token& lookahead();
  Token next();
  bool nextIf(int kind);
  // The current token if it has `kind` (and advances), else throws
  // "expected <kind> but found '<kind>' here:".
  Token expect(int kind);

  // libtorch's two error layouts, thrown as c10::Error. See Note [Schema error layout].
  [[noreturn]] void expected(const std::string& what, const Token& at) const;
  [[noreturn]] void report(const Token& at, const std::string& message) const;

 private:
  Token lex();
  // Skips whitespace and comments from pos_; returns where the last line skipped into begins.
  size_t skip_space(bool* saw_newline);

  std::string source_;
  size_t pos_ = 0;
  int nesting_ = 0;          // open ( [ { — newlines inside them are whitespace
  size_t indent_ = 0;        // the first line's indentation
  std::deque<Token> queue_;  // front is cur()
};

}  // namespace impl
}  // namespace jit
}  // namespace torch
