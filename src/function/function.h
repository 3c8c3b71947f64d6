#pragma once
// Scalar functions and operators: overload resolution (with implicit casts and the DECIMAL
// precision/scale rules) and vectorized kernels. The binder looks functions up here by name;
// the expression executor calls the kernels. Operators are functions too: "+", "=", "||", ...

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/value.h"
#include "common/vector.h"

namespace shears {

/// Inputs of a kernel: `count` rows, one vector per argument (already cast to the signature's
/// argument types). A kernel writes `count` results into `result` (values and validity; the
/// validity starts all-valid) and may throw OutOfRangeError (overflow,
/// bad cast) naming the value. Kernels handle NULL inputs themselves (a null_propagating kernel
/// writes NULL where an argument is NULL and never raises an error for such a row), so the
/// executor may pass rows with NULLs.
using ScalarKernel =
    std::function<void(const std::vector<const Vector*>& args, idx_t count, Vector& result)>;

/// A resolved call: argument types after implicit casts, the result type, and the kernel.
struct BoundScalarFunction {
  std::string name;
  std::vector<LogicalType> arg_types;
  LogicalType return_type;
  ScalarKernel kernel;
  /// Propagates NULL: any NULL argument gives NULL without calling the kernel for that row
  /// (false for functions such as coalesce, concat, IS DISTINCT FROM).
  bool null_propagating = true;
  /// The kernel itself skips the rows where an argument is NULL and never reads their values
  /// (BinaryLoop and the checked arithmetic loops), so the executor passes it batches with
  /// NULLs as they are instead of gathering the rows without NULLs first.
  bool skips_null_rows = false;
  /// Same inputs give the same output (false for random()): constant folding may run it.
  bool deterministic = true;
  /// list_transform & co.: the lambda as written, shown after the first argument (its body
  /// lives in the kernel; the columns it captures are the arguments after the list's).
  std::string lambda;
};

class FunctionRegistry {
 public:
  /// The registry with every built-in function.
  static const FunctionRegistry& Default();

  /// Resolves `name` for arguments of `arg_types` (a NULL literal has TypeId::kInvalid and
  /// matches any type). Throws BinderError listing the candidate signatures when nothing
  /// matches, and naming the function when it does not exist.
  BoundScalarFunction Bind(const std::string& name,
                           const std::vector<LogicalType>& arg_types) const;
  bool Exists(const std::string& name) const;

  /// A resolver gets the actual argument types and returns the signature to use (argument
  /// types to cast to, return type, kernel), or nullopt when the types do not fit.
  using Resolver =
      std::function<std::optional<BoundScalarFunction>(const std::vector<LogicalType>& arg_types)>;
  void Register(const std::string& name, Resolver resolver, std::string signature_help);

 private:
  struct Entry {
    std::vector<Resolver> resolvers;
    std::vector<std::string> help;
  };
  std::vector<std::pair<std::string, Entry>> entries_;
  const Entry* Find(const std::string& name) const;
};

/// Runs `function` on one row of constant arguments (each cast to the argument type; a NULL
/// gives NULL without running a null-propagating kernel). For constant folding.
Value EvaluateScalar(const BoundScalarFunction& function, const std::vector<Value>& args);

// ---- casts ----

/// Whether `from` converts to `to` implicitly (in function resolution and comparisons):
/// INTEGER -> BIGINT -> DECIMAL -> REAL -> DOUBLE widening, DATE -> TIMESTAMP, NULL -> anything,
/// VARCHAR literal -> the other side's type is decided by the binder, not here.
bool CanImplicitCast(const LogicalType& from, const LogicalType& to);
/// The common type both sides of a comparison / UNION / CASE branches are cast to; nullopt
/// when there is none (e.g. DATE vs BOOLEAN). DECIMAL(p1,s1) with DECIMAL(p2,s2) gives
/// DECIMAL(max(p1-s1, p2-s2) + max(s1, s2), max(s1, s2)), capped at 38 digits.
std::optional<LogicalType> CommonType(const LogicalType& a, const LogicalType& b);
/// Converts `count` values of `in` into `out` (of the target type). Explicit casts allow every
/// conversion SQL defines (e.g. VARCHAR <-> everything, DOUBLE -> INTEGER rounds half away
/// from zero); a value that does not convert is an OutOfRangeError / InvalidInputError naming
/// the value and both types, or NULL when `try_cast`.
void CastVector(const Vector& in, Vector& out, idx_t count, bool try_cast = false);
/// Whether an explicit CAST from `from` to `to` exists at all (for binder errors).
bool CastExists(const LogicalType& from, const LogicalType& to);
/// Casts one value (used for constant folding and literals).
Value CastValue(const Value& value, const LogicalType& to, bool try_cast = false);

// ---- STRUCT and MAP (nested_functions.cpp) ----

/// MAP {k: v, ...} as the parser writes it (its kMapLiteralMarker): keys and values alternating.
inline constexpr const char* kMapLiteralFunction = "__shears_map_literal";
/// m[k] of a MAP: the key's value, NULL when absent (map_extract gives a list of it).
inline constexpr const char* kMapValueFunction = "__shears_map_value";

/// A STRUCT value per row from its fields' values (struct_pack, row(), {'a': x}); the
/// arguments are the fields, of the struct's field types. A NULL field stays a NULL field.
BoundScalarFunction MakeStructPack(const LogicalType& struct_type);
/// Field `field` of a STRUCT (s.a, s['a'], struct_extract(s, 'a' | i)).
BoundScalarFunction MakeStructExtract(const LogicalType& struct_type, size_t field);

// ---- random() ----

/// Reseeds random(): every thread's generator restarts from `seed` on its next call, so a
/// single-threaded query after SetRandomSeed(s) is reproducible (SQL setseed / Spark seeds).
void SetRandomSeed(uint64_t seed);

}  // namespace shears
