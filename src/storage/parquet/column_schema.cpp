#include "storage/parquet/column_writer.h"

// The Parquet schema element of a column shears writes (SchemaFor), apart from the encoders.

#include "common/error.h"

namespace shears::parquet {

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
    case TypeId::kInvalid:
      throw InvalidInputError("column '{}' has no valid type", name);
  }
  return element;
}

}  // namespace shears::parquet
