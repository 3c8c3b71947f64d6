// Fuzzes the Hive partition path parser: key=value levels, percent escapes, type inference and
// value conversion. Also checks the escape round trip HiveUnescape(HiveEscape(s)) == s.

#include <string>
#include <string_view>
#include <vector>

#include "fuzz_util.h"
#include "storage/hive/hive_partitioning.h"

using namespace shears;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::ExpectOnlyUserErrors([&] {
    std::vector<std::optional<std::string>> values;
    for (const auto& level : ParseHivePath(text)) {
      if (level.key.empty()) std::abort();  // IsHiveLevel promises a non-empty key
      values.push_back(level.value);
    }
    const LogicalType inferred = InferPartitionType(values);
    for (const auto& value : values) {
      // The inferred type must accept every value it was inferred from.
      ParsePartitionValue(value, inferred, "p");
      for (const auto& type :
           {LogicalType::Bigint(), LogicalType::Date(), LogicalType::Varchar()}) {
        fuzz::ExpectOnlyUserErrors([&] { ParsePartitionValue(value, type, "p"); });
      }
    }
  });
  fuzz::ExpectOnlyUserErrors([&] { HiveUnescape(text); });
  if (HiveUnescape(HiveEscape(text)) != text) std::abort();
  IsHiveLevel(text);
  return 0;
}
