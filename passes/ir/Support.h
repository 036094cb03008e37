//===- Support.h - Fatal errors and target machines for the passes -*- C++ -*-===//
//
// The one way the passes report an error opt cannot recover from, the one place
// that hides how the LLVM majors differ in creating a TargetMachine, the one way
// a pass runs one of PassBuilder's pipelines on the whole module, and the
// thread's in-process split (the plugin's shard_plugin_split_v2): where
// shard-split<memory> sends its output and where fatal() returns to.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_IR_SUPPORT_H
#define SHARD_IR_SUPPORT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/PGOOptions.h"
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class PassBuilder;
class PassInstrumentationCallbacks;
class TargetMachine;
class Triple;
class raw_ostream;
} // namespace llvm

namespace shard {

/// Ends the process with "LLVM ERROR: PASS: MSG" (no crash report): for conditions
/// that a pass cannot recover from, such as a file it cannot write. In an in-process
/// split, returns to runInProcess instead, which fails with "PASS: MSG".
[[noreturn]] void fatal(llvm::StringRef Pass, const llvm::Twine &Msg);

/// A TargetMachine for TT with the default CPU and features (functions carry their
/// own), or null with Err set when no target is registered for TT.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const llvm::Triple &TT, std::optional<llvm::Reloc::Model> RM, std::string &Err);

/// The optimisation level of clang's -O<Level> (1..3; 2 for any other).
llvm::OptimizationLevel optLevel(unsigned Level);

/// Runs on M the module pipeline that Build makes with a PassBuilder set up as clang's
/// backend sets it up for M (a target machine for M's triple, none without one: the CPU and
/// features come from each function's attributes; the standard analyses), with PGO and PIC.
void runModulePipeline(llvm::Module &M, std::optional<llvm::PGOOptions> PGO,
                       llvm::PassInstrumentationCallbacks *PIC,
                       llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder &)> Build);

/// Where shard-split<memory> sends the manifest and the shards of an in-process split.
struct MemorySink {
  virtual ~MemorySink() = default;
  /// The manifest's text; false: the host stops the split.
  virtual bool manifest(llvm::StringRef Text) = 0;
  /// Shard S's bitcode; false: the host stops the split.
  virtual bool shard(unsigned S, llvm::StringRef Bitcode) = 0;
  /// Whether this part writes shard S now: the host's claim, else Static (its share);
  /// none: the host stops the split.
  virtual std::optional<bool> claim(unsigned S, bool Static) = 0;
};

/// Runs Fn as this thread's in-process split, shard-split<memory> writing to Sink: true,
/// or false with Error set to Fn's error (nonempty) or fatal()'s message, then what the
/// passes printed about it (errorStream). fatal() jumps back here and skips destructors:
/// what Fn had allocated is leaked.
bool runInProcess(MemorySink &Sink, llvm::function_ref<std::string()> Fn, std::string &Error);

/// The sink of this thread's in-process split, or null (under opt or clang).
MemorySink *memorySink();

/// Where a pass explains an error: the in-process split's message (runInProcess), or errs().
llvm::raw_ostream &errorStream();

} // namespace shard

#endif
