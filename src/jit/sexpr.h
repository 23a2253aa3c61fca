#pragma once
// S-expressions: the text in which Python functions' typed IR (python/tessera/jit/ir.py)
// reaches the C++ renderers. Atoms are runs of characters other than space and
// parentheses; strings are JSON-quoted ("..." with \" and \\ escapes).

#include <string>
#include <string_view>
#include <vector>

namespace tessera::jit {

struct SExpr {
  enum class Kind { Atom, String, List };
  Kind kind = Kind::List;
  std::string text;  // an atom's or a string's characters
  std::vector<SExpr> items;

  bool is_list() const { return kind == Kind::List; }
  // The first item's text when it is an atom ("" otherwise): a node's name.
  const std::string& head() const;
  // Item i; std::invalid_argument naming the node when there is none.
  const SExpr& at(size_t i) const;
  size_t size() const { return items.size(); }
};

// Parses one S-expression (surrounding space allowed); std::invalid_argument on bad text.
SExpr parse_sexpr(std::string_view text);

}  // namespace tessera::jit
