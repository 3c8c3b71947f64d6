#include "python/arrow_export.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/error.h"

namespace shears::python {

std::string ArrowFormat(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return "b";
    case TypeId::kInteger:
      return "i";
    case TypeId::kBigint:
      return "l";
    case TypeId::kDouble:
      return "g";
    case TypeId::kFloat:
      return "f";
    case TypeId::kDecimal:
      return fmt::format("d:{},{}", type.precision(), type.scale());
    case TypeId::kDate:
      return "tdD";
    case TypeId::kTimestamp:
      return "tsu:";
    case TypeId::kTime:
      return "ttu";  // time64 in microseconds, the same int64 values
    case TypeId::kVarchar:
      return "u";
    case TypeId::kBlob:
      return "z";
    case TypeId::kInterval:
      throw NotSupportedError("INTERVAL columns cannot be exported to Arrow yet; cast to VARCHAR");
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      throw NotSupportedError("{} columns cannot be exported to Arrow yet; cast to VARCHAR",
                              type.ToString());
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("no Arrow format for type {}", type.ToString());
}

namespace {

// ---- schema

struct SchemaHolder {
  std::string format;
  std::string name;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseSchema(ArrowSchema* schema) {
  if (!schema->release) return;
  for (int64_t i = 0; i < schema->n_children; i++) {
    ArrowSchema* child = schema->children[i];
    if (child->release) child->release(child);
  }
  delete static_cast<SchemaHolder*>(schema->private_data);
  schema->release = nullptr;
}

void InitSchema(ArrowSchema* out, SchemaHolder* holder, int64_t flags) {
  out->format = holder->format.c_str();
  out->name = holder->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<int64_t>(holder->children.size());
  out->children = holder->child_pointers.empty() ? nullptr : holder->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = holder;
}

void ExportSchema(const QueryResult& result, ArrowSchema* out) {
  auto* holder = new SchemaHolder{"+s", "", {}, {}};
  holder->children.resize(result.types.size());
  for (size_t c = 0; c < result.types.size(); c++) {
    auto* child = new SchemaHolder{ArrowFormat(result.types[c]), result.names[c], {}, {}};
    InitSchema(&holder->children[c], child, ARROW_FLAG_NULLABLE);
    holder->child_pointers.push_back(&holder->children[c]);
  }
  InitSchema(out, holder, 0);
}

// ---- arrays

struct ArrayHolder {
  std::shared_ptr<const QueryResult> result;  // the vectors the buffers point into
  std::vector<std::vector<uint8_t>> owned;    // converted buffers
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseArray(ArrowArray* array) {
  if (!array->release) return;
  // Children the consumer moved out are marked released; the others go with the parent.
  for (int64_t i = 0; i < array->n_children; i++) {
    ArrowArray* child = array->children[i];
    if (child->release) child->release(child);
  }
  delete static_cast<ArrayHolder*>(array->private_data);
  array->release = nullptr;
}

void InitArray(ArrowArray* out, ArrayHolder* holder, int64_t length, int64_t null_count) {
  out->length = length;
  out->null_count = null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(holder->buffers.size());
  out->buffers = holder->buffers.data();
  out->n_children = static_cast<int64_t>(holder->children.size());
  out->children = holder->child_pointers.empty() ? nullptr : holder->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseArray;
  out->private_data = holder;
}

template <typename T>
T* Own(ArrayHolder& holder, size_t count) {
  holder.owned.emplace_back(std::max<size_t>(count, 1) * sizeof(T));
  return reinterpret_cast<T*>(holder.owned.back().data());
}

void ExportColumn(const std::shared_ptr<const QueryResult>& result, const Vector& vector,
                  idx_t rows, ArrowArray* out) {
  auto* holder = new ArrayHolder{result, {}, {}, {}, {}};
  const ValidityMask& validity = vector.validity();
  const int64_t null_count = static_cast<int64_t>(validity.CountNulls(rows));
  holder->buffers.push_back(null_count > 0 ? validity.data() : nullptr);
  const LogicalType& type = vector.type();
  switch (type.id()) {
    case TypeId::kBoolean: {
      auto* bits = Own<uint8_t>(*holder, (rows + 7) / 8);
      std::memset(bits, 0, (rows + 7) / 8);
      const uint8_t* values = vector.data<uint8_t>();
      for (idx_t i = 0; i < rows; i++)
        bits[i / 8] |= static_cast<uint8_t>((values[i] != 0) << (i % 8));
      holder->buffers.push_back(bits);
      break;
    }
    case TypeId::kFloat: {
      auto* floats = Own<float>(*holder, rows);
      const double* values = vector.data<double>();
      for (idx_t i = 0; i < rows; i++)
        floats[i] = static_cast<float>(values[i]);
      holder->buffers.push_back(floats);
      break;
    }
    case TypeId::kDecimal:
      if (type.physical() == PhysicalType::kInt64) {
        auto* wide = Own<int128_t>(*holder, rows);
        const int64_t* values = vector.data<int64_t>();
        for (idx_t i = 0; i < rows; i++)
          wide[i] = values[i];
        holder->buffers.push_back(wide);
      } else {
        holder->buffers.push_back(vector.data<int128_t>());
      }
      break;
    case TypeId::kVarchar:
    case TypeId::kBlob: {
      const StringRef* values = vector.data<StringRef>();
      auto* offsets = Own<int32_t>(*holder, rows + 1);
      uint64_t total = 0;
      for (idx_t i = 0; i < rows; i++) {
        offsets[i] = static_cast<int32_t>(total);
        if (validity.IsValid(i)) total += values[i].len;
        if (total > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
          delete holder;
          throw NotSupportedError("a batch of strings over 2 GiB cannot be exported to Arrow");
        }
      }
      offsets[rows] = static_cast<int32_t>(total);
      auto* bytes = Own<char>(*holder, total);
      for (idx_t i = 0; i < rows; i++) {
        if (validity.IsValid(i) && values[i].len > 0) {
          std::memcpy(bytes + offsets[i], values[i].ptr, values[i].len);
        }
      }
      holder->buffers.push_back(offsets);
      holder->buffers.push_back(bytes);
      break;
    }
    default:  // INTEGER, BIGINT, DOUBLE, DATE, TIMESTAMP: the vector's own values
      holder->buffers.push_back(vector.data<uint8_t>());
      break;
  }
  InitArray(out, holder, static_cast<int64_t>(rows), null_count);
}

void ExportBatch(const std::shared_ptr<const QueryResult>& result, const Batch& batch,
                 ArrowArray* out) {
  auto* holder = new ArrayHolder{result, {}, {nullptr}, {}, {}};
  holder->children.resize(batch.column_count());
  try {
    for (idx_t c = 0; c < batch.column_count(); c++) {
      ExportColumn(result, batch.column(c), batch.size(), &holder->children[c]);
      holder->child_pointers.push_back(&holder->children[c]);
    }
  } catch (...) {
    for (ArrowArray* child : holder->child_pointers)
      child->release(child);
    delete holder;
    throw;
  }
  InitArray(out, holder, static_cast<int64_t>(batch.size()), 0);
}

// ---- stream

struct StreamHolder {
  std::shared_ptr<const QueryResult> result;
  size_t next_batch = 0;
  std::string last_error;
};

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* holder = static_cast<StreamHolder*>(stream->private_data);
  try {
    ExportSchema(*holder->result, out);
    return 0;
  } catch (const std::exception& e) {
    holder->last_error = e.what();
    return EIO;
  }
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* holder = static_cast<StreamHolder*>(stream->private_data);
  const auto& rows = holder->result->rows;
  // Empty batches are skipped: a consumer may take a zero-length array for the end.
  while (rows && holder->next_batch < rows->batch_count() &&
         rows->batch(holder->next_batch).size() == 0) {
    holder->next_batch++;
  }
  if (!rows || holder->next_batch >= rows->batch_count()) {
    out->release = nullptr;  // the end of the stream
    return 0;
  }
  try {
    ExportBatch(holder->result, rows->batch(holder->next_batch), out);
    holder->next_batch++;
    return 0;
  } catch (const std::exception& e) {
    holder->last_error = e.what();
    return EIO;
  }
}

const char* GetLastError(ArrowArrayStream* stream) {
  auto* holder = static_cast<StreamHolder*>(stream->private_data);
  return holder->last_error.empty() ? nullptr : holder->last_error.c_str();
}

void ReleaseStream(ArrowArrayStream* stream) {
  if (!stream->release) return;
  delete static_cast<StreamHolder*>(stream->private_data);
  stream->release = nullptr;
}

}  // namespace

void ExportArrowStream(std::shared_ptr<const QueryResult> result, ArrowArrayStream* out) {
  // A type Arrow export lacks (INTERVAL, LIST) is an error here, in Python, rather than an
  // error code from the consumer's get_schema.
  for (const auto& type : result->types)
    ArrowFormat(type);
  out->get_schema = GetSchema;
  out->get_next = GetNext;
  out->get_last_error = GetLastError;
  out->release = ReleaseStream;
  out->private_data = new StreamHolder{std::move(result), 0, {}};
}

}  // namespace shears::python
