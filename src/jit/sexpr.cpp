#include "jit/sexpr.h"

#include <cctype>
#include <stdexcept>

namespace tessera::jit {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  SExpr parse_all() {
    SExpr e = parse();
    skip_space();
    if (pos_ != text_.size()) fail("text after the expression");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("[jit] bad IR at offset " + std::to_string(pos_) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  SExpr parse() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    SExpr e;
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      for (;;) {
        skip_space();
        if (pos_ >= text_.size()) fail("missing ')'");
        if (text_[pos_] == ')') {
          ++pos_;
          return e;
        }
        e.items.push_back(parse());
      }
    }
    if (c == ')') fail("unexpected ')'");
    if (c == '"') {
      e.kind = SExpr::Kind::String;
      for (++pos_; pos_ < text_.size() && text_[pos_] != '"'; ++pos_) {
        if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
        e.text += text_[pos_];
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      ++pos_;
      return e;
    }
    e.kind = SExpr::Kind::Atom;
    while (pos_ < text_.size() && text_[pos_] != '(' && text_[pos_] != ')' &&
           !std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      e.text += text_[pos_++];
    }
    return e;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

const std::string& SExpr::head() const {
  static const std::string none;
  return !items.empty() && items[0].kind == Kind::Atom ? items[0].text : none;
}

const SExpr& SExpr::at(size_t i) const {
  if (i >= items.size()) {
    throw std::invalid_argument("[jit] bad IR: (" + head() + " ...) has no item " +
                                std::to_string(i));
  }
  return items[i];
}

SExpr parse_sexpr(std::string_view text) { return Parser(text).parse_all(); }

}  // namespace tessera::jit
