#include "storage/parquet/value_conversion.h"

#include <cmath>
#include <cstring>

#include "common/datetime.h"
#include "common/decimal.h"
#include "common/error.h"
#include "common/utf8.h"

namespace shears::parquet {

namespace {

constexpr int64_t kJulianEpochDay = 2440588;  // 1970-01-01
constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

int64_t Int96ToMicros(const Int96& value) {
  int64_t nanos;
  int32_t julian_day;
  std::memcpy(&nanos, value.bytes, 8);
  std::memcpy(&julian_day, value.bytes + 8, 4);
  // Wrapping 64-bit arithmetic, exactly as Spark computes it on write and read: Spark's writer
  // overflows for years past ~290,000 and its reader wraps back, so only this recovers the
  // value Spark stored (e.g. 290000-12-30 in int96_from_spark.parquet).
  const uint64_t days = static_cast<uint64_t>(static_cast<int64_t>(julian_day) - kJulianEpochDay);
  const uint64_t micros = days * static_cast<uint64_t>(kMicrosPerDay) +
                          static_cast<uint64_t>(nanos / 1000 - (nanos % 1000 < 0 ? 1 : 0));
  return static_cast<int64_t>(micros);
}

int64_t MillisToMicros(int64_t millis) {
  if (!IsFiniteTimestamp(millis)) return millis;  // DuckDB's infinities in any unit
  int64_t micros;
  if (__builtin_mul_overflow(millis, int64_t{1000}, &micros)) {
    throw CorruptFileError("TIMESTAMP(MILLIS) value {} is out of range", millis);
  }
  return micros;
}

// Big-endian two's complement of any length, as DECIMAL in (FIXED_LEN_)BYTE_ARRAY stores it.
int128_t BigEndianToInt128(const StringRef& bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.ptr);
  size_t n = bytes.len;
  if (n == 0) return 0;
  const bool negative = p[0] & 0x80;
  // Leading bytes beyond 16 must be pure sign extension.
  while (n > 16) {
    if (p[0] != (negative ? 0xFF : 0x00)) {
      throw CorruptFileError("DECIMAL value of {} bytes does not fit 38 digits", bytes.len);
    }
    p++;
    n--;
  }
  uint128_t value = negative ? ~uint128_t{0} : 0;
  for (size_t i = 0; i < n; i++)
    value = (value << 8) | p[i];
  return static_cast<int128_t>(value);
}

std::string FormatUuid(const uint8_t* b) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 15]);
  }
  return out;
}

template <typename Src, typename Dst, typename F>
void Map(const void* physical, idx_t count, Vector& out, idx_t out_offset, F f) {
  const Src* src = static_cast<const Src*>(physical);
  Dst* dst = out.data<Dst>() + out_offset;
  for (idx_t i = 0; i < count; i++)
    dst[i] = f(src[i]);
}

template <typename Src>
void StoreDecimal(const void* physical, idx_t count, Vector& out, idx_t out_offset) {
  if (out.type().physical() == PhysicalType::kInt64) {
    Map<Src, int64_t>(physical, count, out, out_offset, [](Src v) { return int64_t(v); });
  } else {
    Map<Src, int128_t>(physical, count, out, out_offset, [](Src v) { return int128_t(v); });
  }
}

}  // namespace

double HalfToDouble(uint16_t half) {
  const int sign = half >> 15;
  const int exponent = (half >> 10) & 0x1F;
  const int mantissa = half & 0x3FF;
  double value;
  if (exponent == 0) {
    value = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
  } else {
    value = std::ldexp(mantissa | 0x400, exponent - 25);
  }
  return sign ? -value : value;
}

size_t PhysicalValueSize(format::Type::type type) {
  switch (type) {
    case format::Type::BOOLEAN:
      return 1;
    case format::Type::INT32:
    case format::Type::FLOAT:
      return 4;
    case format::Type::INT64:
    case format::Type::DOUBLE:
      return 8;
    case format::Type::INT96:
      return sizeof(Int96);
    case format::Type::BYTE_ARRAY:
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      return sizeof(StringRef);
  }
  return 0;
}

void ConvertValues(const ColumnDescriptor& column, const void* physical, idx_t count, Vector& out,
                   idx_t out_offset) {
  if (count == 0) return;
  const auto physical_type = column.physical_type;
  switch (column.conversion) {
    case Conversion::kNone:
    case Conversion::kBoolean: {
      size_t width = PhysicalValueSize(physical_type);
      std::memcpy(out.raw_data() + out_offset * width, physical, count * width);
      return;
    }
    case Conversion::kInt32ToInt64:
      Map<int32_t, int64_t>(physical, count, out, out_offset,
                            [](int32_t v) { return int64_t(static_cast<uint32_t>(v)); });
      return;
    case Conversion::kUInt64ToDecimal:
      Map<int64_t, int128_t>(physical, count, out, out_offset,
                             [](int64_t v) { return int128_t(static_cast<uint64_t>(v)); });
      return;
    case Conversion::kFloatToDouble:
      Map<float, double>(physical, count, out, out_offset, [](float v) { return double(v); });
      return;
    case Conversion::kFloat16ToDouble:
      Map<StringRef, double>(physical, count, out, out_offset, [](const StringRef& v) {
        uint16_t half;
        std::memcpy(&half, v.ptr, 2);
        return HalfToDouble(half);
      });
      return;
    case Conversion::kInt32Decimal:
      StoreDecimal<int32_t>(physical, count, out, out_offset);
      return;
    case Conversion::kInt64Decimal:
      StoreDecimal<int64_t>(physical, count, out, out_offset);
      return;
    case Conversion::kBinaryDecimal: {
      const int128_t limit = Pow10(column.type.precision());
      const auto* src = static_cast<const StringRef*>(physical);
      auto check = [&](int128_t v) {
        if (v >= limit || v <= -limit) {
          throw CorruptFileError("DECIMAL value in column '{}' exceeds precision {}", column.name,
                                 column.type.precision());
        }
        return v;
      };
      if (out.type().physical() == PhysicalType::kInt64) {
        int64_t* dst = out.data<int64_t>() + out_offset;
        for (idx_t i = 0; i < count; i++)
          dst[i] = static_cast<int64_t>(check(BigEndianToInt128(src[i])));
      } else {
        int128_t* dst = out.data<int128_t>() + out_offset;
        for (idx_t i = 0; i < count; i++)
          dst[i] = check(BigEndianToInt128(src[i]));
      }
      return;
    }
    case Conversion::kMillisToMicros:
      Map<int64_t, int64_t>(physical, count, out, out_offset, MillisToMicros);
      return;
    case Conversion::kMillis32ToMicros:
      Map<int32_t, int64_t>(physical, count, out, out_offset,
                            [](int32_t v) { return int64_t{v} * 1000; });
      return;
    case Conversion::kNanosToMicros:
      Map<int64_t, int64_t>(physical, count, out, out_offset,
                            [](int64_t v) { return IsFiniteTimestamp(v) ? FloorDiv(v, 1000) : v; });
      return;
    case Conversion::kInt96ToMicros:
      Map<Int96, int64_t>(physical, count, out, out_offset, Int96ToMicros);
      return;
    case Conversion::kUuid: {
      const auto* src = static_cast<const StringRef*>(physical);
      StringRef* dst = out.data<StringRef>() + out_offset;
      for (idx_t i = 0; i < count; i++) {
        dst[i] = out.AddString(FormatUuid(reinterpret_cast<const uint8_t*>(src[i].ptr)));
      }
      return;
    }
    case Conversion::kString: {
      const auto* src = static_cast<const StringRef*>(physical);
      if (column.type.id() == TypeId::kVarchar) {
        for (idx_t i = 0; i < count; i++) {
          if (!IsValidUtf8(src[i].ptr, src[i].len)) {
            throw CorruptFileError("column '{}' holds invalid UTF-8 text", column.name);
          }
        }
      }
      std::memcpy(out.data<StringRef>() + out_offset, src, count * sizeof(StringRef));
      return;
    }
  }
}

std::optional<Value> DecodePlainBound(const ColumnDescriptor& column, const std::string& bytes) {
  // A LIST column's bounds are its elements', not its values'.
  if (!column.type.valid() || column.max_repetition_level > 0) return std::nullopt;
  const auto physical = column.physical_type;
  // Decode the physical value, then run it through the same conversion as the reader.
  alignas(16) uint8_t buffer[sizeof(StringRef) > 12 ? sizeof(StringRef) : 12];
  StringRef ref(bytes.data(), static_cast<uint32_t>(bytes.size()));
  switch (physical) {
    case format::Type::BOOLEAN:
      if (bytes.size() != 1) return std::nullopt;
      buffer[0] = bytes[0] != 0;
      break;
    case format::Type::INT32:
    case format::Type::FLOAT:
      if (bytes.size() != 4) return std::nullopt;
      std::memcpy(buffer, bytes.data(), 4);
      if (physical == format::Type::FLOAT) {
        float f;
        std::memcpy(&f, buffer, 4);
        if (std::isnan(f)) return std::nullopt;
      }
      break;
    case format::Type::INT64:
    case format::Type::DOUBLE:
      if (bytes.size() != 8) return std::nullopt;
      std::memcpy(buffer, bytes.data(), 8);
      if (physical == format::Type::DOUBLE) {
        double d;
        std::memcpy(&d, buffer, 8);
        if (std::isnan(d)) return std::nullopt;
      }
      break;
    case format::Type::INT96:
      return std::nullopt;
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      if (bytes.size() != static_cast<size_t>(column.type_length) &&
          column.conversion != Conversion::kString) {
        return std::nullopt;
      }
      [[fallthrough]];
    case format::Type::BYTE_ARRAY:
      std::memcpy(buffer, &ref, sizeof(ref));
      break;
  }
  Vector vector(column.type, 1);
  try {
    ConvertValues(column, buffer, 1, vector, 0);
  } catch (const Error&) {
    return std::nullopt;  // e.g. a truncated UTF-8 bound: unusable, not fatal
  }
  if (column.type.IsFloatingPoint() && std::isnan(vector.data<double>()[0])) {
    return std::nullopt;
  }
  return ReadValue(vector, 0);
}

}  // namespace shears::parquet
