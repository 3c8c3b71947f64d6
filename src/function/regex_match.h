#pragma once
// One regular expression test outside a query's rows, for the binder (DuckDB's COLUMNS('re')
// picks the columns whose name the pattern matches), with RE2 as regexp_matches uses it.

#include <string_view>

namespace shears {

/// Whether `pattern` matches somewhere in `text` (regexp_matches' rule); InvalidInputError
/// naming the pattern when RE2 rejects it.
bool RegexMatchesAnywhere(std::string_view pattern, std::string_view text);

}  // namespace shears
