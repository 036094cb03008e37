//===- MV.h - Automatic CPU multiversioning passes --------------*- C++ -*-===//
//
// shard-mv-annotate chooses, per function, the x86-64 targets a clone is
// expected to pay for and records the decision as metadata; shard-mv clones the
// chosen functions and dispatches between the clones at run time. The metadata
// is documented in README.md ("CPU multiversioning").
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_MULTIVERSION_MV_H
#define SHARD_MULTIVERSION_MV_H

#include "ir/Metadata.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class raw_ostream;
} // namespace llvm

namespace shard {

/// One multiversioning target: an x86-64 ISA level (x86-64-v2/v3/v4) or a CPU name.
struct MVTarget {
  std::string Name;                  // as given, also the clone suffix and target-cpu
  std::vector<std::string> Features; // every feature the target has, without '+'
  std::vector<std::string> Supports; // the __builtin_cpu_supports names the resolver tests
  unsigned Level = 0;                // highest x86-64-vN it has (0: below v2)
  /// True when every feature of Other is a feature of this target.
  bool implies(const MVTarget &Other) const;
  bool has(llvm::StringRef Feature) const;
};

/// Parses a target name; std::nullopt (and Err set) for an unknown name.
std::optional<MVTarget> parseMVTarget(llvm::StringRef Name, std::string &Err);
/// Parses a list of target names separated by ',' or ':' (duplicates dropped).
bool parseMVTargetList(llvm::StringRef List, std::vector<MVTarget> &Out, std::string &Err);

/// Why F cannot be cloned and dispatched safely (checked by both passes), if it cannot.
std::optional<std::string> unsafeReason(const llvm::Function &F);
/// Orders targets most capable first: higher ISA level, then more features, then name.
void sortMostCapableFirst(std::vector<MVTarget> &Targets);

/// The "target-features" of a clone for T: the baseline's FS with every
/// feature of T enabled ("+f", sorted by name).
std::string cloneFeatures(llvm::StringRef FS, const MVTarget &T);

/// The value of -shard-mv-targets (empty when not given).
llvm::StringRef mvTargetsOption();

/// shard-mv-annotate<targets=LIST>: chooses the targets each function is cloned for.
struct MVAnnotatePass : llvm::PassInfoMixin<MVAnnotatePass> {
  std::string Targets; // empty: -shard-mv-targets
  explicit MVAnnotatePass(std::string Targets) : Targets(std::move(Targets)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

/// How shard-mv dispatches between the clones.
enum class MVDispatch { Auto, IFunc, Table };

/// Parses "ifunc", "table" or "auto".
std::optional<MVDispatch> parseMVDispatch(llvm::StringRef S);

struct MVOptions {
  std::optional<MVDispatch> Dispatch; // unset: -shard-mv-dispatch (default auto)
  std::optional<std::string> Force;   // unset: -shard-mv-force; "default" or a target name
  std::optional<bool> Trace;          // unset: -shard-mv-trace
};

/// shard-mv<dispatch=ifunc|table|auto;force=TARGET|default;trace>: clones every
/// function with !shard.mv and dispatches at run time.
struct MVClonePass : llvm::PassInfoMixin<MVClonePass> {
  MVOptions Opts;
  explicit MVClonePass(MVOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

} // namespace shard

#endif
