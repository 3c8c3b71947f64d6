// Spill files (execution/spill.h): where they go, that nothing stays behind after a query,
// and that leftovers of dead processes are removed.

#include "execution/spill.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <thread>

#include <filesystem>
#include <fstream>

#include "common/crc32c.h"
#include "common/error.h"
#include "execution/aggregate_ops.h"
#include "execution/query_context.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

/// Files (not directories) anywhere under `dir`.
int CountFiles(const std::string& dir) {
  int files = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) files++;
  }
  return files;
}

TEST(SpillTest, FilesRoundTripAndLeaveNoName) {
  test::TempDir tmp;
  SpillOptions options{tmp.path() + "/spill", 0};
  SpillFile file(options);
  std::string text(3 << 20, 'x');  // past the write buffer
  for (size_t i = 0; i < text.size(); i += 7)
    text[i] = static_cast<char>('a' + i % 26);
  file.Append("head", 4);
  file.Append(text.data(), text.size());
  file.Append("tail", 4);
  file.Flush();
  ASSERT_EQ(file.size(), text.size() + 8);
  std::string back(text.size(), '\0');
  file.Read(4, back.data(), back.size());
  EXPECT_EQ(back, text);
  char tail[4];
  file.Read(4 + text.size(), tail, 4);
  EXPECT_EQ(std::string(tail, 4), "tail");
  EXPECT_GE(SpillBytesInUse(), static_cast<int64_t>(file.size()));
  // Unlinked at creation: the process's subdirectory exists but holds no file.
  EXPECT_EQ(CountFiles(options.directory), 0);
  EXPECT_TRUE(fs::is_directory(options.directory));
}

TEST(SpillTest, SpaceLimitIsAClearError) {
  test::TempDir tmp;
  SpillOptions options{tmp.path() + "/spill", 1 << 20};
  SpillFile file(options);
  std::string block(600 << 10, 'y');
  file.Append(block.data(), block.size());
  file.Flush();
  try {
    file.Append(block.data(), block.size());
    file.Flush();
    FAIL() << "expected the space limit";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("max_temp_directory_size"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(options.directory), std::string::npos);
  }
}

TEST(SpillTest, Crc32cIsTheCastagnoliChecksumAndIncremental) {
  const std::string check = "123456789";
  EXPECT_EQ(Crc32c(0, check.data(), check.size()), 0xE3069283u);  // the standard check value
  EXPECT_EQ(Crc32c(0, "", 0), 0u);
  std::string text(100000, '\0');
  for (size_t i = 0; i < text.size(); i++)
    text[i] = static_cast<char>(i * 131 + (i >> 7));
  const uint32_t whole = Crc32c(0, text.data(), text.size());
  for (size_t cut : {size_t{1}, size_t{7}, size_t{8}, size_t{4097}, size_t{99999}}) {
    const uint32_t head = Crc32c(0, text.data(), cut);
    EXPECT_EQ(Crc32c(head, text.data() + cut, text.size() - cut), whole) << cut;
  }
}

/// The descriptor of this process's one open, unlinked spill file (its name ends in
/// "(deleted)"), or -1.
int OpenSpillDescriptor() {
  int found = -1;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const std::string target = fs::read_symlink(entry.path(), ec).string();
    if (!ec && target.find("/spill-") != std::string::npos &&
        target.find("(deleted)") != std::string::npos) {
      found = std::stoi(entry.path().filename().string());
    }
  }
  return found;
}

TEST(SpillTest, BytesChangedOnDiskAreAClearError) {
  test::TempDir tmp;
  SpillOptions options{tmp.path() + "/spill", 0};
  SpillFile file(options);
  std::string text(5 * SpillFile::kChecksumBlock + 123, '\0');
  for (size_t i = 0; i < text.size(); i++)
    text[i] = static_cast<char>('a' + i % 23);
  file.Append(text.data(), text.size());
  file.Flush();
  // Every range reads back, also ranges inside, across and at the ends of blocks.
  const uint64_t block = SpillFile::kChecksumBlock;
  for (auto [offset, size] : std::vector<std::pair<uint64_t, uint64_t>>{{0, text.size()},
                                                                        {1, 10},
                                                                        {block - 1, 2},
                                                                        {block, block},
                                                                        {3 * block + 5, 2 * block},
                                                                        {text.size() - 1, 1}}) {
    std::string back(size, '\0');
    file.Read(offset, back.data(), size);
    EXPECT_EQ(back, text.substr(offset, size)) << offset;
  }
  // Another writer changes one byte of the third block behind the file's back.
  const int fd = OpenSpillDescriptor();
  ASSERT_GE(fd, 0);
  const int writer = open(("/proc/self/fd/" + std::to_string(fd)).c_str(), O_WRONLY);
  ASSERT_GE(writer, 0);
  const char changed = '#';
  ASSERT_EQ(pwrite(writer, &changed, 1, static_cast<off_t>(2 * block + 100)), 1);
  close(writer);
  // Ranges outside that block still read; any range touching it is an IOError, also one
  // that does not include the changed byte itself.
  std::string back(10, '\0');
  file.Read(block, back.data(), 10);
  EXPECT_EQ(back, text.substr(block, 10));
  for (uint64_t offset : {2 * block + 100, 2 * block + 3000, block + block / 2}) {
    try {
      std::string range(block, '\0');
      file.Read(offset, range.data(), std::min<uint64_t>(block, text.size() - offset));
      FAIL() << "expected a checksum error at " << offset;
    } catch (const IOError& e) {
      EXPECT_NE(std::string(e.what()).find("is corrupt"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(options.directory), std::string::npos) << e.what();
    }
  }
}

// A collecting state (string_agg with an ORDER BY key, median) written after a row of an odd
// length and read back from a 16-byte-aligned buffer: the copy combines into the same result,
// and bytes cut short are an error, not a read past the end.
TEST(SpillTest, CollectingAggregateStatesRoundTrip) {
  MemoryTracker memory(0);
  StringArena arena(&memory);
  AggregateParams params;
  params.separator = ",";
  params.order.push_back({/*descending=*/true, /*nulls_first=*/false});
  const AggregateOp agg =
      BindAggregateOp(AggregateKind::kStringAgg, {LogicalType::Varchar(), LogicalType::Bigint()},
                      LogicalType::Varchar(), params);
  const AggregateOp median = BindAggregateOp(AggregateKind::kQuantileCont, {LogicalType::Bigint()},
                                             LogicalType::Double(), {});
  ASSERT_TRUE(agg.spill_write && agg.spill_read && median.spill_write && median.spill_read);
  std::vector<Vector> in;
  in.emplace_back(LogicalType::Varchar(), 5);
  in.emplace_back(LogicalType::Bigint(), 5);
  const char* words[] = {"a", "bb", "", "dddd", "e"};
  for (idx_t i = 0; i < 5; i++) {
    WriteValue(in[0], i, Value::Varchar(words[i]));
    WriteValue(in[1], i, Value::Bigint(static_cast<int64_t>(i * 7 % 5)));
  }
  alignas(16) uint8_t agg_state[64] = {}, median_state[64] = {};
  agg.update_single(agg_state, in.data(), 5, arena);
  median.update_single(median_state, &in[1], 5, arena);

  std::vector<uint8_t> bytes(3, 0xAB);  // the row before
  agg.spill_write(agg_state, bytes);
  median.spill_write(median_state, bytes);
  struct alignas(16) Unit {
    uint8_t b[16];
  };
  std::vector<Unit> buffer(bytes.size() / 16 + 1);
  auto* data = reinterpret_cast<uint8_t*>(buffer.data());
  std::memcpy(data, bytes.data(), bytes.size());
  alignas(16) uint8_t agg_copy[64], median_copy[64];
  std::memcpy(agg_copy, agg_state, sizeof(agg_copy));
  std::memcpy(median_copy, median_state, sizeof(median_copy));
  size_t pos = 3;
  SpilledStateBytes read(data, bytes.size(), pos);
  agg.spill_read(agg_copy, read);
  median.spill_read(median_copy, read);
  EXPECT_EQ(pos, bytes.size());

  alignas(16) uint8_t agg_out[64] = {}, median_out[64] = {};
  uint8_t* src[] = {agg_copy, median_copy};
  uint8_t* dst[] = {agg_out, median_out};
  agg.combine(&src[0], &dst[0], 0, 1, arena);
  median.combine(&src[1], &dst[1], 0, 1, arena);
  Vector text(LogicalType::Varchar(), 1), number(LogicalType::Double(), 1);
  agg.finalize(&dst[0], 0, 1, text, 0, agg);
  median.finalize(&dst[1], 0, 1, number, 0, median);
  EXPECT_EQ(ReadValue(text, 0).ToString(), ",e,bb,dddd,a");  // by keys 4, 3, 2, 1, 0
  EXPECT_EQ(ReadValue(number, 0).ToString(), "2.0");

  for (size_t cut : {size_t{4}, bytes.size() - 1}) {
    std::memcpy(agg_copy, agg_state, sizeof(agg_copy));
    std::memcpy(median_copy, median_state, sizeof(median_copy));
    size_t at = 3;
    SpilledStateBytes short_read(data, cut, at);
    EXPECT_THROW(
        {
          agg.spill_read(agg_copy, short_read);
          median.spill_read(median_copy, short_read);
        },
        InternalError);
  }
}

TEST(SpillTest, LeftoversOfDeadProcessesAreRemoved) {
  test::TempDir tmp;
  const std::string base = tmp.path();
  // No process has pid 999999999 (above pid_max); our own pid with another start time is a
  // previous process that had our pid.
  const std::string dead = base + "/shears-999999999-12345";
  const std::string reused = base + "/shears-" + std::to_string(getpid()) + "-1";
  const std::string other = base + "/not-ours";
  for (const auto& dir : {dead, reused, other}) {
    fs::create_directories(dir);
    std::ofstream(dir + "/spill-0") << "left behind";
  }
  // A live process (this one) keeps its directory.
  SpillFile live(SpillOptions{base, 0});
  RemoveTempLeftovers(base);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(reused));
  EXPECT_TRUE(fs::exists(other));
  int own = 0;
  for (const auto& entry : fs::directory_iterator(base)) {
    if (entry.path().filename().string().rfind("shears-", 0) == 0) own++;
  }
  EXPECT_EQ(own, 1);
}

TEST(SpillTest, LeftoversAreJudgedOnlyOnTheirOwnHost) {
  test::TempDir tmp;
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof(host) - 1), 0);
  // A temp_directory on a shared file system: another machine's live process may have any pid,
  // so its directory stays; a dead process of this machine (new-style name) goes.
  const std::string elsewhere = tmp.path() + "/shears-999999999-12345-some-other-host.example";
  const std::string here = tmp.path() + "/shears-999999999-12345-" + std::string(host);
  const std::string malformed = tmp.path() + "/shears-999999999-12x45";
  for (const auto& dir : {elsewhere, here, malformed})
    fs::create_directories(dir);
  RemoveTempLeftovers(tmp.path());
  EXPECT_TRUE(fs::exists(elsewhere));
  EXPECT_FALSE(fs::exists(here));
  EXPECT_TRUE(fs::exists(malformed));
}

/// Field `index` (1-based, as proc(5) counts) of /proc/PID/stat; empty when unreadable.
std::string StatField(pid_t pid, int index) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return "";
  std::istringstream fields(line.substr(line.rfind(')') + 1));
  std::string field;
  for (int i = 3; fields >> field; i++) {
    if (i == index) return field;
  }
  return "";
}

TEST(SpillTest, AKilledProcessNotYetReapedLeavesItsDirectoryToBeRemoved) {
  test::TempDir tmp;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  // Wait until the child is a zombie: ended, not reaped (as a kill -9'd shears may be).
  for (int i = 0; i < 500 && StatField(child, 3) != "Z"; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(StatField(child, 3), "Z");
  const std::string dir =
      tmp.path() + "/shears-" + std::to_string(child) + "-" + StatField(child, 22);
  fs::create_directories(dir);
  RemoveTempLeftovers(tmp.path());
  EXPECT_FALSE(fs::exists(dir));
  waitpid(child, nullptr, 0);
}

TEST(SpillTest, QueriesSpillIntoTheDatabaseDirectoryAndCleanUp) {
  test::TempDir tmp;
  const std::string db_dir = tmp.path() + "/db";
  fs::create_directories(db_dir + "/.tmp/shears-999999999-1");
  std::ofstream(db_dir + "/.tmp/shears-999999999-1/spill-3") << "from a killed process";
  Database db(db_dir);
  EXPECT_FALSE(fs::exists(db_dir + "/.tmp/shears-999999999-1"));
  Connection con(db);
  con.Query("SET memory_limit = '4MB'");
  auto result = con.Query(
      "SELECT count(*), sum(c) FROM (SELECT x % 100000 k, count(*) c FROM range(300000) t(x) "
      "GROUP BY 1) t");
  EXPECT_EQ(result.ToStrings(), (std::vector<std::vector<std::string>>{{"100000", "300000"}}));
  EXPECT_TRUE(fs::is_directory(db_dir + "/.tmp"));  // it spilled there
  EXPECT_EQ(CountFiles(db_dir + "/.tmp"), 0);
  // A failing spill (space limit) leaves nothing either.
  con.Query("SET max_temp_directory_size = '64KB'");
  EXPECT_THROW(con.Query("SELECT count(*) FROM (SELECT x % 100000 k, count(*) c FROM "
                         "range(300000) t(x) GROUP BY 1) t"),
               OutOfMemoryError);
  EXPECT_EQ(CountFiles(db_dir + "/.tmp"), 0);
}

/// A 2 MiB tmpfs mounted at `dir` while alive (root only; `mounted` false otherwise).
struct SmallTmpfs {
  explicit SmallTmpfs(const std::string& dir) : dir(dir) {
    fs::create_directories(dir);
    mounted = geteuid() == 0 && mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=2m") == 0;
  }
  ~SmallTmpfs() {
    if (mounted) umount2(dir.c_str(), MNT_DETACH);
  }
  std::string dir;
  bool mounted = false;
};

TEST(SpillTest, ADiskFullWhileSpillingOrWritingIsAClearErrorAndLeavesTablesIntact) {
  test::TempDir tmp;
  SmallTmpfs disk(tmp.path() + "/small");
  if (!disk.mounted) GTEST_SKIP() << "cannot mount a tmpfs (not root?)";
  const std::string db_dir = disk.dir + "/db";
  Database db(db_dir);
  Connection con(db);
  con.Query("CREATE TABLE t AS SELECT x FROM range(1000) t(x)");
  con.Query("SET memory_limit = '4MB'");
  // Spilling 300,000 groups needs more than the 2 MiB disk.
  try {
    con.Query(
        "SELECT count(*) FROM (SELECT x % 300000 k, count(*) c, sum(x) s FROM "
        "range(900000) t(x) GROUP BY 1) t");
    FAIL() << "expected the disk to fill";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("temp_directory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(CountFiles(db_dir + "/.tmp"), 0);
  // An INSERT larger than the disk fails and leaves the table as it was.
  con.Query("RESET memory_limit");
  EXPECT_THROW(con.Query("INSERT INTO t SELECT x FROM range(2000000) t(x)"), Error);
  EXPECT_EQ(con.Query("SELECT count(*), sum(x) FROM t").ToStrings(),
            (std::vector<std::vector<std::string>>{{"1000", "499500"}}));
  // The space is free again: a small INSERT and the spilling query's writes fit.
  con.Query("INSERT INTO t SELECT x FROM range(10) t(x)");
  EXPECT_EQ(con.Query("SELECT count(*) FROM t").ToStrings(),
            (std::vector<std::vector<std::string>>{{"1010"}}));
}

}  // namespace
}  // namespace shears
