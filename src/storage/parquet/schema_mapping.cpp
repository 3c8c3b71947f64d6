#include "storage/parquet/schema_mapping.h"

// Parquet's schema and shears' types, both ways: what a file's primitive column reads as
// (MapPrimitive) and the schema element of a column shears writes (SchemaFor), so that every
// type shears writes reads back as itself (tests/unit/parquet_schema_mapping_test.cpp).

#include <fmt/format.h>

#include "common/error.h"
#include "storage/parquet/nested_schema.h"

namespace shears::parquet {

namespace {

const char* PhysicalTypeName(format::Type::type type) {
  switch (type) {
    case format::Type::BOOLEAN:
      return "BOOLEAN";
    case format::Type::INT32:
      return "INT32";
    case format::Type::INT64:
      return "INT64";
    case format::Type::INT96:
      return "INT96";
    case format::Type::FLOAT:
      return "FLOAT";
    case format::Type::DOUBLE:
      return "DOUBLE";
    case format::Type::BYTE_ARRAY:
      return "BYTE_ARRAY";
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

const char* TimeUnitName(const format::TimeUnit& unit) {
  if (unit.__isset.MILLIS) return "MILLIS";
  if (unit.__isset.NANOS) return "NANOS";
  return "MICROS";
}

}  // namespace

void MapPrimitive(const format::SchemaElement& element, ColumnDescriptor* column) {
  const auto physical = element.type;
  column->physical_type = physical;
  column->type_length = element.__isset.type_length ? element.type_length : 0;
  std::string annotation;
  auto unsupported = [&](const std::string& what) {
    column->type = LogicalType();
    column->unsupported_reason =
        fmt::format("column '{}' has type {} ({}), which shears does not support yet", element.name,
                    PhysicalTypeName(physical), what);
  };
  auto set_decimal = [&](int precision, int scale, Conversion conversion) {
    annotation = fmt::format("DECIMAL({},{})", precision, scale);
    if (precision < 1 || precision > LogicalType::kMaxDecimalPrecision || scale < 0 ||
        scale > precision) {
      unsupported(annotation);
      return;
    }
    column->type = LogicalType::Decimal(precision, scale);
    column->conversion = conversion;
  };

  const bool has_logical = element.__isset.logicalType;
  const auto& logical = element.logicalType;
  const bool has_converted = element.__isset.converted_type;
  const auto converted = element.converted_type;

  bool is_decimal = (has_logical && logical.__isset.DECIMAL) ||
                    (has_converted && converted == format::ConvertedType::DECIMAL);
  int precision =
      has_logical && logical.__isset.DECIMAL ? logical.DECIMAL.precision : element.precision;
  int scale = has_logical && logical.__isset.DECIMAL ? logical.DECIMAL.scale : element.scale;

  switch (physical) {
    case format::Type::BOOLEAN:
      column->type = LogicalType::Boolean();
      column->conversion = Conversion::kBoolean;
      break;
    case format::Type::INT32: {
      if (is_decimal) {
        set_decimal(precision, scale, Conversion::kInt32Decimal);
        break;
      }
      if ((has_logical && logical.__isset.DATE) ||
          (has_converted && converted == format::ConvertedType::DATE)) {
        annotation = "DATE";
        column->type = LogicalType::Date();
        break;
      }
      if ((has_logical && logical.__isset.TIME) ||
          (has_converted && converted == format::ConvertedType::TIME_MILLIS)) {
        annotation = "TIME(MILLIS)";
        column->type = LogicalType::Time();
        column->conversion = Conversion::kMillis32ToMicros;
        break;
      }
      int bit_width = 32;
      bool is_signed = true;
      if (has_logical && logical.__isset.INTEGER) {
        bit_width = logical.INTEGER.bitWidth;
        is_signed = logical.INTEGER.isSigned;
      } else if (has_converted) {
        switch (converted) {
          case format::ConvertedType::UINT_8:
            bit_width = 8, is_signed = false;
            break;
          case format::ConvertedType::UINT_16:
            bit_width = 16, is_signed = false;
            break;
          case format::ConvertedType::UINT_32:
            bit_width = 32, is_signed = false;
            break;
          case format::ConvertedType::INT_8:
            bit_width = 8;
            break;
          case format::ConvertedType::INT_16:
            bit_width = 16;
            break;
          default:
            break;
        }
      }
      annotation = fmt::format("{}INT{}", is_signed ? "" : "U", bit_width);
      column->unsigned_order = !is_signed;
      if (!is_signed && bit_width == 32) {
        column->type = LogicalType::Bigint();
        column->conversion = Conversion::kInt32ToInt64;
      } else {
        column->type = LogicalType::Integer();
      }
      break;
    }
    case format::Type::INT64: {
      if (is_decimal) {
        set_decimal(precision, scale, Conversion::kInt64Decimal);
        break;
      }
      if (has_logical && logical.__isset.TIMESTAMP) {
        const auto& unit = logical.TIMESTAMP.unit;
        annotation = fmt::format("TIMESTAMP({}{})", TimeUnitName(unit),
                                 logical.TIMESTAMP.isAdjustedToUTC ? ", UTC" : "");
        column->type = LogicalType::Timestamp();
        column->conversion = unit.__isset.MILLIS  ? Conversion::kMillisToMicros
                             : unit.__isset.NANOS ? Conversion::kNanosToMicros
                                                  : Conversion::kNone;
        break;
      }
      if (has_converted && (converted == format::ConvertedType::TIMESTAMP_MILLIS ||
                            converted == format::ConvertedType::TIMESTAMP_MICROS)) {
        bool millis = converted == format::ConvertedType::TIMESTAMP_MILLIS;
        annotation = millis ? "TIMESTAMP_MILLIS" : "TIMESTAMP_MICROS";
        column->type = LogicalType::Timestamp();
        column->conversion = millis ? Conversion::kMillisToMicros : Conversion::kNone;
        break;
      }
      if ((has_logical && logical.__isset.TIME) ||
          (has_converted && converted == format::ConvertedType::TIME_MICROS)) {
        const bool nanos = has_logical && logical.__isset.TIME && logical.TIME.unit.__isset.NANOS;
        annotation = nanos ? "TIME(NANOS)" : "TIME(MICROS)";
        column->type = LogicalType::Time();
        column->conversion = nanos ? Conversion::kNanosToMicros : Conversion::kNone;
        break;
      }
      bool is_unsigned =
          (has_logical && logical.__isset.INTEGER && !logical.INTEGER.isSigned) ||
          (!has_logical && has_converted && converted == format::ConvertedType::UINT_64);
      if (is_unsigned) {
        // Values up to 2^64-1 do not fit BIGINT; DECIMAL(20,0) holds them exactly.
        annotation = "UINT64";
        column->unsigned_order = true;
        column->type = LogicalType::Decimal(20, 0);
        column->conversion = Conversion::kUInt64ToDecimal;
      } else {
        column->type = LogicalType::Bigint();
      }
      break;
    }
    case format::Type::INT96:
      column->type = LogicalType::Timestamp();
      column->conversion = Conversion::kInt96ToMicros;
      break;
    case format::Type::FLOAT:
      column->type = LogicalType::Float();  // held as the (exact) double of each float
      column->conversion = Conversion::kFloatToDouble;
      break;
    case format::Type::DOUBLE:
      column->type = LogicalType::Double();
      break;
    case format::Type::BYTE_ARRAY:
    case format::Type::FIXED_LEN_BYTE_ARRAY: {
      const bool fixed = physical == format::Type::FIXED_LEN_BYTE_ARRAY;
      if (fixed && column->type_length <= 0) {
        throw CorruptFileError("column '{}' is FIXED_LEN_BYTE_ARRAY without a valid type_length",
                               element.name);
      }
      column->unsigned_order = true;
      if (is_decimal) {
        column->unsigned_order = false;
        set_decimal(precision, scale, Conversion::kBinaryDecimal);
        break;
      }
      if (fixed && has_logical && logical.__isset.UUID) {
        if (column->type_length != 16) {
          throw CorruptFileError("UUID column '{}' has length {}, not 16", element.name,
                                 column->type_length);
        }
        annotation = "UUID";
        column->type = LogicalType::Varchar();
        column->conversion = Conversion::kUuid;
        break;
      }
      if (fixed && has_logical && logical.__isset.FLOAT16) {
        if (column->type_length != 2) {
          throw CorruptFileError("FLOAT16 column '{}' has length {}, not 2", element.name,
                                 column->type_length);
        }
        annotation = "FLOAT16";
        column->unsigned_order = false;
        column->type = LogicalType::Double();
        column->conversion = Conversion::kFloat16ToDouble;
        break;
      }
      if (has_converted && converted == format::ConvertedType::INTERVAL) {
        unsupported("INTERVAL");
        return;
      }
      bool is_string = (has_logical &&
                        (logical.__isset.STRING || logical.__isset.ENUM || logical.__isset.JSON)) ||
                       (has_converted && (converted == format::ConvertedType::UTF8 ||
                                          converted == format::ConvertedType::ENUM ||
                                          converted == format::ConvertedType::JSON));
      if (is_string) {
        annotation = has_logical && logical.__isset.JSON                         ? "JSON"
                     : has_logical && logical.__isset.ENUM                       ? "ENUM"
                     : has_converted && converted == format::ConvertedType::JSON ? "JSON"
                     : has_converted && converted == format::ConvertedType::ENUM ? "ENUM"
                                                                                 : "STRING";
        column->type = LogicalType::Varchar();
      } else {
        column->type = LogicalType::Blob();
      }
      column->conversion = Conversion::kString;
      break;
    }
    default:
      throw CorruptFileError("column '{}' has an invalid physical type ({})", element.name,
                             static_cast<int>(physical));
  }
  column->parquet_type_name = annotation.empty()
                                  ? PhysicalTypeName(physical)
                                  : fmt::format("{} ({})", PhysicalTypeName(physical), annotation);
  if (physical == format::Type::FIXED_LEN_BYTE_ARRAY) {
    column->parquet_type_name = fmt::format("FIXED_LEN_BYTE_ARRAY({}){}", column->type_length,
                                            annotation.empty() ? "" : " (" + annotation + ")");
  }
}

// Parquet's INTERVAL (FIXED_LEN_BYTE_ARRAY(12): months, days, milliseconds) cannot hold
// microseconds; rather than drop them silently, a write asks for a cast.
[[noreturn]] void ThrowIntervalNotWritable(const std::string& name) {
  throw NotSupportedError(
      "column '{}' is an INTERVAL, which cannot be written to Parquet yet; cast it to VARCHAR",
      name);
}

format::SchemaElement SchemaFor(const std::string& name, const LogicalType& type) {
  format::SchemaElement element;
  element.name = name;
  element.__set_repetition_type(format::FieldRepetitionType::OPTIONAL);
  format::LogicalType logical;
  switch (type.id()) {
    case TypeId::kBoolean:
      element.__set_type(format::Type::BOOLEAN);
      break;
    case TypeId::kInteger:
      element.__set_type(format::Type::INT32);
      break;
    case TypeId::kBigint:
      element.__set_type(format::Type::INT64);
      break;
    case TypeId::kDouble:
      element.__set_type(format::Type::DOUBLE);
      break;
    case TypeId::kFloat:
      element.__set_type(format::Type::FLOAT);
      break;
    case TypeId::kDecimal: {
      if (type.precision() <= 9) {
        element.__set_type(format::Type::INT32);
      } else if (type.precision() <= LogicalType::kMaxInt64DecimalPrecision) {
        element.__set_type(format::Type::INT64);
      } else {
        element.__set_type(format::Type::FIXED_LEN_BYTE_ARRAY);
        element.__set_type_length(16);
      }
      element.__set_converted_type(format::ConvertedType::DECIMAL);
      element.__set_precision(type.precision());
      element.__set_scale(type.scale());
      format::DecimalType decimal;
      decimal.precision = type.precision();
      decimal.scale = type.scale();
      logical.__set_DECIMAL(decimal);
      element.__set_logicalType(logical);
      break;
    }
    case TypeId::kDate:
      element.__set_type(format::Type::INT32);
      element.__set_converted_type(format::ConvertedType::DATE);
      logical.__set_DATE(format::DateType());
      element.__set_logicalType(logical);
      break;
    case TypeId::kTimestamp: {
      element.__set_type(format::Type::INT64);
      element.__set_converted_type(format::ConvertedType::TIMESTAMP_MICROS);
      format::TimestampType timestamp;
      timestamp.isAdjustedToUTC = false;
      timestamp.unit.__set_MICROS(format::MicroSeconds());
      logical.__set_TIMESTAMP(timestamp);
      element.__set_logicalType(logical);
      break;
    }
    case TypeId::kTime: {
      // TIME(MICROS), local time as DuckDB writes it.
      element.__set_type(format::Type::INT64);
      element.__set_converted_type(format::ConvertedType::TIME_MICROS);
      format::TimeType time;
      time.isAdjustedToUTC = false;
      time.unit.__set_MICROS(format::MicroSeconds());
      logical.__set_TIME(time);
      element.__set_logicalType(logical);
      break;
    }
    case TypeId::kVarchar:
      element.__set_type(format::Type::BYTE_ARRAY);
      element.__set_converted_type(format::ConvertedType::UTF8);
      logical.__set_STRING(format::StringType());
      element.__set_logicalType(logical);
      break;
    case TypeId::kBlob:
      element.__set_type(format::Type::BYTE_ARRAY);
      break;
    case TypeId::kInterval:
      ThrowIntervalNotWritable(name);
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      // Never reached: SchemaElementsFor writes nested columns.
      throw InternalError("column '{}' of type {} is not flat", name, type.ToString());
    case TypeId::kInvalid:
      throw InvalidInputError("column '{}' has no valid type", name);
  }
  return element;
}

std::vector<format::SchemaElement> SchemaElementsFor(const std::string& name,
                                                     const LogicalType& type) {
  if (type.IsNested() && !(type.IsList() && !type.element().IsNested())) {
    return NestedSchemaElements(name, type);
  }
  if (!type.IsList()) return {SchemaFor(name, type)};
  // The standard three-level form of LogicalTypes.md, as DuckDB, Arrow and Spark write it.
  format::SchemaElement outer;
  outer.name = name;
  outer.__set_repetition_type(format::FieldRepetitionType::OPTIONAL);
  outer.__set_num_children(1);
  outer.__set_converted_type(format::ConvertedType::LIST);
  format::LogicalType logical;
  logical.__set_LIST(format::ListType());
  outer.__set_logicalType(logical);
  format::SchemaElement repeated;
  repeated.name = "list";
  repeated.__set_repetition_type(format::FieldRepetitionType::REPEATED);
  repeated.__set_num_children(1);
  format::SchemaElement element = SchemaFor("element", type.element());
  return {outer, repeated, element};
}

}  // namespace shears::parquet
