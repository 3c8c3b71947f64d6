// Fuzzes the SQL front end and executor: parse, bind, optimize, plan and run the input against
// the fixed star schema of tests/data/hostile/schema.sql, with a memory limit and a bound on
// work so a legitimately huge query ends with an error. The bound counts batches
// (statement_batch_limit), not time, so a run does the same on a fast or a loaded machine
// (make test's gate depends on that); statement_timeout stays as a backstop far above it.
// random() is seeded before each input and the clock is deterministic (fuzz_util.h), so an input
// does the same whenever it runs. Inputs that name files, write files (COPY, EXPORT), change the
// catalog or those limits are skipped: the fuzzer should not list the disk, make runs depend on
// earlier inputs or lift its own guard rails. Seeds: fuzz/corpus/sql and the queries of tests/sql.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "common/settings.h"
#include "execution/spill.h"
#include "function/function.h"
#include "fuzz_util.h"
#include "main/connection.h"

using namespace shears;

namespace {

// The schema names its files relative to the working directory (scripts/fuzz.sh runs the
// target from its build directory, ../../tests/data in every checkout): with the checkout's
// absolute path in every view, two clones in different folders would print other strings, take
// other branches and so mutate differently (the gate must not depend on where the repository
// is). The working directory stays: libFuzzer reads and writes its corpus relative to it.
std::string Schema() {
  const std::filesystem::path data = std::filesystem::path(SHEARS_SOURCE_DIR) / "tests/data";
  std::ifstream in(data / "hostile/schema.sql");
  std::string schema((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (schema.empty()) std::abort();
  const std::string relative =
      std::filesystem::relative(data, std::filesystem::current_path()).string();
  for (size_t at; (at = schema.find("${DATA}")) != std::string::npos;)
    schema.replace(at, 7, relative);
  return schema;
}

bool Acceptable(const std::string& sql) {
  std::string lower(sql.size(), ' ');
  std::transform(sql.begin(), sql.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* word : {"threads", "memory_limit", "statement_", "verify_dynamic", "location",
                           "external", "analyze", "msck", "recover", "create", "drop", "alter",
                           "temp_directory", "copy", "export"}) {
    if (lower.find(word) != std::string::npos) return false;
  }
  // A quoted path or glob would make the fuzzer read the machine's files.
  bool quoted = false;
  for (char c : sql) {
    if (c == '\'') quoted = !quoted;
    if (quoted && (c == '/' || c == '*' || c == '.' || c == '~' || c == '?' || c == '[')) {
      return false;
    }
  }
  return true;
}

}  // namespace

// Spill files go to a directory of the target's own, emptied at start: in the system's temp
// directory the leftovers of other shears processes (how many, alive or not) would change what
// each spill runs. Its subdirectory has a fixed name, not the pid's: the pid and start time
// differ per run and, compared as strings, would reach libFuzzer's dictionary. The database and
// its schema are set up before the first input, whose coverage they would otherwise join.
constexpr const char* kScratch = "fuzz_sql_scratch";
// Batches (of up to 2,048 rows) one input may process before it is cancelled. At 2,000 a few
// seeds (the spill tests over range(150000) and more: 3% of them) took over 90% of the time,
// and a number mutated into range() could run 4M rows. Over all 2,128 seeds (Debug+ASan):
// 2,000 batches reach 35,263 edges in 110 s of CPU, 200 reach 34,859 in 68 s, 100 reach
// 34,325 in 51 s. 200 batches still spill at 64MB.
constexpr int64_t kBatchLimit = 200;
// What SQL's setseed(0.5) sets: random() repeats the same sequence for every input.
constexpr uint64_t kRandomSeed = static_cast<uint64_t>(1.5 * 0x1.0p52);

Database* g_database = nullptr;

// The session every input starts from, made once. Six SET statements per input and the SELECT 42
// check below together took as long as a typical seed's own query (perf over 242 seeds).
Settings* g_settings = nullptr;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::error_code ignored;
  std::filesystem::remove_all(kScratch, ignored);
  std::filesystem::create_directories(kScratch);
  UseFixedSpillSubdirectoryName("shears-fuzz");
  g_database = new Database();  // one for all inputs (catalog changes are skipped)
  Connection(*g_database).Query(Schema());
  g_settings = new Settings();
  g_settings->Set("threads", Value::Bigint(1));
  g_settings->Set("memory_limit", Value::Varchar("64MB"));
  g_settings->Set("statement_batch_limit", Value::Bigint(kBatchLimit));
  g_settings->Set("statement_timeout", Value::Varchar("60s"));
  g_settings->Set("temp_directory", Value::Varchar(kScratch));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string sql(reinterpret_cast<const char*>(data), size);
  if (!Acceptable(sql)) return 0;
  Connection connection(*g_database);  // a fresh session per input
  connection.settings() = *g_settings;
  SetRandomSeed(kRandomSeed);
  fuzz::ExpectOnlyUserErrors([&] { connection.Query(sql); });
  // The session must stay usable after whatever the input did.
  if (connection.Query("SELECT 42").ToStrings() != std::vector<std::vector<std::string>>{{"42"}}) {
    std::abort();
  }
  return 0;
}
