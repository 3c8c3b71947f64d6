#include "storage/dataset_reader.h"

#include <cstring>
#include <numeric>

#include "common/decimal.h"
#include "common/error.h"

namespace shears {

void WidenVector(const Vector& in, Vector& out, idx_t count) {
  const auto& from = in.type();
  const auto& to = out.type();
  for (idx_t row = 0; row < count; row++)
    out.validity().Set(row, in.validity().IsValid(row));
  if (from == to) {
    std::memcpy(out.raw_data(), const_cast<Vector&>(in).raw_data(), count * to.value_size());
    return;
  }
  auto read_int = [&](idx_t row) -> int128_t {
    switch (from.physical()) {
      case PhysicalType::kInt32:
        return in.data<int32_t>()[row];
      case PhysicalType::kInt64:
        return in.data<int64_t>()[row];
      case PhysicalType::kInt128:
        return in.data<int128_t>()[row];
      default:
        throw InternalError("cannot widen {} to {}", from.ToString(), to.ToString());
    }
  };
  const int scale_up = to.id() == TypeId::kDecimal ? to.scale() - from.scale() : 0;
  if (scale_up < 0) throw InternalError("cannot narrow {} to {}", from.ToString(), to.ToString());
  const int128_t factor = Pow10(scale_up);
  for (idx_t row = 0; row < count; row++) {
    int128_t v = in.validity().IsValid(row) ? read_int(row) * factor : 0;
    switch (to.physical()) {
      case PhysicalType::kInt64:
        out.data<int64_t>()[row] = static_cast<int64_t>(v);
        break;
      case PhysicalType::kInt128:
        out.data<int128_t>()[row] = v;
        break;
      case PhysicalType::kDouble:
        out.data<double>()[row] = static_cast<double>(v);
        break;
      default:
        throw InternalError("cannot widen {} to {}", from.ToString(), to.ToString());
    }
  }
}

DatasetReader::DatasetReader(std::shared_ptr<const Dataset> dataset, std::vector<int> columns)
    : dataset_(std::move(dataset)), columns_(std::move(columns)) {
  for (int column : columns_) {
    const auto& col = dataset_->columns().at(static_cast<size_t>(column));
    if (!col.unsupported_reason.empty()) throw NotSupportedError("{}", col.unsupported_reason);
  }
  files_.resize(dataset_->files().size());
  std::iota(files_.begin(), files_.end(), 0);
}

DatasetReader::~DatasetReader() = default;

void DatasetReader::SelectFiles(std::vector<size_t> files) {
  files_ = std::move(files);
}

std::vector<LogicalType> DatasetReader::output_types() const {
  std::vector<LogicalType> types;
  for (int column : columns_)
    types.push_back(dataset_->columns()[static_cast<size_t>(column)].type);
  return types;
}

std::vector<std::string> DatasetReader::output_names() const {
  std::vector<std::string> names;
  for (int column : columns_)
    names.push_back(dataset_->columns()[static_cast<size_t>(column)].name);
  return names;
}

parquet::ScanCounters DatasetReader::counters() const {
  parquet::ScanCounters total = finished_counters_;
  if (reader_) total.Add(reader_->counters());
  return total;
}

void DatasetReader::StartMorsel(size_t file_index, std::shared_ptr<parquet::ParquetFile> file,
                                std::vector<int> row_groups) {
  files_.clear();
  next_file_ = 0;
  OpenFile(file_index, std::move(file));
  reader_->SelectRowGroups(std::move(row_groups));
}

void DatasetReader::StartMorsel(size_t file_index, std::shared_ptr<parquet::ParquetFile> file,
                                std::shared_ptr<const parquet::RowGroupPageIndex> index,
                                parquet::RowRanges ranges) {
  const int row_group = index->row_group();
  StartMorsel(file_index, std::move(file), {row_group});
  reader_->SelectRows(std::move(index), std::move(ranges));
}

void DatasetReader::AdoptDictionaries(
    int row_group, std::vector<std::shared_ptr<const parquet::DecodedDictionary>> dictionaries) {
  if (reader_ && !dictionaries.empty())
    reader_->AdoptDictionaries(row_group, std::move(dictionaries));
}

void DatasetReader::OpenFile(size_t file_index, std::shared_ptr<parquet::ParquetFile> file) {
  if (reader_) finished_counters_.Add(reader_->counters());
  reader_.reset();
  current_file_ = &dataset_->files()[file_index];
  if (!file) {
    file = dataset_->OpenFile(file_index);
    files_read_++;
  }
  std::vector<int> file_columns;
  std::vector<LogicalType> file_types;
  reader_position_.assign(columns_.size(), -1);
  const size_t file_column_count = dataset_->num_file_columns();
  for (size_t i = 0; i < columns_.size(); i++) {
    const size_t column = static_cast<size_t>(columns_[i]);
    if (column >= file_column_count) continue;  // partition column
    int in_file = current_file_->column_map.at(column);
    if (in_file < 0) continue;  // missing in this file: NULL
    reader_position_[i] = static_cast<int>(file_columns.size());
    file_columns.push_back(in_file);
    file_types.push_back(file->columns()[static_cast<size_t>(in_file)].type);
  }
  reader_ = std::make_unique<parquet::ParquetReader>(std::move(file), std::move(file_columns));
  if (!record_codes_.empty()) {
    std::vector<bool> record(file_types.size(), false);
    for (size_t i = 0; i < columns_.size(); i++) {
      if (reader_position_[i] >= 0 && record_codes_[i]) {
        record[static_cast<size_t>(reader_position_[i])] = true;
      }
    }
    reader_->RecordDictionaryCodes(record);
  }
  widened_.assign(file_types.size(), false);
  for (size_t i = 0; i < columns_.size(); i++) {
    if (reader_position_[i] >= 0) {
      widened_[static_cast<size_t>(reader_position_[i])] =
          file_types[static_cast<size_t>(reader_position_[i])] !=
          dataset_->columns()[static_cast<size_t>(columns_[i])].type;
    }
  }
  file_batch_ = Batch(file_types);
}

void DatasetReader::RecordDictionaryCodes(std::vector<bool> columns) {
  record_codes_ = std::move(columns);
}

const parquet::DictionaryCodes* DatasetReader::dictionary_codes(size_t column) const {
  if (!reader_ || column >= reader_position_.size() || reader_position_[column] < 0) {
    return nullptr;
  }
  const auto position = static_cast<size_t>(reader_position_[column]);
  // A widened column's dictionary holds the file's values, not the ones the filter reads.
  if (widened_[position]) return nullptr;
  return reader_->dictionary_codes(position);
}

bool DatasetReader::NextReader(const std::function<bool()>& read) {
  while (true) {
    if (!reader_) {
      if (next_file_ >= files_.size()) return false;
      OpenFile(files_[next_file_++]);
    }
    if (read()) return true;
    finished_counters_.Add(reader_->counters());
    reader_.reset();
  }
}

bool DatasetReader::Next(Batch& out) {
  out.Reset();
  if (!NextReader([&] { return reader_->Next(file_batch_); })) return false;
  const idx_t count = file_batch_.size();
  FillOutput(out, count, nullptr, false);
  out.SetSize(count);
  return true;
}

bool DatasetReader::NextSelected(Batch& out, const std::vector<bool>& first,
                                 const RowSelector& select, SelectionVector& sel) {
  out.Reset();
  const bool more = NextReader([&] {
    first_in_file_.assign(reader_->output_types().size(), false);
    for (size_t i = 0; i < columns_.size(); i++) {
      if (reader_position_[i] >= 0 && first[i]) {
        first_in_file_[static_cast<size_t>(reader_position_[i])] = true;
      }
    }
    return reader_->NextFirst(file_batch_, first_in_file_);
  });
  if (!more) return false;
  const idx_t count = file_batch_.size();
  FillOutput(out, count, &first, true);
  out.SetSize(count);
  const idx_t kept = select(out, sel);
  reader_->FinishSelected(file_batch_, first_in_file_, sel.data(), kept);
  out.Reset();
  FillOutput(out, kept, nullptr, false);
  out.SetSize(kept);
  return true;
}

void DatasetReader::FillOutput(Batch& out, idx_t count, const std::vector<bool>* only, bool share) {
  const size_t file_column_count = dataset_->num_file_columns();
  for (size_t i = 0; i < columns_.size(); i++) {
    Vector& target = out.column(i);
    const size_t column = static_cast<size_t>(columns_[i]);
    if (reader_position_[i] >= 0) {
      if (only && !(*only)[i]) continue;
      Vector& source = file_batch_.column(static_cast<size_t>(reader_position_[i]));
      if (source.type() != target.type()) {
        WidenVector(source, target, count);
      } else if (share) {
        target.Reference(source);  // file_batch_ is read again afterwards
      } else {
        std::swap(source, target);  // hand over buffers without copying
      }
      continue;
    }
    const Value value = column >= file_column_count
                            ? current_file_->partition_values.at(column - file_column_count)
                            : Value::Null(target.type());
    // One value for every row: write it once and copy the slot (strings share one copy).
    WriteValue(target, 0, value);
    const size_t width = target.type().value_size();
    for (idx_t row = 1; row < count; row++) {
      std::memcpy(target.raw_data() + row * width, target.raw_data(), width);
      if (value.is_null()) target.validity().SetNull(row);
    }
  }
}

}  // namespace shears
