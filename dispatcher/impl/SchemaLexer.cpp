#include "dispatcher/impl/SchemaLexer.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

#include "c10/util/Exception.h"

namespace torch {
namespace jit {
namespace impl {

namespace {

struct MultiCharToken {
  const char* text;
  const char* name;
  int kind;
};

// TorchScript's multi-character tokens. Only the first six matter to the grammar; the rest are
// here so that, e.g., an argument named `in` fails as it does in libtorch.
// See Note [Schema lexer fidelity].
constexpr MultiCharToken kMultiCharTokens[] = {
    {"->", "arrow", TK_ARROW},
    {"...", "dots", TK_DOTS},
    {"True", "True", TK_TRUE},
    {"False", "False", TK_FALSE},
    {"None", "None", TK_NONE},
    {"NoneType", "NoneType", TK_NONE_TYPE},
    {"def", "def", TK_OTHER + 0},
    {"<=>", "equivalent", TK_OTHER + 1},
    {"if", "if", TK_OTHER + 2},
    {"else", "else", TK_OTHER + 3},
    {"elif", "elif", TK_OTHER + 4},
    {"while", "while", TK_OTHER + 5},
    {"return", "return", TK_OTHER + 6},
    {"is", "is", TK_OTHER + 7},
    {"is not", "is not", TK_OTHER + 8},
    {"!=", "ne", TK_OTHER + 9},
    {"==", "eq", TK_OTHER + 10},
    {"<=", "le", TK_OTHER + 11},
    {">=", "ge", TK_OTHER + 12},
    {"//", "floordiv", TK_OTHER + 13},
    {"and", "and", TK_OTHER + 14},
    {"or", "or", TK_OTHER + 15},
    {"not", "not", TK_OTHER + 16},
    {"<<", "<<", TK_OTHER + 17},
    {">>", ">>", TK_OTHER + 18},
    {"+=", "+=", TK_OTHER + 19},
    {"-=", "-=", TK_OTHER + 20},
    {"*=", "*=", TK_OTHER + 21},
    {"/=", "/=", TK_OTHER + 22},
    {"%=", "%=", TK_OTHER + 23},
    {"|=", "|=", TK_OTHER + 24},
    {"&=", "&=", TK_OTHER + 25},
    {"^=", "^=", TK_OTHER + 26},
    {"<<=", "<<=", TK_OTHER + 27},
    {">>=", ">>=", TK_OTHER + 28},
    {"**=", "**=", TK_OTHER + 29},
    {"global", "global", TK_OTHER + 30},
    {"for", "for", TK_OTHER + 31},
    {"in", "in", TK_OTHER + 32},
    {"not in", "not in", TK_OTHER + 33},
    {"**", "pow operator", TK_OTHER + 34},
    {"# type:", "type comment", TK_OTHER + 35},
    {"raise", "raise", TK_OTHER + 36},
    {"assert", "assert", TK_OTHER + 37},
    {"break", "break", TK_OTHER + 38},
    {"continue", "continue", TK_OTHER + 39},
    {"del", "del", TK_OTHER + 40},
    {"pass", "pass", TK_OTHER + 41},
    {"class", "class", TK_OTHER + 42},
    {"import", "import", TK_OTHER + 43},
    {"with", "with", TK_OTHER + 44},
    {"as", "as", TK_OTHER + 45},
};

constexpr const char* kSingleCharTokens = "+-*/%@()[]:,={}><.?!&^|~";

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// The length strtod would read at s[pos], decimal only, plus a complex `j` suffix; 0 if none.
// Like TorchScript, a sign or a letter never starts a number (so `inf` is an identifier).
size_t scan_number(std::string_view s, size_t pos) {
  auto at = [&](size_t i) { return i < s.size() ? s[i] : '\0'; };
  size_t i = pos;
  size_t digits = 0;
  for (; is_digit(at(i)); ++i) ++digits;
  if (at(i) == '.') {
    for (++i; is_digit(at(i)); ++i) ++digits;
  }
  if (digits == 0) return 0;
  if (at(i) == 'e' || at(i) == 'E') {
    size_t j = i + 1;
    if (at(j) == '+' || at(j) == '-') ++j;
    if (is_digit(at(j))) {
      while (is_digit(at(j))) ++j;
      i = j;
    }
  }
  if (at(i) == 'j') ++i;
  return i - pos;
}

// A quoted string at s[pos] (1 or 3 quotes, backslash escapes, no raw newline unless
// triple-quoted): its length including quotes, or 0.
size_t scan_string(std::string_view s, size_t pos) {
  const char quote = s[pos];
  if (quote != '"' && quote != '\'') return 0;
  auto quotes_at = [&](size_t i, size_t n) {
    return i + n <= s.size() &&
           std::all_of(s.begin() + i, s.begin() + i + n, [&](char c) { return c == quote; });
  };
  const size_t quote_len = quotes_at(pos, 3) ? 3 : 1;
  size_t end = pos + quote_len;
  while (end < s.size() && !quotes_at(end, quote_len)) {
    if (s[end] == '\n' && quote_len != 3) return 0;
    if (s[end] == '\\') ++end;
    ++end;
  }
  return end < s.size() ? end - pos + quote_len : 0;
}

// Note [Schema error layout]
// libtorch's parse errors quote the source around the bad token (up to three lines of context
// either side) and underline it:
//
//   expected ) but found 'ident' here:
//   aten::add(Tensor self x
//                         ~ <--- HERE
//
// A lexer-level "expected" error starts with the message; a parser-level report starts with a
// newline and ends the message with a colon ("\ninvalid numeric default value:\n..."). At the
// end of the input the token is empty, so the text is quoted with no underline at all. This is
// SourceRange::highlight, specialised to a source without a file name.
std::string highlight(std::string_view str, size_t start, size_t end) {
  constexpr size_t kContext = 3;
  auto at = [&](size_t i) { return i < str.size() ? str[i] : '\0'; };
  if (end - start == str.size()) return std::string(str);

  const size_t range_end = std::min(str.size(), end);
  size_t begin_line = start;
  while (begin_line > 0 && str[begin_line - 1] != '\n') --begin_line;
  size_t end_line = range_end;
  while (end_line < str.size() && str[end_line] != '\n') ++end_line;
  size_t begin_context = begin_line;
  for (size_t lines = 0; begin_context > 0; --begin_context) {
    if (str[begin_context - 1] == '\n') ++lines;
    if (lines >= kContext) break;
  }
  size_t end_context = end_line;
  for (size_t lines = 0; end_context < str.size(); ++end_context) {
    if (str[end_context] == '\n') ++lines;
    if (lines >= kContext) break;
  }

  std::ostringstream out;
  out << str.substr(begin_context, start - begin_context);
  size_t line_start = start;
  size_t line_end = start;
  while (line_start < range_end) {
    while (line_end < str.size() && str[line_end] != '\n') ++line_end;
    const auto line = str.substr(line_start, line_end - line_start + 1);
    out << line;
    if (line.empty() || line.back() != '\n') out << "\n";

    size_t line_begin = line_start;
    while (line_begin > 0 && str[line_begin - 1] != '\n') --line_begin;
    size_t highlight_end = line_start;
    while (highlight_end < range_end && str[highlight_end] != '\n') ++highlight_end;
    size_t empty_space = 0;
    for (size_t i = line_begin; i < highlight_end && (str[i] == ' ' || i < start); ++i) {
      ++empty_space;
    }
    const size_t highlight_space = highlight_end - line_begin - empty_space;
    if (highlight_space > 0) {
      bool more_lines = false;
      for (size_t i = line_end; i <= range_end; ++i) {
        if (at(i) != '\n' && at(i) != ' ') more_lines = true;
      }
      out << std::string(empty_space, ' ') << std::string(highlight_space, '~')
          << (more_lines && line_end != range_end ? "\n" : " <--- HERE\n");
    }
    line_start = ++line_end;
  }
  if (line_end <= str.size()) {
    const auto rest = str.substr(line_end, end_context - line_end);
    out << rest;
    if (!rest.empty() && rest.back() != '\n') out << "\n";
  }
  return out.str();
}

// Note [Newlines in schemas]
// Inside brackets a newline is whitespace. Outside them TorchScript makes it a token, so a
// schema may end with newlines but not break a line elsewhere: "aten::f(Tensor x)\n-> Tensor"
// fails with "expected arrow but found 'newline'". A following line indented deeper than the
// first is an 'indent' token instead, and one indented less is an "invalid indent level" error.
// Only the first such token can matter: the grammar accepts none except just before the end.

}  // namespace

std::string kind_name(int kind) {
  if (kind >= 0 && kind < 256) return std::string(1, static_cast<char>(kind));
  switch (kind) {
    case TK_EOF:
      return "eof";
    case TK_NUMBER:
      return "number";
    case TK_IDENT:
      return "ident";
    case TK_STRINGLITERAL:
      return "string_literal";
    case TK_NEWLINE:
      return "newline";
    case TK_INDENT:
      return "indent";
    default:
      for (const auto& t : kMultiCharTokens) {
        if (t.kind == kind) return t.name;
      }
      return "nothing";
  }
}

SchemaLexer::SchemaLexer(std::string_view source) : source_(source) {
  // The indentation of the first line is the level later lines are measured against.
  bool saw_newline = false;
  const size_t line_start = skip_space(&saw_newline);
  indent_ = pos_ - line_start;
}

const Token& SchemaLexer::cur() {
  if (queue_.empty()) queue_.push_back(lex());
  return queue_.front();
}

const Token& SchemaLexer::lookahead() {
  cur();
  if (queue_.size() < 2) queue_.push_back(lex());
  return queue_[1];
}

Token SchemaLexer::next() {
  Token t = cur();
  queue_.pop_front();
  return t;
}

bool SchemaLexer::nextIf(int kind) {
  if (cur().kind != kind) return false;
  next();
  return true;
}

Token SchemaLexer::expect(int kind) {
  if (cur().kind != kind) expected(kind_name(kind), cur());
  return next();
}

void SchemaLexer::expected(const std::string& what, const Token& at) const {
  TORCH_CHECK(false, "expected ", what, " but found '", kind_name(at.kind), "' here:\n",
              highlight(source_, at.start, at.end));
}

void SchemaLexer::report(const Token& at, const std::string& message) const {
  TORCH_CHECK(false, "\n", message, ":\n", highlight(source_, at.start, at.end));
}

size_t SchemaLexer::skip_space(bool* saw_newline) {
  const std::string_view s = source_;
  size_t line_start = pos_;  // just past the last newline (or comment) skipped
  while (pos_ < s.size()) {
    if (s[pos_] == '\n' && nesting_ == 0) {
      *saw_newline = true;
      line_start = ++pos_;
    } else if (is_space(s[pos_])) {
      ++pos_;
    } else if (s[pos_] == '#' && s.substr(pos_, 7) != "# type:") {
      while (pos_ < s.size() && s[pos_] != '\n') ++pos_;
      line_start = pos_;
    } else {
      break;
    }
  }
  return line_start;
}

Token SchemaLexer::lex() {
  const std::string_view s = source_;
  bool saw_newline = false;
  const size_t line_start = skip_space(&saw_newline);
  if (saw_newline) {
    // See Note [Newlines in schemas].
    const Token t{TK_NEWLINE, line_start, pos_, s};
    const size_t depth = pos_ - line_start;
    if (pos_ == s.size() || depth == indent_) return t;
    if (depth > indent_) return Token{TK_INDENT, line_start, pos_, s};
    TORCH_CHECK(false, "invalid indent level ", depth, ":\n", highlight(s, line_start, pos_));
  }

  const size_t start = pos_;
  auto make = [&](int kind, size_t len) {
    pos_ = start + len;
    if (kind == '(' || kind == '[' || kind == '{') ++nesting_;
    if (kind == ')' || kind == ']' || kind == '}') --nesting_;
    return Token{kind, start, start + len, s};
  };
  if (start == s.size()) return make(TK_EOF, 0);
  if (s[start] != '-' && s[start] != '+' && !is_alpha(s[start])) {
    if (size_t len = scan_number(s, start)) return make(TK_NUMBER, len);
  }
  if (size_t len = scan_string(s, start)) return make(TK_STRINGLITERAL, len);

  // The longer of an identifier and a token; a token wins a tie, so `in` is a keyword but
  // `input` an identifier.
  size_t ident_len = 0;
  if (is_alpha(s[start]) || s[start] == '_') {
    ident_len = 1;
    while (start + ident_len < s.size() &&
           (is_alpha(s[start + ident_len]) || is_digit(s[start + ident_len]) ||
            s[start + ident_len] == '_')) {
      ++ident_len;
    }
  }
  int token_kind = 0;
  size_t token_len = 0;
  if (s[start] != '\0' && std::strchr(kSingleCharTokens, s[start]) != nullptr) {
    token_kind = static_cast<unsigned char>(s[start]);
    token_len = 1;
  }
  for (const auto& t : kMultiCharTokens) {
    const size_t len = std::strlen(t.text);
    if (len > token_len && s.substr(start, len) == t.text) {
      token_kind = t.kind;
      token_len = len;
    }
  }
  if (token_len > 0 && token_len >= ident_len) return make(token_kind, token_len);
  if (ident_len > 0) return make(TK_IDENT, ident_len);
  expected("a valid token", Token{static_cast<unsigned char>(s[start]), start, start + 1, s});
}

}  // namespace impl
}  // namespace jit
}  // namespace torch
