// Regular expressions with RE2 (Debian's libre2): regexp_matches, regexp_replace,
// regexp_extract and the PostgreSQL operators ~ ~* !~ !~*.
//
// Semantics are DuckDB's: regexp_matches is true when the pattern matches anywhere in the
// string, regexp_replace replaces the first match (every match with the 'g' option; \1 .. \9
// in the replacement are groups, \0 the whole match), regexp_extract gives group `n` (0 the
// whole match) of the first match, '' when nothing matches. Options: 'i' case-insensitive, 'c'
// case-sensitive (the default), 's' '.' matches a newline too, 'm' / 'n' / 'p' ^ and $ match at
// line breaks and '.' not a newline, 'l' the pattern is a literal string, 'g' global (replace
// only). A pattern RE2 rejects is an InvalidInputError naming it and RE2's reason.

#include <re2/re2.h>

#include <cctype>
#include <mutex>

#include "function/function_internal.h"
#include "function/regex_match.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

struct RegexOptions {
  bool case_insensitive = false;
  bool dot_newline = false;
  bool multi_line = false;
  bool literal = false;
  bool global = false;
  bool operator==(const RegexOptions&) const = default;
};

RegexOptions ParseOptions(std::string_view text, bool allow_global, const char* function) {
  RegexOptions options;
  for (char c : text) {
    switch (c) {
      case 'i':
        options.case_insensitive = true;
        break;
      case 'c':
        options.case_insensitive = false;
        break;
      case 's':
        options.dot_newline = true;
        options.multi_line = false;
        break;
      case 'm':
      case 'n':
      case 'p':
        options.multi_line = true;
        options.dot_newline = false;
        break;
      case 'l':
        options.literal = true;
        break;
      case 'g':
        if (allow_global) {
          options.global = true;
          break;
        }
        [[fallthrough]];
      default:
        throw InvalidInputError("{}: unknown regular expression option '{}' (options: {})",
                                function, std::string(1, c),
                                allow_global ? "c i s m n p l g" : "c i s m n p l");
    }
  }
  return options;
}

std::shared_ptr<const RE2> Compile(std::string_view pattern, const RegexOptions& options) {
  RE2::Options re2_options;
  re2_options.set_log_errors(false);
  re2_options.set_case_sensitive(!options.case_insensitive);
  re2_options.set_dot_nl(options.dot_newline);
  re2_options.set_literal(options.literal);
  // RE2 reads ^ and $ as whole-text anchors unless never_nl is off and the pattern says (?m).
  std::string text(pattern);
  if (options.multi_line && !options.literal) text = "(?m)" + text;
  auto re = std::make_shared<const RE2>(text, re2_options);
  if (!re->ok()) {
    throw InvalidInputError("Invalid regular expression '{}': {}", pattern, re->error());
  }
  return re;
}

/// A compiled pattern with the text and options it came from.
struct CompiledRegex {
  std::shared_ptr<const RE2> re;
  std::string pattern;
  RegexOptions options;
};

/// The last compiled pattern, shared by the copies of one bound function; threads may run it
/// concurrently (RE2 matching is thread-safe), hence the lock, taken once per batch.
struct RegexCache {
  std::mutex mutex;
  CompiledRegex last;
};

std::string_view StringArg(const Args& args, size_t i, idx_t row) {
  return args[i]->data<StringRef>()[row].view();
}

/// A kernel calling `op(row, re, options)` for every valid row with the row's compiled
/// pattern (argument 1) and options (argument `options_arg` when the call has it, else
/// `fixed`). A pattern is compiled once per batch at most, unless it changes from row to row.
template <typename Op>
ScalarKernel RegexKernel(size_t options_arg, bool allow_global, const char* function,
                         RegexOptions fixed, Op op) {
  auto cache = std::make_shared<RegexCache>();
  return [=](const Args& args, idx_t count, Vector& result) {
    CompiledRegex current;
    {
      std::lock_guard<std::mutex> lock(cache->mutex);
      current = cache->last;
    }
    bool changed = false;
    ForEachValidRow(args, count, result, [&](idx_t row) {
      RegexOptions options = fixed;
      if (options_arg < args.size()) {
        options = ParseOptions(StringArg(args, options_arg, row), allow_global, function);
      }
      std::string_view pattern = StringArg(args, 1, row);
      if (!current.re || pattern != current.pattern || !(options == current.options)) {
        current.re = Compile(pattern, options);
        current.pattern.assign(pattern);
        current.options = options;
        changed = true;
      }
      op(args, row, *current.re, options, result);
    });
    if (changed) {
      std::lock_guard<std::mutex> lock(cache->mutex);
      cache->last = std::move(current);
    }
  };
}

/// Registers `name` for each argument count in [min_args, max_args] of `params` (a resolver,
/// so each bound call gets its own pattern cache).
template <typename MakeKernel>
void RegisterRegex(FunctionRegistry& registry, const std::string& name,
                   std::vector<LogicalType> params, size_t min_args, LogicalType return_type,
                   MakeKernel make_kernel) {
  for (size_t n = min_args; n <= params.size(); n++) {
    std::vector<LogicalType> signature(params.begin(), params.begin() + n);
    registry.Register(
        name,
        [=](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
          if (args.size() != signature.size()) return std::nullopt;
          for (size_t i = 0; i < args.size(); i++) {
            if (!CanImplicitCast(args[i], signature[i])) return std::nullopt;
          }
          return MakeBound(signature, return_type, make_kernel(n));
        },
        SignatureText(name, signature));
  }
}

void Matches(const Args& args, idx_t row, const RE2& re, const RegexOptions&, Vector& result) {
  result.data<uint8_t>()[row] = RE2::PartialMatch(StringArg(args, 0, row), re);
}

void FullMatches(const Args& args, idx_t row, const RE2& re, const RegexOptions&, Vector& result) {
  result.data<uint8_t>()[row] = RE2::FullMatch(StringArg(args, 0, row), re);
}

void NotMatches(const Args& args, idx_t row, const RE2& re, const RegexOptions&, Vector& result) {
  result.data<uint8_t>()[row] = !RE2::PartialMatch(StringArg(args, 0, row), re);
}

void Replace(const Args& args, idx_t row, const RE2& re, const RegexOptions& options,
             Vector& result) {
  std::string text(StringArg(args, 0, row));
  const re2::StringPiece rewrite(StringArg(args, 2, row));
  std::string error;
  if (!re.CheckRewriteString(rewrite, &error)) {
    throw InvalidInputError("regexp_replace: invalid replacement '{}': {}", rewrite.as_string(),
                            error);
  }
  if (options.global) {
    RE2::GlobalReplace(&text, re, rewrite);
  } else {
    RE2::Replace(&text, re, rewrite);
  }
  result.data<StringRef>()[row] = result.AddString(text);
}

void Extract(const Args& args, idx_t row, const RE2& re, const RegexOptions&, Vector& result) {
  int64_t group = args.size() > 2 ? args[2]->data<int64_t>()[row] : 0;
  if (group < 0 || group > re.NumberOfCapturingGroups()) {
    throw InvalidInputError("regexp_extract: group {} out of range (the pattern has {} groups)",
                            group, re.NumberOfCapturingGroups());
  }
  const re2::StringPiece text(StringArg(args, 0, row));
  std::vector<re2::StringPiece> groups(static_cast<size_t>(group) + 1);
  std::string_view value;
  if (re.Match(text, 0, text.size(), RE2::UNANCHORED, groups.data(),
               static_cast<int>(groups.size()))) {
    const re2::StringPiece& g = groups[static_cast<size_t>(group)];
    value = std::string_view(g.data() ? g.data() : "", g.size());
  }
  result.data<StringRef>()[row] = result.AddString(value);
}

/// SIMILAR TO's pattern as an RE2 expression matching the whole string: % is .*, _ is ., the
/// escape character (default \) makes the next character literal, | * + ? {m,n} ( ) [...]
/// keep their regular-expression meaning, every other character is literal (PostgreSQL's
/// similar_to_escape).
std::string SimilarToRegex(std::string_view pattern, std::string_view escape) {
  if (escape.size() > 1) {
    throw InvalidInputError("invalid escape string '{}': it must be one character or empty",
                            escape);
  }
  std::string out = "(?s)^(?:";  // . matches newlines, as in PostgreSQL
  bool in_class = false, in_brace = false;
  for (size_t i = 0; i < pattern.size(); i++) {
    const char c = pattern[i];
    if (!escape.empty() && c == escape[0]) {
      if (i + 1 == pattern.size()) {
        throw InvalidInputError("SIMILAR TO pattern '{}' ends with the escape character", pattern);
      }
      const char next = pattern[++i];
      if (!std::isalnum(static_cast<unsigned char>(next))) out += '\\';
      out += next;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      if (c == '\\') out += '\\';
      out += c;
      continue;
    }
    switch (c) {
      case '%':
        out += ".*";
        break;
      case '_':
        out += '.';
        break;
      case '[':
        in_class = true;
        out += c;
        break;
      case '|':
      case '*':
      case '+':
      case '?':
      case '{':
        in_brace = true;
        out += c;
        break;
      case '}':
        in_brace = false;
        out += c;
        break;
      case ',':  // of a {m,n} repeat; elsewhere itself
        out += in_brace ? "," : "\\,";
        break;
      case '(':
      case ')':
        out += c;
        break;
      default:
        if (!std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) {
          out += '\\';
        }
        out += c;
    }
  }
  return out + ")$";
}

/// A GLOB pattern (SQLite's, DuckDB's) as an RE2 expression matching the whole string: * is
/// any text, ? one character, [abc] / [a-z] / [!abc] a class; everything else is itself.
std::string GlobToRegex(std::string_view pattern) {
  std::string out = "(?s)^";
  for (size_t i = 0; i < pattern.size(); i++) {
    const char c = pattern[i];
    if (c == '*') {
      out += ".*";
    } else if (c == '?') {
      out += '.';
    } else if (c == '[' && pattern.find(']', i + 2) != std::string_view::npos) {
      size_t end = pattern.find(']', i + 2);
      out += '[';
      size_t k = i + 1;
      if (pattern[k] == '!' || pattern[k] == '^') {
        out += '^';
        k++;
      }
      for (; k < end; k++) {
        if (pattern[k] == '\\' || pattern[k] == '[' || (pattern[k] == '^' && k > i + 1))
          out += '\\';
        out += pattern[k];
      }
      out += ']';
      i = end;
    } else {
      if (!std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) {
        out += '\\';
      }
      out += c;
    }
  }
  return out + "$";
}

}  // namespace

void RegisterRegexpFunctions(FunctionRegistry& registry) {
  RegisterFixed(registry, "glob_to_regex", {LogicalType::Varchar()}, LogicalType::Varchar(),
                [](const Args& args, idx_t count, Vector& result) {
                  StringRef* out = result.data<StringRef>();
                  ForEachValidRow(args, count, result, [&](idx_t row) {
                    out[row] = result.AddString(GlobToRegex(StringArg(args, 0, row)));
                  });
                });
  const LogicalType text = LogicalType::Varchar();
  for (size_t n : {1, 2}) {
    std::vector<LogicalType> params(n, text);
    RegisterFixed(registry, "similar_to_escape", params, text,
                  [](const Args& args, idx_t count, Vector& result) {
                    StringRef* out = result.data<StringRef>();
                    ForEachValidRow(args, count, result, [&](idx_t row) {
                      const std::string regex =
                          SimilarToRegex(StringArg(args, 0, row),
                                         args.size() > 1 ? StringArg(args, 1, row) : "\\");
                      out[row] = result.AddString(regex);
                    });
                  });
  }
  const LogicalType varchar = LogicalType::Varchar(), boolean = LogicalType::Boolean();
  constexpr size_t kNoOptions = ~size_t{0};
  RegisterRegex(registry, "regexp_matches", {varchar, varchar, varchar}, 2, boolean,
                [](size_t) { return RegexKernel(2, false, "regexp_matches", {}, Matches); });
  // regexp_full_match: the pattern matches the whole string (DuckDB).
  RegisterRegex(registry, "regexp_full_match", {varchar, varchar, varchar}, 2, boolean,
                [](size_t) { return RegexKernel(2, false, "regexp_full_match", {}, FullMatches); });
  RegisterRegex(registry, "regexp_replace", {varchar, varchar, varchar, varchar}, 3, varchar,
                [](size_t) { return RegexKernel(3, true, "regexp_replace", {}, Replace); });
  RegisterRegex(
      registry, "regexp_extract", {varchar, varchar, LogicalType::Bigint()}, 2, varchar,
      [](size_t) { return RegexKernel(kNoOptions, false, "regexp_extract", {}, Extract); });
  // PostgreSQL's match operators: ~ and !~ case-sensitive, ~* and !~* not.
  RegexOptions insensitive;
  insensitive.case_insensitive = true;
  for (bool negate : {false, true}) {
    for (bool ci : {false, true}) {
      std::string name = std::string(negate ? "!~" : "~") + (ci ? "*" : "");
      RegexOptions fixed = ci ? insensitive : RegexOptions{};
      RegisterRegex(registry, name, {varchar, varchar}, 2, boolean, [=](size_t) {
        return negate ? RegexKernel(kNoOptions, false, "~", fixed, NotMatches)
                      : RegexKernel(kNoOptions, false, "~", fixed, Matches);
      });
    }
  }
}

}  // namespace function_internal

bool RegexMatchesAnywhere(std::string_view pattern, std::string_view text) {
  const auto re = function_internal::Compile(pattern, function_internal::RegexOptions());
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re);
}

}  // namespace shears
