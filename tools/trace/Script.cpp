#include "tools/trace/Script.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>

#include "c10/util/Exception.h"

namespace miniaten_trace {

namespace {

enum class Tok { Ident, Number, String, Punct, End, Eof };

struct Token {
  Tok kind;
  std::string text;  // identifier, number or punctuation as written; a string's contents
  size_t pos;        // offset in the source
};

// Splits the source into tokens. A newline ends a statement unless brackets are open, as in
// Python; ';' always does.
class Lexer {
 public:
  explicit Lexer(const std::string& src) : src_(src) { advance(); }

  const Token& cur() const { return cur_; }
  Token next() {
    Token t = cur_;
    advance();
    return t;
  }
  bool nextIf(const char* punct) {
    if (cur_.kind == Tok::Punct && cur_.text == punct) {
      advance();
      return true;
    }
    return false;
  }
  Token expect(Tok kind, const char* what) {
    if (cur_.kind != kind) fail(cur_, std::string("expected ") + what);
    return next();
  }
  void expect(const char* punct) {
    if (!nextIf(punct)) fail(cur_, std::string("expected '") + punct + "'");
  }

  // "<what> but found '<token>':", the line, and a caret under the token; `found` false leaves
  // out the "but found" part, for errors that are about the token itself.
  [[noreturn]] void fail(const Token& at, const std::string& what, bool found_part = true) const {
    const size_t line_start = src_.rfind('\n', at.pos == 0 ? 0 : at.pos - 1);
    const size_t begin = (line_start == std::string::npos || at.pos == 0) ? 0 : line_start + 1;
    const size_t end = src_.find('\n', at.pos);
    const std::string line = src_.substr(begin, end == std::string::npos ? end : end - begin);
    const std::string found = at.kind == Tok::Eof   ? "end of input"
                              : at.kind == Tok::End ? "end of line"
                                                    : "'" + at.text + "'";
    TORCH_CHECK(false, what, found_part ? " but found " + found : std::string(), ":\n", line, "\n",
                std::string(at.pos - begin, ' '), "^");
  }

  bool at(const char* punct) const { return cur_.kind == Tok::Punct && cur_.text == punct; }
  // Brackets: inside them a newline is only space. The opening one is consumed after the depth
  // rises and the closing one after it drops, so that the token after each is read as inside
  // (`f(\n 1)`) or outside (`f(1)\n`).
  void open(const char* punct) {
    ++depth_;
    expect(punct);
  }
  void close(const char* punct) {
    --depth_;
    expect(punct);
  }

 private:
  void advance() {
    const std::string& s = src_;
    while (pos_ < s.size()) {
      const char c = s[pos_];
      if (c == '#') {
        while (pos_ < s.size() && s[pos_] != '\n') ++pos_;
      } else if (c == '\n' && depth_ == 0) {
        break;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else {
        break;
      }
    }
    const size_t start = pos_;
    if (pos_ >= s.size()) {
      cur_ = {Tok::Eof, "", start};
      return;
    }
    const char c = s[pos_];
    if (c == '\n' || c == ';') {
      ++pos_;
      cur_ = {Tok::End, c == ';' ? ";" : "\\n", start};
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (pos_ < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[pos_])) || s[pos_] == '_')) {
        ++pos_;
      }
      cur_ = {Tok::Ident, s.substr(start, pos_ - start), start};
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && pos_ + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[pos_ + 1])))) {
      while (pos_ < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[pos_])) || s[pos_] == '.' ||
              ((s[pos_] == '-' || s[pos_] == '+') && (s[pos_ - 1] == 'e' || s[pos_ - 1] == 'E')))) {
        ++pos_;
      }
      cur_ = {Tok::Number, s.substr(start, pos_ - start), start};
    } else if (c == '\'' || c == '"') {
      ++pos_;
      std::string text;
      while (pos_ < s.size() && s[pos_] != c && s[pos_] != '\n') text += s[pos_++];
      if (pos_ >= s.size() || s[pos_] != c)
        fail({Tok::Punct, std::string(1, c), start}, "unterminated string", false);
      ++pos_;
      cur_ = {Tok::String, text, start};
    } else if (c == ':' && pos_ + 1 < s.size() && s[pos_ + 1] == ':') {
      pos_ += 2;
      cur_ = {Tok::Punct, "::", start};
    } else if (std::string("()[],=.-").find(c) != std::string::npos) {
      ++pos_;
      cur_ = {Tok::Punct, std::string(1, c), start};
    } else {
      fail({Tok::Punct, std::string(1, c), start},
           "expected a name, a number, a string or punctuation");
    }
  }

  const std::string& src_;
  size_t pos_ = 0;
  int depth_ = 0;
  Token cur_{Tok::Eof, "", 0};
};

class Parser {
 public:
  explicit Parser(const std::string& src) : src_(src), L(src) {}

  std::vector<Statement> script() {
    std::vector<Statement> out;
    while (L.cur().kind != Tok::Eof) {
      if (L.cur().kind == Tok::End) {
        L.next();
        continue;
      }
      const size_t start = L.cur().pos;
      Statement st = statement();
      const size_t end = L.cur().pos;
      if (L.cur().kind != Tok::Eof) L.expect(Tok::End, "';' or a newline");
      st.text = trimmed(src_.substr(start, end - start));
      out.push_back(std::move(st));
    }
    return out;
  }

 private:
  static std::string trimmed(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
  }

  Statement statement() {
    Statement st;
    const Token first = L.expect(Tok::Ident, "a name or a call");
    const bool is_target =
        L.cur().kind == Tok::Punct && (L.cur().text == "=" || L.cur().text == ",");
    if (is_target) {
      st.targets.push_back(first.text);
      while (L.nextIf(",")) st.targets.push_back(L.expect(Tok::Ident, "a name").text);
      L.expect("=");
      st.call = call(L.expect(Tok::Ident, "a call"));
    } else {
      st.call = call(first);
    }
    return st;
  }

  // ns::name.overload(args), name.overload(args), var.method(args)
  Call call(const Token& first) {
    Call c;
    c.column = first.pos;
    c.callee = first.text;
    if (L.nextIf("::")) c.callee += "::" + L.expect(Tok::Ident, "an operator name").text;
    while (L.nextIf(".")) c.callee += "." + L.expect(Tok::Ident, "a name").text;
    L.open("(");
    if (!L.at(")")) {
      do {
        c.args.push_back(arg());
      } while (L.nextIf(","));
    }
    L.close(")");
    return c;
  }

  Arg arg() {
    Arg a;
    if (L.cur().kind == Tok::Ident) {
      const Token name = L.next();
      if (L.nextIf("=")) {
        a.name = name.text;
        a.value = value();
      } else {
        a.value = name_value(name);
      }
    } else {
      a.value = value();
    }
    return a;
  }

  Value value() {
    const Token& t = L.cur();
    if (t.kind == Tok::Ident) return name_value(L.next());
    if (t.kind == Tok::String) {
      Value v;
      v.kind = Value::Kind::String;
      v.text = L.next().text;
      return v;
    }
    if (t.kind == Tok::Number) return number(L.next(), false);
    if (L.nextIf("-")) {
      if (L.cur().kind == Tok::Number) return number(L.next(), true);
      const Token inf = L.expect(Tok::Ident, "a number");
      if (inf.text != "inf") L.fail(inf, "expected a number");
      Value v;
      v.kind = Value::Kind::Float;
      v.f = -std::numeric_limits<double>::infinity();
      v.text = "-inf";
      return v;
    }
    const bool bracket = t.kind == Tok::Punct && t.text == "[";
    if (bracket || (t.kind == Tok::Punct && t.text == "(")) {
      L.open(bracket ? "[" : "(");
      Value v;
      v.kind = Value::Kind::List;
      const char* close = bracket ? "]" : ")";
      while (!L.at(close)) {
        v.items.push_back(value());
        if (!L.nextIf(",")) break;  // a trailing comma is allowed: (2,) and [2,]
      }
      L.close(close);
      return v;
    }
    L.fail(t, "expected a value");
  }

  Value number(const Token& t, bool negative) {
    Value v;
    v.text = (negative ? "-" : "") + t.text;
    const bool is_float =
        t.text.find_first_of(".eE") != std::string::npos && t.text.rfind("0x", 0) != 0;
    std::istringstream in(t.text);
    if (is_float) {
      in >> v.f;
      v.kind = Value::Kind::Float;
      if (negative) v.f = -v.f;
    } else {
      in >> v.i;
      v.kind = Value::Kind::Int;
      if (negative) v.i = -v.i;
    }
    if (in.fail() || !in.eof()) L.fail(t, "expected a number");
    return v;
  }

  // True/False/None/inf/nan are literals; any other name (possibly dotted: torch.float32)
  // stays a name for the binder.
  Value name_value(const Token& t) {
    Value v;
    v.text = t.text;
    if (t.text == "True" || t.text == "False" || t.text == "true" || t.text == "false") {
      v.kind = Value::Kind::Bool;
      v.b = t.text == "True" || t.text == "true";
    } else if (t.text == "None") {
      v.kind = Value::Kind::None;
    } else if (t.text == "inf" || t.text == "nan") {
      v.kind = Value::Kind::Float;
      v.f = t.text == "inf" ? std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::quiet_NaN();
    } else {
      v.kind = Value::Kind::Name;
      while (L.nextIf(".")) v.text += "." + L.expect(Tok::Ident, "a name").text;
    }
    return v;
  }

  const std::string& src_;
  Lexer L;
};

}  // namespace

std::vector<Statement> parse_script(const std::string& source) {
  return Parser(source).script();
}

std::string to_text(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Bool:
      return v.b ? "True" : "False";
    case Value::Kind::None:
      return "None";
    case Value::Kind::String:
      return "'" + v.text + "'";
    case Value::Kind::List: {
      std::string s = "[";
      for (size_t i = 0; i < v.items.size(); ++i) s += (i ? ", " : "") + to_text(v.items[i]);
      return s + "]";
    }
    default:
      return v.text;
  }
}

}  // namespace miniaten_trace
