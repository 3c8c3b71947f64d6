#include "storage/parquet/bloom_filter.h"

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <algorithm>
#include <memory>
#include <new>
#include <string>

#include "common/error.h"

namespace shears::parquet {

size_t ParseBloomFilterHeader(const uint8_t* data, size_t available,
                              format::BloomFilterHeader* header) {
  using apache::thrift::TConfiguration;
  using apache::thrift::protocol::TCompactProtocolT;
  using apache::thrift::transport::TMemoryBuffer;
  // A real header is a handful of bytes; showing thrift at most 1 MiB keeps its 32-bit sizes
  // valid and bounds what a hostile length field can make it allocate.
  const uint32_t size = static_cast<uint32_t>(std::min<size_t>(available, size_t{1} << 20));
  static const uint8_t kEmpty = 0;
  if (data == nullptr) data = &kEmpty;
  size_t consumed = 0;
  try {
    // (A limit of 0 would mean "unlimited" to thrift.)
    const int limit = static_cast<int>(std::max<uint32_t>(size, 1));
    auto config = std::make_shared<TConfiguration>(limit, limit, /*recursionLimit=*/64);
    auto buffer = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(data), size,
                                                  TMemoryBuffer::OBSERVE, config);
    TCompactProtocolT<TMemoryBuffer> protocol(buffer, limit, limit);
    header->read(&protocol);
    consumed = size - buffer->available_read();
  } catch (const apache::thrift::TException& e) {
    throw CorruptFileError("invalid bloom filter header: {}", e.what());
  } catch (const std::bad_alloc&) {
    throw CorruptFileError("invalid bloom filter header: implausible sizes");
  }
  // Check the kind first: an unknown algorithm's numBytes need not follow these rules.
  if (!header->algorithm.__isset.BLOCK) {
    throw NotSupportedError("bloom filter algorithm is not supported (only split-block)");
  }
  if (!header->hash.__isset.XXHASH) {
    throw NotSupportedError("bloom filter hash is not supported (only XXHASH)");
  }
  if (!header->compression.__isset.UNCOMPRESSED) {
    throw NotSupportedError("compressed bloom filters are not supported");
  }
  if (header->numBytes <= 0 || header->numBytes % SplitBlockBloomFilter::kBytesPerBlock != 0) {
    throw CorruptFileError("bloom filter header has an invalid size of {} bytes", header->numBytes);
  }
  return consumed;
}

SplitBlockBloomFilter ParseBloomFilter(const uint8_t* data, size_t available) {
  format::BloomFilterHeader header;
  size_t header_size = ParseBloomFilterHeader(data, available, &header);
  const size_t num_bytes = static_cast<size_t>(header.numBytes);
  if (available - header_size < num_bytes) {
    throw CorruptFileError("bloom filter is truncated: header says {} bytes, {} follow it",
                           num_bytes, available - header_size);
  }
  return SplitBlockBloomFilter::FromBytes(
      std::string(reinterpret_cast<const char*>(data) + header_size, num_bytes));
}

}  // namespace shears::parquet
