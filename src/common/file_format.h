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
/// Whether a file name or path is JSON by its extension (.json, .jsonl, .ndjson): listing a
/// directory for read_json, and FROM 'x.json'.
bool IsJsonFileName(std::string_view name);

}  // namespace shears
