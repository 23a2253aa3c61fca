#include "backend/cudasim/module_source.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>
#include <string_view>

#include "jit/kernel_text.h"

namespace tessera::cudasim {
namespace {

constexpr std::string_view kSourceName = "kernel.cu";
constexpr std::string_view kFp16Path = "backend/cudasim/prelude/fp16.h";

// CUDA's headers whose content the prelude provides, between spaces. <cassert> and
// <assert.h> too: they would redefine assert as the C library's, which aborts the process
// instead of failing the launch.
constexpr std::string_view kProvidedHeaders =
    " cuda.h cuda_runtime.h cuda_runtime_api.h device_launch_parameters.h device_functions.h"
    " device_atomic_functions.h sm_20_atomic_functions.h sm_32_atomic_functions.h"
    " sm_60_atomic_functions.h sm_20_intrinsics.h sm_30_intrinsics.h sm_32_intrinsics.h"
    " sm_35_intrinsics.h sm_61_intrinsics.h math_functions.h math_constants.h vector_types.h"
    " vector_functions.h builtin_types.h host_defines.h driver_types.h assert.h cassert"
    " cooperative_groups.h ";

bool provided(std::string_view header) {
  if (header.empty()) return false;
  for (size_t at = kProvidedHeaders.find(header); at != std::string_view::npos;
       at = kProvidedHeaders.find(header, at + 1)) {
    if (at > 0 && kProvidedHeaders[at - 1] == ' ' && kProvidedHeaders[at + header.size()] == ' ') {
      return true;
    }
  }
  return false;
}

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t count_newlines(std::string_view text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string file_text(std::string_view path) {
  for (size_t i = 0; i < kPreludeFilesCount; ++i) {
    if (path == kPreludeFiles[i].path) {
      return "#line 1 \"" + std::string(path) + "\"\n" + kPreludeFiles[i].text + "\n";
    }
  }
  return {};
}

struct Token {
  std::string_view text;
  size_t begin;  // offset in the source
};

// A brace's scope: what a declaration inside it is. Linkage is extern "C" { }, transparent.
enum class Scope { kNamespace, kLinkage, kClass, kCode, kOther };

struct Frame {
  Scope kind;
  std::string name;               // a namespace's ("" when anonymous)
  std::vector<Token> saved_head;  // the enclosing statement, when the brace is inside one
  int saved_parens;
};

// Reads the source once: tokens outside comments, strings and directives, brace scopes, and
// the statement being read; collects the edits, applied at the end.
class Rewriter {
 public:
  explicit Rewriter(std::string_view source) : source_(source) {}

  std::string run();
  const std::vector<std::string>& file_shared() const { return file_shared_; }

 private:
  struct Edit {
    size_t begin, end;
    std::string text;
  };

  void replace(size_t begin, size_t end, std::string text) {
    // The replaced text's newlines stay, so the lines after keep their numbers.
    text.append(count_newlines(source_.substr(begin, end - begin)), '\n');
    edits_.push_back({begin, end, std::move(text)});
  }
  size_t line_after(size_t offset) const { return count_newlines(source_.substr(0, offset)) + 2; }

  size_t skip_quoted(size_t i) const;
  size_t skip_raw_string(size_t i) const;
  void directive(size_t begin, size_t end);
  void token(Token t);
  void open_brace();
  void close_brace();
  Scope classify() const;
  bool in_code() const;
  void extern_shared(Token semicolon);

  std::string_view source_;
  std::vector<Edit> edits_;
  std::vector<Token> head_;  // the statement being read, since the last ; { or }
  int parens_ = 0;           // ( minus ) in head_
  std::vector<Frame> scopes_;
  std::vector<std::string> file_shared_;
  bool fp16_included_ = false;
};

size_t Rewriter::skip_quoted(size_t i) const {
  const char quote = source_[i];
  for (++i; i < source_.size() && source_[i] != quote && source_[i] != '\n'; ++i) {
    if (source_[i] == '\\') ++i;
  }
  return std::min(i + 1, source_.size());
}

// R"delim( ... )delim", from the opening quote.
size_t Rewriter::skip_raw_string(size_t i) const {
  const size_t open = source_.find('(', i);
  if (open == std::string_view::npos) return source_.size();
  std::string close(1, ')');
  close.append(source_.substr(i + 1, open - i - 1)).append(1, '"');
  const size_t end = source_.find(close, open);
  return end == std::string_view::npos ? source_.size() : end + close.size();
}

std::string Rewriter::run() {
  const size_t n = source_.size();
  bool line_start = true;
  size_t i = 0;
  while (i < n) {
    const char c = source_[i];
    const char next = i + 1 < n ? source_[i + 1] : '\0';
    if (c == '\n') {
      line_start = true;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && next == '/') {
      i = std::min(source_.find('\n', i), n);
    } else if (c == '/' && next == '*') {
      const size_t end = std::min(source_.find("*/", i + 2), n - 2) + 2;
      if (source_.substr(i, end - i).find('\n') != std::string_view::npos) line_start = true;
      i = end;
    } else if (c == '#' && line_start) {
      size_t end = i;
      while ((end = source_.find('\n', end)) != std::string_view::npos &&
             source_[end - 1] == '\\') {
        ++end;
      }
      end = std::min(end, n);
      directive(i, end);
      i = end;
    } else {
      line_start = false;
      size_t end = i + 1;
      if (c == '"' || c == '\'') {
        end = skip_quoted(i);
      } else if (is_identifier_start(c)) {
        while (end < n && is_identifier_char(source_[end])) ++end;
        const std::string_view word = source_.substr(i, end - i);
        const bool quote_follows = end < n && (source_[end] == '"' || source_[end] == '\'');
        if (quote_follows && word.ends_with('R') && source_[end] == '"' && word.size() <= 3) {
          end = skip_raw_string(end);
        } else if (quote_follows && (word == "u8" || word == "u" || word == "U" || word == "L")) {
          end = skip_quoted(end);
        }
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && std::isdigit(static_cast<unsigned char>(next)))) {
        while (end < n &&
               (is_identifier_char(source_[end]) || source_[end] == '.' || source_[end] == '\'' ||
                ((source_[end] == '+' || source_[end] == '-') &&
                 std::strchr("eEpP", source_[end - 1])))) {
          ++end;
        }
      } else if (c == ':' && next == ':') {
        end = i + 2;
      }
      token({source_.substr(i, end - i), i});
      i = end;
    }
  }
  std::string out;
  size_t done = 0;
  for (const Edit& e : edits_) {
    out.append(source_.substr(done, e.begin - done));
    out += e.text;
    done = e.end;
  }
  out.append(source_.substr(done));
  return out;
}

void Rewriter::directive(size_t begin, size_t end) {
  const std::string_view text = source_.substr(begin, end - begin);
  size_t i = text.find_first_not_of(" \t", 1);
  const size_t word_end = std::min(text.find_first_of(" \t<\"(", i), text.size());
  const std::string_view word = i == std::string_view::npos ? "" : text.substr(i, word_end - i);
  i = std::min(text.find_first_not_of(" \t", word_end), text.size());
  if (word == "include" && i < text.size() && (text[i] == '<' || text[i] == '"')) {
    const size_t close = text.find(text[i] == '<' ? '>' : '"', i + 1);
    if (close == std::string_view::npos) return;
    const std::string_view header = text.substr(i + 1, close - i - 1);
    if (header == "cuda_fp16.h") {
      std::string fp16;
      if (!fp16_included_) {
        fp16 = file_text(kFp16Path) + "#line " + std::to_string(line_after(end)) + " \"" +
               std::string(kSourceName) + "\"";
      }
      fp16_included_ = true;
      replace(begin, end, fp16);
    } else if (provided(header)) {
      replace(begin, end, "// [cuda sim] provided by the prelude: " + std::string(header));
    }
  } else if (word == "pragma" &&
             (text.substr(i).starts_with("unroll") || text.substr(i).starts_with("nounroll"))) {
    replace(begin, end, "// [cuda sim] dropped: #pragma " + std::string(text.substr(i)));
  } else if (word == "define") {
    // A macro may carry the __noinline__ qualifier too (outside any parentheses). Its
    // continued lines are joined, and replace() keeps the line count.
    std::string body(text);
    for (size_t k; (k = body.find("\\\n")) != std::string::npos;) body.erase(k, 2);
    int depth = 0;
    bool changed = false;
    for (size_t k = 0; k < body.size(); ++k) {
      depth += body[k] == '(' ? 1 : body[k] == ')' ? -1 : 0;
      if (depth == 0 && body.compare(k, 12, "__noinline__") == 0 &&
          (k == 0 || !is_identifier_char(body[k - 1])) &&
          (k + 12 == body.size() || !is_identifier_char(body[k + 12]))) {
        body.replace(k, 12, "__attribute__((noinline))");
        changed = true;
      }
    }
    if (changed) replace(begin, end, body);
  }
}

void Rewriter::token(Token t) {
  if (t.text == "{") return open_brace();
  if (t.text == "}") return close_brace();
  if (t.text == ";" && parens_ == 0) {
    extern_shared(t);
    head_.clear();
    return;
  }
  if (t.text == "__noinline__" && parens_ == 0) {
    replace(t.begin, t.begin + t.text.size(), "__attribute__((noinline))");
  }
  parens_ += t.text == "(" ? 1 : t.text == ")" ? -1 : 0;
  head_.push_back(t);
}

bool Rewriter::in_code() const {
  return std::any_of(scopes_.begin(), scopes_.end(),
                     [](const Frame& f) { return f.kind == Scope::kCode; });
}

// What the brace about to open is, from the statement before it.
Scope Rewriter::classify() const {
  if (in_code()) return Scope::kCode;
  for (const Token& t : head_) {
    if (t.text == "namespace") return Scope::kNamespace;
  }
  if (head_.size() >= 2 && head_[head_.size() - 2].text == "extern" &&
      head_.back().text.starts_with('"')) {
    return Scope::kLinkage;
  }
  int angles = 0;
  for (const Token& t : head_) {
    angles += t.text == "<" ? 1 : t.text == ">" ? -1 : 0;
    if (angles > 0) continue;
    if (t.text == "struct" || t.text == "class" || t.text == "union" || t.text == "enum") {
      return Scope::kClass;
    }
    if (t.text == "(") return Scope::kCode;
  }
  // A lambda without parameters: [captures] { ... }
  if (!head_.empty() && head_.back().text == "]") return Scope::kCode;
  return Scope::kOther;
}

void Rewriter::open_brace() {
  Frame frame{classify(), "", {}, parens_};
  if (frame.kind == Scope::kNamespace) {
    bool after = false;
    for (const Token& t : head_) {
      if (after && t.text != "inline") frame.name += t.text;
      after = after || t.text == "namespace";
    }
  }
  // A brace inside an expression (an argument, an initializer) continues its statement.
  if (parens_ > 0 || frame.kind == Scope::kOther) frame.saved_head = head_;
  scopes_.push_back(std::move(frame));
  head_.clear();
  parens_ = 0;
}

void Rewriter::close_brace() {
  if (scopes_.empty()) return;
  head_ = std::move(scopes_.back().saved_head);
  parens_ = scopes_.back().saved_parens;
  if (head_.empty()) parens_ = 0;
  scopes_.pop_back();
}

// `extern __shared__ [__align__(n)] T name[] [dims] [, name2[] ...];`: the block's dynamic
// shared memory, declared as a pointer to it.
void Rewriter::extern_shared(Token semicolon) {
  const auto has = [&](std::string_view word) {
    return std::any_of(head_.begin(), head_.end(), [&](const Token& t) { return t.text == word; });
  };
  if (!has("extern") || !has("__shared__")) return;
  std::vector<std::vector<std::string_view>> declarators(1);
  int depth = 0;
  for (size_t k = 0; k < head_.size(); ++k) {
    const std::string_view t = head_[k].text;
    if (t == "extern" || t == "__shared__" || t == "static") continue;
    if (t == "__align__" || t == "alignas" || t == "__attribute__") {
      int inner = 0;
      while (k + 1 < head_.size()) {
        const std::string_view u = head_[++k].text;
        inner += u == "(" ? 1 : u == ")" ? -1 : 0;
        if (inner == 0) break;
      }
      continue;
    }
    depth += (t == "(" || t == "[" || t == "<") ? 1 : (t == ")" || t == "]" || t == ">") ? -1 : 0;
    if (t == "," && depth == 0) {
      declarators.emplace_back();
    } else {
      declarators.back().push_back(t);
    }
  }
  const auto join = [](auto first, auto last) {
    std::string text;
    for (auto it = first; it != last; ++it) text += std::string(*it) + " ";
    return text;
  };
  std::string type, replacement;
  const bool in_function = in_code();
  for (const auto& d : declarators) {
    const auto bracket = std::find(d.begin(), d.end(), "[");
    const bool valid = bracket != d.end() && bracket != d.begin() && bracket + 1 != d.end() &&
                       bracket[1] == "]" && is_identifier_start(bracket[-1][0]) &&
                       (type.empty() ? bracket - 1 != d.begin() : bracket - 1 == d.begin());
    if (!valid || (!in_function && std::any_of(scopes_.begin(), scopes_.end(), [](auto& f) {
          return f.kind == Scope::kClass || f.kind == Scope::kOther;
        }))) {
      replacement =
          "static_assert(false, \"[cuda sim] unsupported extern __shared__ declaration\");";
      break;
    }
    if (type.empty()) type = join(d.begin(), bracket - 1);
    const std::string name(bracket[-1]);
    const std::string dims = join(bracket + 2, d.end());
    const std::string pointer = dims.empty() ? type + "*" : type + "(*)" + dims;
    const std::string declarator = dims.empty() ? "* " + name : "(*" + name + ")" + dims;
    if (in_function) {
      replacement += type + (dims.empty() ? "* const " + name : "(*const " + name + ")" + dims) +
                     " = static_cast<" + pointer + ">(::__tsim::dynamic_shared()); ";
      continue;
    }
    std::string qualified;
    for (const Frame& f : scopes_) {
      if (f.kind == Scope::kNamespace && !f.name.empty()) qualified += "::" + f.name;
    }
    qualified += "::" + name;
    if (std::find(file_shared_.begin(), file_shared_.end(), qualified) != file_shared_.end()) {
      continue;  // declared again
    }
    file_shared_.push_back(qualified);
    replacement += "static thread_local " + type + declarator + "; ";
  }
  if (replacement.ends_with(' ')) replacement.pop_back();
  replace(head_.front().begin, semicolon.begin + 1, replacement);
}

std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

// The kernels that need no name expression: every `__global__` function that is not a
// template (extern "C" ones are found by their plain name on a GPU too).
std::vector<std::string> plain_kernel_names(const std::string& source) {
  static const std::regex kernel(R"(__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\()");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), kernel);
       it != std::sregex_iterator(); ++it) {
    // A template's declaration ends just before `__global__` with `>`.
    const std::string before = source.substr(0, static_cast<size_t>(it->position()));
    const size_t last = before.find_last_not_of(" \t\r\n");
    if (last != std::string::npos && before[last] == '>') continue;
    names.push_back((*it)[1].str());
  }
  return names;
}

// -D options become #define lines for the host compiler; the others concern NVRTC only.
std::string defines_of(const std::vector<std::string>& options) {
  std::string lines;
  for (size_t i = 0; i < options.size(); ++i) {
    std::string define;
    if (options[i] == "-D" && i + 1 < options.size()) {
      define = options[++i];
    } else if (options[i].rfind("-D", 0) == 0) {
      define = options[i].substr(2);
    } else if (options[i].rfind("--define-macro=", 0) == 0) {
      define = options[i].substr(15);
    } else {
      continue;
    }
    const size_t eq = define.find('=');
    lines += "#define " + (eq == std::string::npos ? define + " 1"
                                                    : define.substr(0, eq) + " " +
                                                          define.substr(eq + 1)) +
             "\n";
  }
  return lines;
}

}  // namespace

const std::string& prelude_text() {
  static const std::string text = [] {
    std::string all;
    for (size_t i = 0; i < kPreludeFilesCount; ++i) {
      if (kPreludeFiles[i].path != kFp16Path) all += file_text(kPreludeFiles[i].path);
    }
    return all;
  }();
  return text;
}

const std::string& functors_prefix() {
  static const std::string text = prelude_text() + jit::kernel_functors_text();
  return text;
}

std::string sim_translation_unit(const std::string& cuda_source,
                                 const std::vector<std::string>& kernel_names,
                                 const std::string& defines) {
  // tessera's generated kernels begin with the functors, which need no rewriting: they go
  // in as they are, so every such module begins with the same text (functors_prefix).
  const std::string& functors = jit::kernel_functors_text();
  const bool generated = cuda_source.starts_with(functors);
  Rewriter rewriter(std::string_view(cuda_source).substr(generated ? functors.size() : 0));
  std::string unit = generated ? functors_prefix() : prelude_text();
  unit += defines;
  unit += "#line 1 \"" + std::string(kSourceName) + "\"\n";
  unit += rewriter.run();
  unit +=
      "\n#line 1 \"[cuda sim] exports\"\nnamespace __tsim {\nstatic void bind_file_shared() {\n";
  for (const std::string& name : rewriter.file_shared()) {
    unit += "  " + name + " = static_cast<decltype(" + name + ")>(dynamic_shared_);\n";
  }
  unit += "}\n}  // namespace __tsim\n";
  const std::string exported = "extern \"C\" __attribute__((visibility(\"default\"))) ";
  unit +=
      exported + "void tsim_bind(const TsimRuntime* runtime) { ::__tsim::runtime_ = runtime; }\n";
  for (size_t i = 0; i < kernel_names.size(); ++i) {
    unit += exported + "const TsimKernel tsim_kernel_" + std::to_string(i) +
            " = ::__tsim::kernel<&" + kernel_names[i] + ">(\"" + escaped(kernel_names[i]) +
            "\");\n";
  }
  unit += exported + "const int tsim_kernel_count = " + std::to_string(kernel_names.size()) + ";\n";
  return unit;
}

std::string module_translation_unit(const std::string& cuda_source,
                                    const std::vector<std::string>& options,
                                    const std::vector<std::string>& name_expressions) {
  std::vector<std::string> names = plain_kernel_names(cuda_source);
  names.insert(names.end(), name_expressions.begin(), name_expressions.end());
  return sim_translation_unit(cuda_source, names, defines_of(options));
}

}  // namespace tessera::cudasim
