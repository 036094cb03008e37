//===- ShardSplit.h - Write one module per shard ----------------*- C++ -*-===//
//
// shard-split<dir=PATH;...> writes one module per shard of the plan that
// shard-partition recorded, and a manifest for the driver (docs/contract.md);
// shard-split<memory;...> hands the same bytes to an in-process split's host.
// SplitLimits says what a shard may hold besides its own definitions,
// SplitOptions how the shards are written.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_SHARDSPLIT_H
#define SHARD_SPLIT_SHARDSPLIT_H

#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <string>

namespace shard {

/// How much shard-split may copy or import into a shard besides its own definitions.
struct SplitLimits {
  unsigned ImportCost = 170;      // import functions up to this cost (twice with inlinehint)
  unsigned LocalImportCost = 125; // and local ones up to this (importLimit)
  unsigned ImportSize = 55;       // up to twice those, functions of this inlineSize too (0: off)
  unsigned DupCost = 60;          // copy local functions called only directly up to this cost
  bool DupOneCaller = true;       // private copies of local functions above TinyCost (dup-cost's
                                  // and import-reached's) only of those one function calls
                                  // (faithfulCopy; no-dup-one-caller: docs/measurements.md)
  unsigned Depth = 1;             // import what imports refer to, this many levels deep
  unsigned ChainCost = 225;       // past Depth, import what a (not linkonce) import calls while
                                  // the chain of such imports costs up to this in all (0: off;
                                  // placeShard)
  unsigned TinyCost = 30;         // copy or import definitions up to this cost at any depth,
                                  // and count no depth for such functions (wrappers)
  unsigned TinySize = 0;          // and functions up to this inlineSize (0: off; docs/passes.md)
  unsigned DeclSize = 30;         // a declaration of a function up to this inlineSize carries
                                  // the inline cost of its body (0: off; markDeclCosts)
  unsigned HotImportCost = 2400;  // with a profile: import a callee called at a hot call site
                                  // up to this cost, at any depth (0: off; markHotCalls)
  uint64_t ConstBytes = 4096;     // copy or import constants up to this size
  bool SinkLocals = false;        // a local imported by one shard only: a private copy there
                                  // (sinkSingleShardLocals; off: docs/measurements.md)
  bool SingleCaller = false;      // a local only one function refers to: a private copy in
                                  // each shard holding that function (sinkSingleCallerLocals;
                                  // off: docs/measurements.md, the sweep of 2026-12-02)
  bool ImportCallees = true;      // the same, only in the shards that import or copy that
                                  // function (no-import-callees: docs/measurements.md)
  bool OdrCopies = true;          // a linkonce_odr group other shards import: a linkonce_odr
                                  // copy in its comdat in each of them, none kept alive
                                  // (copyOdrGroups; no-odr-copies: docs/measurements.md)
  bool ShareLocals = true;        // the local functions promoted anyway: imported up to
                                  // import-cost, linkonce_odr copies (shareLocals)
  bool SerialScc = true;          // an import called from within its serial call graph SCC:
                                  // left unsimplified for the shard's inliner (Scc.cpp;
                                  // no-serial-scc)
  bool ClosureViews = false;      // with serial-scc and presimplify, a function called from
                                  // earlier in its serial SCC stays out of the closure, so
                                  // that its serial view holds (closureOf; off:
                                  // docs/measurements.md)
  unsigned LastCallSize = 55;     // a shared local up to this inlineSize: its serially last
                                  // caller's call gets the last-call bonus once it is the
                                  // local's only use (markLastCallers; 0: off)
  unsigned Revisit = 0;           // a function the serial inliner walks in a cycle that its
                                  // shard cuts: this many more inliner visits (0: off; Scc.cpp)
  bool SerialView = false;        // the same for a call between two functions the shard
                                  // holds: the call sees a copy of the callee as it was
                                  // (Scc.cpp; off: docs/measurements.md)
  bool ReadOnlyLocals = true;     // a local variable the module never stores to: constant,
                                  // imported as constants are (markReadOnlyLocals;
                                  // no-read-only-locals)
  bool ImportReached = true;      // a local other shards reach only through their imports: a
                                  // private copy in each, promoted nowhere
                                  // (sinkImportReachedLocals; no-import-reached)
  bool ExactCopies = true;        // a shard's inexact copy of an exact definition: marked for
                                  // the shard compile's FunctionAttrs (markExactCopies;
                                  // no-exact-copies)
};

/// How shard-split writes the shards: its limits, and the options that change how (not
/// what) it writes.
struct SplitOptions {
  SplitLimits Limits;
  unsigned Parts = 1, Part = 0; // write only this part's share of the shards (writerOf)
  int NotifyFD = -1;            // write "manifest" or the shard number, a line each, to this fd
  bool QuickExit = false;       // end opt after the last file: no teardown, no final verifier
  bool Verify = false;          // verify the input once the files are written (opt -disable-verify)
  bool CopyBodies = false;      // copy every body into its shard, never borrow the owner's
  unsigned Presimplify = 0;     // -O level (1-3) at which to simplify once what shards share
  unsigned PresimplifyDepth = 0; // and holds for inlining there the importable callees of
                                 // what it simplifies, this many levels deep (closureOf; 0:
                                 // none, docs/measurements.md)
  unsigned Threads = 1;         // threads that simplify it (the output does not depend on them)
  bool Memory = false;          // to the in-process split's sink (memorySink), not to Dir
};

/// shard-split<dir=PATH;...>: writes one module per shard and a manifest into PATH
/// (memory: to the in-process split's sink; Dir is empty).
struct ShardSplitPass : llvm::PassInfoMixin<ShardSplitPass> {
  std::string Dir;
  SplitOptions Opts;
  ShardSplitPass(std::string Dir, SplitOptions Opts) : Dir(std::move(Dir)), Opts(Opts) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  static bool isRequired() { return true; }
};

} // namespace shard

#endif
