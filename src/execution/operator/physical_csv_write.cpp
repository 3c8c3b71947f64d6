#include "execution/operator/physical_csv_write.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/error.h"
#include "execution/pipeline.h"

namespace shears {

namespace {

struct CsvWriteGlobal : GlobalSinkState {
  std::mutex mutex;
  FILE* file = nullptr;
  gzFile gz = nullptr;
  std::string path;
  int64_t rows = 0;
  ~CsvWriteGlobal() override {
    if (file) std::fclose(file);
    if (gz) gzclose(gz);
  }
  void Append(const std::string& bytes) {
    if (bytes.empty()) return;
    const bool ok = gz ? gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())) ==
                             static_cast<int>(bytes.size())
                       : std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    if (!ok) throw IOError("COPY: cannot write '{}': {}", path, std::strerror(errno));
  }
};

struct CsvWriteLocal : LocalSinkState {
  std::string buffer;
  int64_t rows = 0;
};

constexpr size_t kFlushBytes = 1 << 20;

}  // namespace

PhysicalCsvWrite::PhysicalCsvWrite(std::vector<LogicalType> types, CsvWriteSpec spec)
    : PhysicalOperator("CSV_WRITE", std::move(types)), spec_(std::move(spec)) {}

std::string PhysicalCsvWrite::Describe() const {
  return "CSV_WRITE " + spec_.path;
}

/// Appends `field` to `out`, quoted when RFC 4180 needs it.
static void AppendField(std::string& out, std::string_view field, const CsvWriteSpec& spec) {
  bool quote = field.empty();
  for (char c : field) {
    if (c == spec.delimiter || c == spec.quote || c == '\n' || c == '\r' ||
        (c == spec.escape && spec.escape != spec.quote)) {
      quote = true;
      break;
    }
  }
  if (!field.empty() && (field.front() == ' ' || field.back() == ' ')) quote = true;
  if (!quote || spec.quote == '\0') {
    out.append(field);
    return;
  }
  out.push_back(spec.quote);
  for (char c : field) {
    if (c == spec.quote || (c == spec.escape && spec.escape != spec.quote)) {
      out.push_back(spec.escape == '\0' ? spec.quote : spec.escape);
    }
    out.push_back(c);
  }
  out.push_back(spec.quote);
}

std::unique_ptr<GlobalSinkState> PhysicalCsvWrite::GetGlobalSinkState(ExecutionContext&) const {
  auto state = std::make_unique<CsvWriteGlobal>();
  state->path = spec_.path;
  if (spec_.gzip) {
    state->gz = gzopen(spec_.path.c_str(), "wb6");
    if (!state->gz) throw IOError("COPY: cannot create '{}': {}", spec_.path, std::strerror(errno));
  } else {
    state->file = std::fopen(spec_.path.c_str(), "wb");
    if (!state->file) {
      throw IOError("COPY: cannot create '{}': {}", spec_.path, std::strerror(errno));
    }
  }
  if (spec_.header) {
    std::string line;
    for (size_t i = 0; i < spec_.names.size(); i++) {
      if (i) line.push_back(spec_.delimiter);
      AppendField(line, spec_.names[i], spec_);
    }
    line.push_back('\n');
    state->Append(line);
  }
  return state;
}

std::unique_ptr<LocalSinkState> PhysicalCsvWrite::GetLocalSinkState(ExecutionContext&) const {
  return std::make_unique<CsvWriteLocal>();
}

bool PhysicalCsvWrite::Sink(ExecutionContext&, Batch& input, GlobalSinkState& global,
                            LocalSinkState& local_base) const {
  auto& local = static_cast<CsvWriteLocal&>(local_base);
  std::string& out = local.buffer;
  const idx_t columns = input.column_count();
  for (idx_t row = 0; row < input.size(); row++) {
    for (idx_t c = 0; c < columns; c++) {
      if (c) out.push_back(spec_.delimiter);
      const Vector& v = input.column(c);
      if (v.IsNull(row)) {
        out.append(spec_.null_string);
        continue;
      }
      switch (v.type().id()) {
        case TypeId::kInteger:
          out.append(std::to_string(v.data<int32_t>()[row]));
          break;
        case TypeId::kBigint:
          out.append(std::to_string(v.data<int64_t>()[row]));
          break;
        case TypeId::kVarchar:
          AppendField(out, v.data<StringRef>()[row].view(), spec_);
          break;
        default:
          AppendField(out, v.ValueToString(row), spec_);
          break;
      }
    }
    out.push_back('\n');
  }
  local.rows += static_cast<int64_t>(input.size());
  if (out.size() >= kFlushBytes) {
    auto& state = static_cast<CsvWriteGlobal&>(global);
    std::lock_guard<std::mutex> lock(state.mutex);
    state.Append(out);
    out.clear();
  }
  return true;
}

void PhysicalCsvWrite::Combine(ExecutionContext&, GlobalSinkState& global,
                               LocalSinkState& local_base) const {
  auto& local = static_cast<CsvWriteLocal&>(local_base);
  auto& state = static_cast<CsvWriteGlobal&>(global);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.Append(local.buffer);
  local.buffer.clear();
  state.rows += local.rows;
}

void PhysicalCsvWrite::Finalize(ExecutionContext&, GlobalSinkState& global) const {
  auto& state = static_cast<CsvWriteGlobal&>(global);
  const bool ok = state.gz ? gzclose(state.gz) == Z_OK : std::fclose(state.file) == 0;
  state.gz = nullptr;
  state.file = nullptr;
  if (!ok) throw IOError("COPY: cannot write '{}': {}", state.path, std::strerror(errno));
}

int64_t PhysicalCsvWrite::RowsWritten(ExecutionContext& context, const PhysicalOperator& op) {
  return static_cast<CsvWriteGlobal&>(context.sink_state(&op)).rows;
}

}  // namespace shears
