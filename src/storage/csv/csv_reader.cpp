#include "storage/csv/csv_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "common/error.h"
#include "common/string_util.h"
#include "common/utf8.h"
#include "common/value.h"
#include "function/function.h"

namespace shears {

// ---------------------------------------------------------------- file buffer

std::shared_ptr<const CsvFileBuffer> CsvFileBuffer::Open(const std::string& path,
                                                         const std::string& compression) {
  std::shared_ptr<CsvFileBuffer> buffer(new CsvFileBuffer());
  buffer->path_ = path;
  const std::string lower = AsciiLower(path);
  const bool gzip = compression == "gzip" || (compression == "auto" && lower.size() > 3 &&
                                              lower.compare(lower.size() - 3, 3, ".gz") == 0);
  if (gzip) {
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) throw IOError("cannot open '{}': {}", path, std::strerror(errno));
    char chunk[1 << 16];
    while (true) {
      const int n = gzread(file, chunk, sizeof(chunk));
      if (n < 0) {
        int code = 0;
        std::string message = gzerror(file, &code);
        gzclose(file);
        throw CorruptFileError("'{}' is not a valid gzip file: {}", path, message);
      }
      if (n > 0 && buffer->owned_.empty() && gzdirect(file)) {
        gzclose(file);  // zlib would pass plain bytes through
        throw CorruptFileError("'{}' is not a valid gzip file (no gzip header)", path);
      }
      if (n == 0) break;
      buffer->owned_.append(chunk, static_cast<size_t>(n));
    }
    int code = Z_OK;
    const std::string message = gzerror(file, &code);
    gzclose(file);
    if (code != Z_OK && code != Z_STREAM_END) {
      throw CorruptFileError("'{}' is not a valid gzip file: {}", path, message);
    }
    buffer->data_ = buffer->owned_.data();
    buffer->size_ = buffer->owned_.size();
    return buffer;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IOError("cannot open '{}': {}", path, std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw IOError("cannot read '{}': {}", path, std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IOError("'{}' is a directory, not a CSV file", path);
  }
  buffer->size_ = static_cast<size_t>(st.st_size);
  if (buffer->size_ > 0) {
    void* map = ::mmap(nullptr, buffer->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      ::close(fd);
      throw IOError("cannot map '{}': {}", path, std::strerror(errno));
    }
    ::madvise(map, buffer->size_, MADV_SEQUENTIAL);
    buffer->mapping_ = map;
    buffer->data_ = static_cast<const char*>(map);
  }
  ::close(fd);
  return buffer;
}

CsvFileBuffer::~CsvFileBuffer() {
  if (mapping_) ::munmap(mapping_, size_);
}

int64_t CsvFileBuffer::LineOf(size_t offset) const {
  offset = std::min(offset, size_);
  return 1 + std::count(data_, data_ + offset, '\n');
}

// ---------------------------------------------------------------- tokenizer

CsvTokenizer::CsvTokenizer(const CsvDialect& dialect, int64_t max_line_size)
    : dialect_(dialect), max_line_size_(max_line_size) {
  special_[static_cast<uint8_t>(dialect.delimiter)] = true;
  special_[static_cast<uint8_t>('\n')] = true;
  special_[static_cast<uint8_t>('\r')] = true;
}

size_t CsvTokenizer::SkipToLineStart(const char* data, size_t size, size_t pos) const {
  if (pos == 0) return 0;
  if (pos >= size) return size;
  if (data[pos - 1] == '\n') return pos;
  const void* nl = std::memchr(data + pos, '\n', size - pos);
  return nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) + 1 : size;
}

size_t CsvTokenizer::NextRow(const char* data, size_t size, size_t pos, CsvField* fields,
                             size_t max_fields, size_t* count, CsvRowProblem* problem) const {
  const char q = dialect_.quote;
  const char e = dialect_.escape;
  const char d = dialect_.delimiter;
  size_t p = pos;
  size_t n = 0;
  while (true) {
    CsvField f;
    if (q != '\0' && p < size && data[p] == q) {
      f.quoted = true;
      const size_t start = p + 1;
      size_t i = start;
      while (true) {
        size_t hit = size;
        if (e == q || e == '\0') {
          const void* found = std::memchr(data + i, q, size - i);
          if (found) hit = static_cast<size_t>(static_cast<const char*>(found) - data);
        } else {
          for (size_t k = i; k < size; k++) {
            if (data[k] == q || data[k] == e) {
              hit = k;
              break;
            }
          }
        }
        if (hit >= size) {
          problem->message = "unterminated quoted field (a quote opens it but none closes it)";
          problem->offset = p;
          problem->column = static_cast<int>(n);
          return 0;
        }
        if (data[hit] == e && e != q) {
          if (hit + 1 >= size) {
            problem->message = "unterminated quoted field (the file ends in an escape)";
            problem->offset = p;
            problem->column = static_cast<int>(n);
            return 0;
          }
          f.escaped = true;
          i = hit + 2;
          continue;
        }
        if (e == q && hit + 1 < size && data[hit + 1] == q) {
          f.escaped = true;
          i = hit + 2;
          continue;
        }
        i = hit;
        break;
      }
      f.ptr = data + start;
      f.len = static_cast<uint32_t>(i - start);
      p = i + 1;
      if (p < size && data[p] != d && data[p] != '\n' && data[p] != '\r') {
        problem->message =
            fmt::format("unexpected character '{}' after a closing quote", std::string(1, data[p]));
        problem->offset = p;
        problem->column = static_cast<int>(n);
        return 0;
      }
    } else {
      const size_t start = p;
      while (p < size && !special_[static_cast<uint8_t>(data[p])])
        p++;
      f.ptr = data + start;
      f.len = static_cast<uint32_t>(p - start);
    }
    if (n < max_fields) fields[n] = f;
    n++;
    if (static_cast<int64_t>(p - pos) > max_line_size_) {
      problem->message = fmt::format(
          "the row is longer than max_line_size ({} bytes; raise it with max_line_size = n)",
          max_line_size_);
      problem->offset = pos;
      problem->column = -1;
      return 0;
    }
    if (p >= size) {
      *count = n;
      return size;
    }
    const char c = data[p];
    if (c == d) {
      p++;
      continue;
    }
    if (c == '\r') {
      p++;
      if (p < size && data[p] == '\n') p++;
    } else {
      p++;
    }
    *count = n;
    return p;
  }
}

void UnescapeCsvField(const CsvField& f, const CsvDialect& dialect, std::string* out) {
  out->clear();
  for (uint32_t i = 0; i < f.len; i++) {
    const char c = f.ptr[i];
    if (i + 1 < f.len && ((c == dialect.escape && dialect.escape != '\0') ||
                          (c == dialect.quote && f.ptr[i + 1] == dialect.quote))) {
      out->push_back(f.ptr[++i]);
    } else {
      out->push_back(c);
    }
  }
}

std::string DefaultCsvColumnName(size_t i, size_t count) {
  const size_t width = std::to_string(count > 0 ? count - 1 : 0).size();
  std::string digits = std::to_string(i);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return "column" + digits;
}

// ---------------------------------------------------------------- values

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

bool ParseCsvInt64(std::string_view s, int64_t* out) {
  if (!s.empty() &&
      (s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t')) {
    s = TrimBlanks(s);
  }
  if (s.empty()) return false;
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    i = 1;
    if (s.size() == 1) return false;
  }
  uint64_t v = 0;
  if (s.size() - i <= 18) {
    // At most 18 digits cannot overflow: no check per digit.
    for (; i < s.size(); i++) {
      const unsigned digit = static_cast<unsigned char>(s[i]) - '0';
      if (digit > 9) return false;
      v = v * 10 + digit;
    }
    *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }
  for (; i < s.size(); i++) {
    const unsigned digit = static_cast<unsigned char>(s[i]) - '0';
    if (digit > 9) return false;
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  if (negative) {
    if (v > uint64_t{1} << 63) return false;
    *out = static_cast<int64_t>(0 - v);
  } else {
    if (v > static_cast<uint64_t>(INT64_MAX)) return false;
    *out = static_cast<int64_t>(v);
  }
  return true;
}

bool ParseCsvDouble(std::string_view s, double* out) {
  // Fast path for plain decimals of at most 15 digits ("-18.92"): the digits and the power of
  // ten are exact doubles, so one division rounds correctly (Clinger's fast path).
  if (!s.empty() && s.size() <= 17) {
    static const double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
    uint64_t m = 0;
    int digits = 0, fraction = -1;
    for (; i < s.size(); i++) {
      const unsigned digit = static_cast<unsigned char>(s[i]) - '0';
      if (digit <= 9) {
        m = m * 10 + digit;
        digits++;
        if (fraction >= 0) fraction++;
      } else if (s[i] == '.' && fraction < 0) {
        fraction = 0;
      } else {
        break;
      }
    }
    if (i == s.size() && digits > 0 && digits <= 15) {
      const double v = static_cast<double>(m) / kPow10[fraction < 0 ? 0 : fraction];
      *out = s[0] == '-' ? -v : v;
      return true;
    }
  }
  s = TrimBlanks(s);
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

/// A decimal with `scale` fraction digits (more are rounded half away from zero); false when
/// malformed or wider than `precision` digits.
bool ParseCsvDecimal(std::string_view s, int precision, int scale, int128_t* out) {
  s = TrimBlanks(s);
  if (s.empty()) return false;
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    i = 1;
  }
  // Below 10^38: every DECIMAL fits, and v * 10 + 9 cannot overflow.
  const int128_t kMax = static_cast<int128_t>(10000000000000000000ULL) * 10000000000000000000ULL;
  int128_t v = 0;
  int fraction = 0;
  bool dot = false, any = false, decided = false, round_up = false;
  for (; i < s.size(); i++) {
    const char c = s[i];
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    const unsigned digit = static_cast<unsigned char>(c) - '0';
    if (digit > 9) return false;
    any = true;
    if (dot) {
      if (fraction == scale) {
        // The first digit past the scale decides the rounding; later ones are dropped.
        if (!decided) round_up = digit >= 5;
        decided = true;
        continue;
      }
      fraction++;
    }
    v = v * 10 + digit;
    if (v >= kMax) return false;
  }
  if (!any) return false;
  if (fraction > scale) fraction = scale;
  for (int f = fraction; f < scale; f++)
    v *= 10;
  if (round_up) v += 1;
  int128_t limit = 1;
  for (int p = 0; p < precision; p++)
    limit *= 10;
  if (v >= limit) return false;
  *out = negative ? -v : v;
  return true;
}

bool ParseCsvBool(std::string_view s, bool* out) {
  s = TrimBlanks(s);
  if (EqualsAsciiLower(s, "true") || EqualsAsciiLower(s, "t") || s == "1") {
    *out = true;
    return true;
  }
  if (EqualsAsciiLower(s, "false") || EqualsAsciiLower(s, "f") || s == "0") {
    *out = false;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- chunk reader

CsvChunkReader::CsvChunkReader(const CsvScanInfo& info, std::shared_ptr<const CsvFileBuffer> buffer,
                               size_t file_columns, std::vector<CsvTarget> targets, size_t begin,
                               size_t end, std::atomic<uint64_t>* rows_rejected)
    : info_(info),
      buffer_(std::move(buffer)),
      tokenizer_(info.dialect, info.options.max_line_size),
      file_columns_(file_columns),
      targets_(std::move(targets)),
      end_(std::min(end, buffer_->size())),
      rows_rejected_(rows_rejected),
      fields_(std::max<size_t>(file_columns, 1) + 1) {
  const char* data = buffer_->data();
  const size_t size = buffer_->size();
  size_t pos = 0;
  if (begin == 0) {
    // The file's start: skipped lines, then the header row.
    for (int64_t i = 0; i < info.options.skip && pos < size; i++)
      pos = tokenizer_.SkipToLineStart(data, size, pos + 1);
    if (info.dialect.header && pos < size) {
      size_t count;
      CsvRowProblem problem;
      const size_t next =
          tokenizer_.NextRow(data, size, pos, fields_.data(), fields_.size(), &count, &problem);
      if (next == 0) Fail(problem);
      pos = next;
    }
  } else {
    // A row boundary near `begin`: the first line start after which some rows parse with the
    // file's number of fields (the scan checks that the previous chunk stopped right there).
    pos = tokenizer_.SkipToLineStart(data, size, begin);
    for (int attempt = 0; attempt < 8 && pos < size; attempt++) {
      size_t p = pos;
      bool good = true;
      for (int r = 0; r < 4 && p < size && good; r++) {
        size_t count;
        CsvRowProblem problem;
        const size_t next =
            tokenizer_.NextRow(data, size, p, fields_.data(), fields_.size(), &count, &problem);
        good = next != 0 && (count == file_columns_ || info.options.ignore_errors);
        p = next;
      }
      if (good) break;
      pos = tokenizer_.SkipToLineStart(data, size, pos + 1);
    }
  }
  pos_ = pos;
  first_row_ = pos;
}

void CsvChunkReader::Fail(const CsvRowProblem& problem) const {
  std::string column;
  if (problem.column >= 0) {
    const size_t c = static_cast<size_t>(problem.column);
    column = fmt::format(", column {}", c + 1);
    if (c < info_.names.size() && info_.column_maps.empty()) {
      column += " ('" + info_.names[c] + "')";
    }
  }
  throw InvalidInputError("CSV file '{}', line {}{}: {}", buffer_->path(),
                          buffer_->LineOf(problem.offset), column, problem.message);
}

namespace {

/// Conversions of the numeric types: ConvertColumn's loops call them first for plain fields
/// (not escaped, not empty), Convert for the rest; false when the text does not fit.
struct BigintFast {
  static bool Put(std::string_view text, Vector& v, idx_t row) {
    int64_t value;
    if (!ParseCsvInt64(text, &value)) return false;
    v.data<int64_t>()[row] = value;
    return true;
  }
};
struct IntegerFast {
  static bool Put(std::string_view text, Vector& v, idx_t row) {
    int64_t value;
    if (!ParseCsvInt64(text, &value) || value < INT32_MIN || value > INT32_MAX) {
      return false;
    }
    v.data<int32_t>()[row] = static_cast<int32_t>(value);
    return true;
  }
};
struct DoubleFast {
  static bool Put(std::string_view text, Vector& v, idx_t row) {
    double value;
    if (!ParseCsvDouble(text, &value)) return false;
    v.data<double>()[row] = value;
    return true;
  }
};

}  // namespace

bool CsvChunkReader::Convert(const CsvField& f, Vector& v, idx_t row, const CsvTarget& target,
                             std::string* problem) {
  const TypeId id = target.type.id();
  const bool is_string = id == TypeId::kVarchar || id == TypeId::kBlob;
  if (f.len == 0 && (!f.quoted || !is_string)) {
    v.validity().SetNull(row);
    return true;
  }
  std::string_view text(f.ptr, f.len);
  if (f.escaped) {
    UnescapeCsvField(f, info_.dialect, &scratch_);
    text = scratch_;
  }
  if (!f.quoted && !info_.options.null_string.empty() && text == info_.options.null_string) {
    v.validity().SetNull(row);
    return true;
  }
  v.validity().SetValid(row);
  auto fail = [&](const char* what) {
    *problem = fmt::format("'{}' is not {}{}", text.substr(0, 100), what,
                           text.size() > 100 ? " (the value is cut short here)" : "");
    return false;
  };
  switch (id) {
    case TypeId::kBigint:
      return BigintFast::Put(text, v, row) || fail("a BIGINT");
    case TypeId::kInteger:
      return IntegerFast::Put(text, v, row) || fail("an INTEGER");
    case TypeId::kDouble:
      return DoubleFast::Put(text, v, row) || fail("a DOUBLE");
    case TypeId::kDecimal: {
      int128_t value;
      if (!ParseCsvDecimal(text, target.type.precision(), target.type.scale(), &value)) {
        return fail(target.type.ToString().c_str());
      }
      if (target.type.physical() == PhysicalType::kInt64) {
        v.data<int64_t>()[row] = static_cast<int64_t>(value);
      } else {
        v.data<int128_t>()[row] = value;
      }
      return true;
    }
    case TypeId::kBoolean: {
      bool value;
      if (!ParseCsvBool(text, &value)) return fail("a BOOLEAN");
      v.data<uint8_t>()[row] = value;
      return true;
    }
    case TypeId::kDate: {
      int32_t days;
      if (!info_.date_format.ParseDate(TrimBlanks(text), &days)) {
        return fail(info_.date_format.iso()
                        ? "a DATE (YYYY-MM-DD)"
                        : ("a DATE in the format " + info_.date_format.text).c_str());
      }
      v.data<int32_t>()[row] = days;
      return true;
    }
    case TypeId::kTimestamp: {
      int64_t micros;
      if (!info_.timestamp_format.ParseTimestamp(TrimBlanks(text), &micros)) {
        // A date alone is a timestamp at midnight; a timestamp format may not say so.
        int32_t days;
        if (info_.date_format.ParseDate(TrimBlanks(text), &days)) {
          v.data<int64_t>()[row] = int64_t{days} * 86400 * 1000000;
          return true;
        }
        return fail(info_.timestamp_format.iso()
                        ? "a TIMESTAMP (YYYY-MM-DD HH:MM:SS)"
                        : ("a TIMESTAMP in the format " + info_.timestamp_format.text).c_str());
      }
      v.data<int64_t>()[row] = micros;
      return true;
    }
    case TypeId::kVarchar:
    case TypeId::kBlob:
      if (id == TypeId::kVarchar && !IsValidUtf8(text.data(), text.size())) {
        *problem = "the value is not valid UTF-8";
        return false;
      }
      v.data<StringRef>()[row] = f.escaped ? v.AddString(text) : StringRef(text);
      return true;
    default:
      break;
  }
  // Types without a fast path here: the engine's cast from text.
  try {
    WriteValue(v, row, CastValue(Value::Varchar(std::string(text)), target.type));
    return true;
  } catch (const Error&) {
    return fail(target.type.ToString().c_str());
  }
}

template <typename Fast>
void CsvChunkReader::ConvertColumn(const CsvTarget& target, Vector& v, idx_t rows,
                                   bool fast_allowed) {
  const size_t n = file_columns_;
  const size_t fc = static_cast<size_t>(target.file_column);
  for (idx_t r = 0; r < rows; r++) {
    if (rejected_[r]) continue;
    const CsvField& f = matrix_[r * n + fc];
    if (fast_allowed && f.len != 0 && !f.escaped &&
        Fast::Put(std::string_view(f.ptr, f.len), v, r)) {
      v.validity().SetValid(r);
      continue;
    }
    if (!Convert(f, v, r, target, &message_)) Reject(r, target);
  }
}

void CsvChunkReader::Reject(idx_t row, const CsvTarget& target) {
  rejected_[row] = 1;
  any_rejected_ = true;
  if (info_.options.ignore_errors) return;
  // The first bad row is the one reported (columns are converted one after the other).
  if (pending_row_ < 0 || static_cast<int64_t>(row) < pending_row_) {
    pending_row_ = static_cast<int64_t>(row);
    pending_.offset = row_starts_[row];
    pending_.column = target.file_column;
    pending_.message = message_ + " (column type " + target.type.ToString() +
                       "; set types or all_varchar = true, or ignore_errors = true)";
  }
}

bool CsvChunkReader::Read(Batch& out) {
  while (pos_ < end_) {
    if (ReadBatch(out) > 0) return true;  // else every row of the batch was bad
  }
  out.SetSize(0);
  return false;
}

idx_t CsvChunkReader::ReadBatch(Batch& out) {
  const char* data = buffer_->data();
  const size_t size = buffer_->size();
  const size_t n = file_columns_;
  for (const CsvTarget& target : targets_) {
    Vector& v = out.column(target.out_column);
    v.Reset();
    if (v.type().IsString()) v.KeepAlive(buffer_);
  }
  if (matrix_.empty()) {
    matrix_.resize(kBatchSize * std::max<size_t>(n, 1) + 1);
    row_starts_.resize(kBatchSize);
    rejected_.resize(kBatchSize);
  }
  // Split the rows first, then convert column by column (one type per loop).
  idx_t rows = 0;
  bool stop_error = false;
  CsvRowProblem row_problem;
  while (rows < kBatchSize && pos_ < end_) {
    const size_t row_start = pos_;
    size_t count = 0;
    CsvField* fields = &matrix_[rows * n];
    const size_t next =
        tokenizer_.NextRow(data, size, pos_, fields, std::max<size_t>(n, 1), &count, &row_problem);
    if (next == 0) {
      if (!info_.options.ignore_errors) {
        stop_error = true;  // reported after the rows before it (which may fail first)
        break;
      }
      rows_rejected_->fetch_add(1, std::memory_order_relaxed);
      pos_ = tokenizer_.SkipToLineStart(data, size, row_start + 1);
      continue;
    }
    if (count == 1 && fields[0].len == 0 && !fields[0].quoted && n != 1) {
      pos_ = next;
      continue;  // an empty line
    }
    if (count != n) {
      if (!info_.options.ignore_errors) {
        row_problem.message = fmt::format("expected {} fields but found {}", n, count);
        row_problem.offset = row_start;
        row_problem.column = -1;
        stop_error = true;
        break;
      }
      pos_ = next;
      rows_rejected_->fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    pos_ = next;
    row_starts_[rows] = row_start;
    rejected_[rows] = 0;
    rows++;
  }
  any_rejected_ = false;
  pending_row_ = -1;
  pending_.column = -1;
  const bool fast = info_.options.null_string.empty();
  for (const CsvTarget& target : targets_) {
    Vector& v = out.column(target.out_column);
    if (target.file_column < 0) {
      for (idx_t r = 0; r < rows; r++)
        v.validity().SetNull(r);
      continue;
    }
    switch (target.type.id()) {
      case TypeId::kBigint:
        ConvertColumn<BigintFast>(target, v, rows, fast);
        break;
      case TypeId::kInteger:
        ConvertColumn<IntegerFast>(target, v, rows, fast);
        break;
      case TypeId::kDouble:
        ConvertColumn<DoubleFast>(target, v, rows, fast);
        break;
      default:
        ConvertColumn<BigintFast>(target, v, rows, false);
        break;
    }
  }
  if (pending_row_ >= 0) Fail(pending_);
  if (stop_error) Fail(row_problem);
  idx_t kept = rows;
  if (any_rejected_) {
    kept = 0;
    for (idx_t r = 0; r < rows; r++) {
      if (!rejected_[r]) sel_[kept++] = static_cast<uint32_t>(r);
    }
    rows_rejected_->fetch_add(rows - kept, std::memory_order_relaxed);
    out.SetSize(rows);
    out.Select(sel_.data(), kept);
  }
  out.SetSize(kept);
  return kept;
}

}  // namespace shears
