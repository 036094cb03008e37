//===- ShardSplit.cpp - Write one module per shard ------------------------===//
//
// shard-split<dir=PATH> reads the plan of shard-partition and writes
// PATH/shard.K.bc for every shard K, plus PATH/manifest for the driver
// (docs/contract.md); shard-split<memory> hands the same bytes to the sink of
// the thread's in-process split. The pass runs the stages of this folder in order:
//
//   Layout.cpp       what the module defines, and what shards may copy or import
//   Hot.cpp          (with a profile) the hot calls, whose callees shards import
//   Place.cpp        how each shard holds each definition
//   Sink.cpp         private copies in place of promoted locals
//   presimplify/     (presimplify=L) simplify once what several shards hold
//   Promote.cpp      names, promotion of locals that cross shards, keep-alive
//   ShardModule.cpp  each shard's module, cloned by Clone.cpp
//   Emit.cpp         the files (or the sink's buffers), the manifest, the notify protocol
//
// A shard borrows the bodies of its own functions: they move into the shard
// module for its write and back after (copy-bodies copies them instead: the
// same bytes, more time).
//
//===----------------------------------------------------------------------===//
#include "split/ShardSplit.h"
#include "ir/Metadata.h"
#include "ir/Plan.h"
#include "ir/Support.h"
#include "presimplify/Presimplify.h"
#include "split/Emit.h"
#include "split/Layout.h"
#include "split/Promote.h"
#include "split/Sink.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#define DEBUG_TYPE "shard-split"

using namespace llvm;

namespace shard {

namespace {

using namespace split;

/// Each shard's predicted work, with its copies and imports, and its own function count.
void predictWork(const Layout &L, const std::vector<std::vector<uint8_t>> &Placed,
                 const std::vector<uint8_t> &OdrCopied, std::vector<uint64_t> &Work,
                 std::vector<unsigned> &Functions) {
  for (unsigned S = 0; S < Placed.size(); ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I) {
      Functions[S] += Placed[S][I] == Own && isa<Function>(L.Defs[I]);
      // An import is simplified and inlined but never compiled to code: three quarters. A
      // copy of a discardable group (a tiny linkonce_odr wrapper, as every C++ unit has
      // them) is inlined and dropped: nothing. (Fitted to the shard jobs' times, README
      // "Measurements".) A linkonce_odr copy in place of an import (odr-copies) is compiled
      // wherever a call stays: its whole cost, an upper bound.
      if (Placed[S][I] == Own || Placed[S][I] == Dup || (Placed[S][I] == Copy && OdrCopied[I]))
        Work[S] += L.Cost[I];
      else if (Placed[S][I] == Import)
        Work[S] += L.Cost[I] * 3 / 4;
    }
}

/// The shards in the order they are written, the largest first (the driver starts the
/// largest jobs first).
std::vector<unsigned> largestFirst(ArrayRef<uint64_t> Work) {
  std::vector<unsigned> Order(Work.size());
  for (unsigned S = 0; S < Work.size(); ++S)
    Order[S] = S;
  llvm::stable_sort(Order, [&](unsigned A, unsigned B) { return Work[A] > Work[B]; });
  return Order;
}

/// Whether this part writes shard S. With parts=P, P processes split one module in
/// parallel, each having made the same plan and decisions, and each writes its share
/// (writerOf); an in-process host may instead hand the shards out as the parts ask (claim).
/// None: the host stops the split.
std::optional<bool> writes(const SplitOptions &Opts, const Output &Out, unsigned S) {
  bool Share = writerOf(S, Opts.Parts) == Opts.Part;
  return Out.Sink ? Out.Sink->claim(S, Share) : Share;
}

/// verify: the driver runs opt with -disable-verify and has the input verified here, once
/// the files are written, so that the first jobs need not wait for it (they fail on a
/// broken shard too, but the driver reports this failure first). Invalid debug info is
/// no error (clang drops it from each shard, as opt would have).
void verifyInput(const Module &M, bool Verify) {
  bool BrokenDebugInfo = false;
  if (Verify && verifyModule(M, &errorStream(), &BrokenDebugInfo))
    fatal("shard-split", "input module '" + M.getModuleIdentifier() + "' is broken");
  if (BrokenDebugInfo)
    errs() << "warning: shard-split: ignoring invalid debug info in '" << M.getModuleIdentifier()
           << "'\n";
}

} // namespace

PreservedAnalyses ShardSplitPass::run(Module &M, ModuleAnalysisManager &) {
  std::optional<Plan> P = readPlan(M);
  if (!P)
    fatal("shard-split", "module has no shard plan (run shard-partition first)");
  Output Out{Dir, Opts.Memory ? memorySink() : nullptr};
  if (Opts.Memory && !Out.Sink)
    fatal("shard-split", "memory: no in-process split on this thread (shard_plugin_split_v2)");
  if (!Opts.Memory && !sys::fs::is_directory(Dir))
    fatal("shard-split", "output directory '" + Dir + "' does not exist");
  // A bitcode file lists every metadata kind its LLVMContext knows: the kinds of the marks
  // on calls are known before the first shard is written, so that each shard's bytes do not
  // depend on which shards the same writer marked before it (shard-split<parts=N>).
  M.getContext().getMDKindID(SerialViewMD);
  M.getContext().getMDKindID(LastCallMD);
  StringSet<> Pinned = pinnedNames(M);
  if (Opts.Limits.ReadOnlyLocals)
    markReadOnlyLocals(M, Pinned);
  namePrivatesByReferrer(M, Pinned);
  // Names pinned by llvm.used or module asm, once the privates have their new names.
  Pinned = pinnedNames(M);
  Layout L = buildLayout(M, *P, Opts.Limits, Opts.CopyBodies, Pinned);
  L.SccImports = Opts.Limits.SerialScc;
  L.SccCalls = Opts.Limits.SerialView;
  L.ExactCopies = Opts.Limits.ExactCopies;
  L.Revisit = Opts.Limits.Revisit;
  if (L.SccImports || L.SccCalls || L.Revisit || Opts.Limits.LastCallSize)
    markCallSccs(M, L); // the serial call graph, before presimplify changes any body
  std::vector<std::vector<uint8_t>> Placed(P->NumShards);
  for (unsigned S = 0; S < P->NumShards; ++S)
    placeShard(L, Opts.Limits, S, Placed[S]);
  std::vector<uint8_t> Shared;
  if (Opts.Limits.ShareLocals) {
    Shared = shareLocals(L, Opts.Limits, Pinned, promotedDefinitions(L, P->NumShards, Placed));
    for (unsigned S = 0; S < P->NumShards; ++S)
      placeShard(L, Opts.Limits, S, Placed[S]);
  }
  if (Opts.Limits.SinkLocals)
    sinkSingleShardLocals(L, Placed);
  if (Opts.Limits.SingleCaller || Opts.Limits.ImportCallees)
    sinkSingleCallerLocals(L, Placed, !Opts.Limits.SingleCaller);
  std::vector<uint8_t> OdrCopied(L.Defs.size(), 0);
  if (Opts.Limits.OdrCopies)
    copyOdrGroups(L, Placed, OdrCopied);
  if (Opts.Limits.ImportReached)
    sinkImportReachedLocals(L, Placed);
  if (Opts.Presimplify)
    presimplifyShared(M, L, Opts.Limits, Placed,
                      {Opts.Presimplify, Opts.PresimplifyDepth, Opts.Threads, Opts.Verify,
                       Opts.Limits.ClosureViews && L.SccImports});
  holdPerShard(L, Placed);
  std::vector<Promotion> Promoted = promoteCrossShardLocals(M, L, P->NumShards, Pinned, Placed);
  if (Opts.Limits.ShareLocals) {
    copySharedLocals(M, L, Shared, Placed, Promoted);
    markLastCallers(L, Opts.Limits.LastCallSize, Shared, Placed);
  }
  keepAlive(L, P->NumShards, Placed);

  std::vector<unsigned> Functions(P->NumShards, 0);
  std::vector<uint64_t> Work(P->NumShards, 0);
  predictWork(L, Placed, OdrCopied, Work, Functions);
  // The manifest first, so that a driver may compile each shard as soon as it is written.
  // A sink that stops the split leaves the module whole, and nothing more is written.
  if (Opts.Part == 0) {
    if (!writeManifest(M, Out, Work, Functions, Promoted))
      return PreservedAnalyses::none();
    notify(Opts.NotifyFD, "manifest");
  }
  for (unsigned S : largestFirst(Work)) {
    std::optional<bool> Mine = writes(Opts, Out, S);
    if (!Mine)
      return PreservedAnalyses::none();
    if (!*Mine)
      continue;
    LLVM_DEBUG(dbgs() << "shard-split: writing shard " << S << ", predicted work " << Work[S]
                      << ", " << Functions[S] << " functions\n");
    if (!writeShard(M, *P, L, S, Placed[S], Out))
      return PreservedAnalyses::none();
    notify(Opts.NotifyFD, std::to_string(S));
  }
  verifyInput(M, Opts.Verify);
  if (Opts.QuickExit) {
    // The driver's own process ends here: the module is not freed and the rest of the
    // pipeline (opt's verification of a module nobody writes) does not run.
    outs().flush();
    errs().flush();
    std::_Exit(0);
  }
  return PreservedAnalyses::none();
}

void ShardSplitPass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  const SplitLimits &Lim = Opts.Limits;
  SplitOptions D;
  OS << (Opts.Memory ? "shard-split<memory" : "shard-split<dir=" + Dir);
  if (Lim.ImportCost != D.Limits.ImportCost)
    OS << ";import-cost=" << Lim.ImportCost;
  if (Lim.LocalImportCost != D.Limits.LocalImportCost)
    OS << ";local-import-cost=" << Lim.LocalImportCost;
  if (Lim.ImportSize != D.Limits.ImportSize)
    OS << ";import-size=" << Lim.ImportSize;
  if (Lim.DupCost != D.Limits.DupCost)
    OS << ";dup-cost=" << Lim.DupCost;
  if (Lim.Depth != D.Limits.Depth)
    OS << ";import-depth=" << Lim.Depth;
  if (Lim.ChainCost != D.Limits.ChainCost)
    OS << ";chain-cost=" << Lim.ChainCost;
  if (Lim.TinyCost != D.Limits.TinyCost)
    OS << ";tiny-cost=" << Lim.TinyCost;
  if (Lim.TinySize != D.Limits.TinySize)
    OS << ";tiny-size=" << Lim.TinySize;
  if (Lim.DeclSize != D.Limits.DeclSize)
    OS << ";decl-size=" << Lim.DeclSize;
  if (Lim.LastCallSize != D.Limits.LastCallSize)
    OS << ";last-call-size=" << Lim.LastCallSize;
  if (Lim.Revisit != D.Limits.Revisit)
    OS << ";revisit=" << Lim.Revisit;
  if (Lim.HotImportCost != D.Limits.HotImportCost)
    OS << ";hot-import-cost=" << Lim.HotImportCost;
  if (Lim.ConstBytes != D.Limits.ConstBytes)
    OS << ";const-bytes=" << Lim.ConstBytes;
  if (Lim.SinkLocals)
    OS << ";sink-locals";
  if (Lim.SingleCaller)
    OS << ";single-caller";
  if (!Lim.OdrCopies)
    OS << ";no-odr-copies";
  if (!Lim.ImportReached)
    OS << ";no-import-reached";
  if (!Lim.ReadOnlyLocals)
    OS << ";no-read-only-locals";
  if (!Lim.SerialScc)
    OS << ";no-serial-scc";
  if (Lim.ClosureViews)
    OS << ";closure-views";
  if (Lim.SerialView)
    OS << ";serial-view";
  if (!Lim.ImportCallees)
    OS << ";no-import-callees";
  if (!Lim.ShareLocals)
    OS << ";no-share-locals";
  if (!Lim.DupOneCaller)
    OS << ";no-dup-one-caller";
  if (!Lim.ExactCopies)
    OS << ";no-exact-copies";
  if (Opts.Parts != D.Parts)
    OS << ";parts=" << Opts.Parts << ";part=" << Opts.Part;
  if (Opts.NotifyFD != D.NotifyFD)
    OS << ";notify=" << Opts.NotifyFD;
  if (Opts.QuickExit)
    OS << ";quick-exit";
  if (Opts.Verify)
    OS << ";verify";
  if (Opts.CopyBodies)
    OS << ";copy-bodies";
  if (Opts.Presimplify)
    OS << ";presimplify=" << Opts.Presimplify;
  if (Opts.Presimplify && Opts.PresimplifyDepth != D.PresimplifyDepth)
    OS << ";presimplify-depth=" << Opts.PresimplifyDepth;
  if (Opts.Threads != D.Threads)
    OS << ";threads=" << Opts.Threads;
  OS << ">";
}

} // namespace shard
