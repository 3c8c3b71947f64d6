// The schema mapping both ways (storage/parquet/schema_mapping): every type shears writes
// reads back as itself, and what the reader cannot map says why.

#include "storage/parquet/schema_mapping.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace shears::parquet {
namespace {

TEST(ParquetSchemaMappingTest, EveryWritableTypeReadsBackAsItself) {
  const std::vector<LogicalType> types = {
      LogicalType::Boolean(),      LogicalType::Integer(),      LogicalType::Bigint(),
      LogicalType::Double(),       LogicalType::Float(),        LogicalType::Date(),
      LogicalType::Timestamp(),    LogicalType::Time(),         LogicalType::Varchar(),
      LogicalType::Blob(),         LogicalType::Decimal(1, 0),  LogicalType::Decimal(7, 2),
      LogicalType::Decimal(9, 9),  LogicalType::Decimal(10, 2), LogicalType::Decimal(18, 4),
      LogicalType::Decimal(19, 0), LogicalType::Decimal(38, 10)};
  for (const auto& type : types) {
    SCOPED_TRACE(type.ToString());
    const format::SchemaElement element = SchemaFor("c", type);
    EXPECT_EQ(element.name, "c");
    ColumnDescriptor column;
    MapPrimitive(element, &column);
    EXPECT_EQ(column.type, type);
    EXPECT_TRUE(column.unsupported_reason.empty()) << column.unsupported_reason;
    EXPECT_FALSE(column.parquet_type_name.empty());
  }
}

TEST(ParquetSchemaMappingTest, IntervalIsNotWritable) {
  EXPECT_THROW(SchemaFor("i", LogicalType::Interval()), NotSupportedError);
}

TEST(ParquetSchemaMappingTest, UnreadableTypeSaysWhy) {
  format::SchemaElement element;
  element.name = "d";
  element.type = format::Type::INT32;
  element.__set_converted_type(format::ConvertedType::DECIMAL);
  element.__set_precision(40);  // above DECIMAL's 38 digits
  element.__set_scale(2);
  ColumnDescriptor column;
  MapPrimitive(element, &column);
  EXPECT_FALSE(column.type.valid());
  EXPECT_NE(column.unsupported_reason.find("'d'"), std::string::npos) << column.unsupported_reason;
}

}  // namespace
}  // namespace shears::parquet
