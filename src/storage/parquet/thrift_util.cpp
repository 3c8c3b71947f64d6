// Thrift compact-protocol decoding of Parquet metadata, with the protocol's size limits set
// from the input, so hostile lengths cannot make it allocate more than the bytes present.

#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "common/error.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

template <typename T>
uint32_t DeserializeThrift(const uint8_t* data, size_t size, T* out, const char* what) {
  using apache::thrift::TConfiguration;
  using apache::thrift::protocol::TCompactProtocolT;
  using apache::thrift::transport::TMemoryBuffer;
  if (size > std::numeric_limits<uint32_t>::max()) {
    throw CorruptFileError("{} is larger than 4 GiB", what);
  }
  try {
    auto config =
        std::make_shared<TConfiguration>(static_cast<int>(std::min<size_t>(size + 64, INT32_MAX)),
                                         static_cast<int>(std::min<size_t>(size + 64, INT32_MAX)),
                                         /*recursionLimit=*/64);
    auto buffer = std::make_shared<TMemoryBuffer>(
        const_cast<uint8_t*>(data), static_cast<uint32_t>(size), TMemoryBuffer::OBSERVE, config);
    // Strings and containers can never be longer than the bytes we have.
    TCompactProtocolT<TMemoryBuffer> protocol(buffer, static_cast<int32_t>(size),
                                              static_cast<int32_t>(size));
    return out->read(&protocol);
  } catch (const apache::thrift::TException& e) {
    throw CorruptFileError("cannot decode {}: {}", what, e.what());
  } catch (const std::bad_alloc&) {
    throw CorruptFileError("cannot decode {}: sizes in it are implausible", what);
  }
}

template uint32_t DeserializeThrift(const uint8_t*, size_t, format::FileMetaData*, const char*);
template uint32_t DeserializeThrift(const uint8_t*, size_t, format::PageHeader*, const char*);
template uint32_t DeserializeThrift(const uint8_t*, size_t, format::ColumnIndex*, const char*);
template uint32_t DeserializeThrift(const uint8_t*, size_t, format::OffsetIndex*, const char*);
template uint32_t DeserializeThrift(const uint8_t*, size_t, format::BloomFilterHeader*,
                                    const char*);

}  // namespace shears::parquet
