#pragma once
// LIST values as bytes. A LIST(T) value is one byte string (stored as a StringRef in vectors,
// as a std::string in a Value) holding its elements in order, each a tag byte and, for a
// value, its key bytes:
//
//   tag 0x01 value, 0x02 NULL           NULL elements sort after values (DuckDB's order)
//   BOOLEAN                             1 byte
//   INTEGER, DATE                       4 bytes big-endian, sign bit flipped
//   BIGINT, TIMESTAMP, TIME, DECIMAL<=18  8 bytes big-endian, sign bit flipped
//   DECIMAL>18, INTERVAL                16 bytes big-endian, sign bit flipped
//   DOUBLE, REAL                        8 bytes of the double, ordered (-0 as 0, one NaN, last)
//   VARCHAR, BLOB                       the bytes, 0x00 as 0x00 0xFF, ended by 0x00 0x00
//   LIST, STRUCT, MAP                   their own bytes, escaped and ended as a VARCHAR's
//
// A STRUCT's bytes are its fields' in order, each as a list element of the field's type (so
// structs compare field by field, a NULL field above every value); a MAP's are those of a
// LIST(STRUCT(key, value)). Escaping a nested value's bytes keeps their order (a prefix still
// sorts first), so the rules below hold at every depth.
//
// Two lists of one type compare by memcmp of their bytes as the lists compare (element by
// element, a prefix first) and are equal exactly when their bytes are, so every operator that
// hashes, compares, sorts, spills or ships strings serves lists unchanged. The price: an
// element is decoded to be read (fixed-width elements in a few instructions).

#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace shears {

class Vector;

/// Appends a nested value's bytes to `out` as an element (or struct field) of a list: the value
/// tag, the bytes escaped and ended as a VARCHAR's.
void AppendEscapedElement(std::string* out, std::string_view bytes);

/// Appends elements of one type to a list's bytes.
class ListWriter {
 public:
  explicit ListWriter(LogicalType element) : element_(element) {}
  void AppendNull() { bytes_.push_back(kNullTag); }
  /// `value` of the element type (or NULL).
  void AppendValue(const Value& value);
  /// Row `row` of `vector`, a vector of the element type.
  void AppendFrom(const Vector& vector, idx_t row);
  /// A nested element's own bytes (a LIST, STRUCT or MAP value).
  void AppendNested(std::string_view bytes) { AppendEscapedElement(&bytes_, bytes); }
  /// One element's bytes as ListReader::raw() gives them (same element type).
  void AppendRaw(std::string_view raw) { bytes_.append(raw); }
  const std::string& bytes() const { return bytes_; }
  void Clear() { bytes_.clear(); }

  static constexpr char kValueTag = 0x01;
  static constexpr char kNullTag = 0x02;

 private:
  void AppendString(std::string_view text);
  void AppendFixed(uint128_t key, int width);
  LogicalType element_;
  std::string bytes_;
};

/// Walks a list's elements: `while (reader.Next()) ...`. A malformed list (bytes that are not
/// one of this type) is an InternalError, never a read past the end.
class ListReader {
 public:
  ListReader(LogicalType element, std::string_view bytes) : element_(element), bytes_(bytes) {}
  bool Next();
  /// The type of the elements Next reads from now on (a STRUCT's next field).
  void set_element(LogicalType element) { element_ = element; }
  bool IsNull() const { return null_; }
  /// The current element (NULL when IsNull) as a Value of the element type.
  Value GetValue() const;
  /// Stores the current element at `row` of `vector` (a vector of the element type).
  void WriteTo(Vector& vector, idx_t row) const;
  /// The current (non-NULL) string or nested element's own bytes, unescaped.
  std::string Bytes() const { return DecodeString(); }
  /// The current element's bytes, tag included.
  std::string_view raw() const { return bytes_.substr(start_, pos_ - start_); }
  /// The current (non-NULL) element as text, as a list prints it (before quoting).
  std::string Text() const;

 private:
  uint128_t ReadFixed(size_t offset, int width) const;
  std::string DecodeString() const;
  LogicalType element_;
  std::string_view bytes_;
  size_t start_ = 0;  // the current element's tag
  size_t pos_ = 0;    // past the current element
  size_t payload_ = 0;
  bool null_ = false;
};

/// The list's bytes for `values` (each cast to `element` already, or NULL).
std::string EncodeList(const LogicalType& element, const std::vector<Value>& values);
/// The elements of a list.
std::vector<Value> DecodeList(const LogicalType& element, std::string_view bytes);
/// The number of elements.
idx_t ListLength(const LogicalType& element, std::string_view bytes);
/// DuckDB's text of a list: [1, 2, NULL], strings quoted when they would read ambiguously
/// ('', ' a', 'a,b', 'null'), with \' and \\ inside quotes.
std::string ListToString(const LogicalType& element, std::string_view bytes);
/// Splits DuckDB's list text ("[1, 'a,b', NULL]") into its element texts; a NULL element is
/// nullopt-like: `is_null[i]` set. Returns false on malformed text (no brackets, unbalanced
/// quotes or brackets). A nested element ([1, 2], {'a': 1}) is kept as its text.
bool SplitListText(std::string_view text, std::vector<std::string>* elements,
                   std::vector<bool>* is_null);
/// Splits DuckDB's struct text ("{'a': 1, b: 'x'}") into field names and value texts, as
/// SplitListText does a list's. Returns false on malformed text.
bool SplitStructText(std::string_view text, std::vector<std::string>* names,
                     std::vector<std::string>* values, std::vector<bool>* is_null);

/// A STRUCT's bytes from its field values (each of its field's type, or NULL).
std::string EncodeStruct(const LogicalType& struct_type, const std::vector<Value>& fields);
/// A STRUCT's field values.
std::vector<Value> DecodeStruct(const LogicalType& struct_type, std::string_view bytes);
/// The bytes of one field (tag included, as ListReader::raw() gives them) of a STRUCT value.
std::string_view StructFieldRaw(const LogicalType& struct_type, std::string_view bytes,
                                size_t field);
/// DuckDB's text of a LIST, STRUCT or MAP value: [1, 2], {'a': 1, 'b': x}, (1, x) for
/// row()'s unnamed fields, {1=a, 2=b}.
std::string NestedToString(const LogicalType& type, std::string_view bytes);

}  // namespace shears
