#pragma once
// What a file's name says about its format: the parser's FROM 'x.csv', COPY TO 'x.csv' and the
// listing of a directory choose the CSV reader or writer by it, before any byte is read.

#include <string_view>

namespace shears {

/// Whether a file name found while listing a directory is a CSV file (.csv, .tsv, .txt,
/// optionally followed by .gz).
bool IsCsvFileName(std::string_view name);
/// Whether a path in FROM reads as CSV by its extension (.csv, .tsv, .csv.gz, .tsv.gz).
bool HasCsvExtension(std::string_view path);

}  // namespace shears
