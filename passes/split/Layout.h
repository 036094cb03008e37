//===- Layout.h - Definitions, what shards may copy, and where --*- C++ -*-===//
//
// The split's view of the module: its definitions in module order with their
// owners, costs and references, the copy units (small discardable comdat
// groups), and which definitions a shard may copy privately or import. Built
// once (buildLayout, Layout.cpp); placeShard then decides, per shard, how it
// holds each definition (Place.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_SPLIT_LAYOUT_H
#define SHARD_SPLIT_LAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include <cstdint>
#include <vector>

namespace llvm {
class Function;
class GlobalObject;
class GlobalValue;
class GlobalVariable;
class Module;
} // namespace llvm

namespace shard {

struct Plan;
struct SplitLimits;

namespace split {

struct ClonedModule;

/// What the split knows about the module's definitions.
struct Layout {
  std::vector<llvm::GlobalValue *> Defs; // in module order, then those presimplify made
  llvm::DenseMap<const llvm::GlobalValue *, uint32_t> Index; // Defs position
  std::vector<unsigned> Owner;                               // shard per definition
  std::vector<uint64_t> Cost;                                // predicted cost per definition
  std::vector<uint64_t> Size; // inlineSize per function definition (0 for the others)
  std::vector<uint32_t> DeclCost; // the inline cost a shard declaring it gives its calls (or 0;
                                  // markDeclCosts)
  std::vector<uint8_t> BlocksTaken; // a function with a block whose address is taken
  std::vector<uint8_t> Exact;       // the input's definition is the one that runs
                                    // (hasExactDefinition; markExactCopies)
  std::vector<uint8_t> Movable;     // a body its owner's shard may borrow (cloneDefinitions)
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> SourcePos; // module order, declarations too
  std::vector<const llvm::GlobalVariable *> Arrays; // the per-shard arrays (ctors, used)
  std::vector<int32_t> Unit;                        // copy unit (comdat) or -1
  std::vector<std::vector<uint32_t>> UnitMembers;   // definitions per copy unit
  std::vector<uint64_t> UnitCost;                   // cost per copy unit
  std::vector<uint8_t> UnitImported;                // a unit other shards import rather than copy
  std::vector<std::vector<uint32_t>> Refs;          // definitions each one refers to
  std::vector<std::vector<uint32_t>> Calls;         // functions each one calls directly
  std::vector<uint8_t> Dup;                         // a small local a shard may copy privately
  std::vector<uint8_t> Import; // a definition a shard may import as available_externally
  std::vector<std::vector<uint32_t>> HotCalls; // with a profile: the functions each one calls
                                               // at a hot call site (sorted; markHotCalls)
  std::vector<uint8_t> HotImport;              // a function a shard may import for such a call
  std::vector<uint8_t> Sinkable; // a local function any shard may copy privately (not pinned,
                                 // copyableLocal)
  std::vector<uint8_t> PerShard; // held by every shard that names it, with its own linkage:
                                 // never promoted or imported (perShardDefinition)
  std::vector<uint32_t> CallScc; // with serial-scc, serial-view or last-call-size: each
                                 // function's SCC of the module's call graph (markCallSccs),
                                 // else empty
  std::vector<uint32_t> SccPos;  // and its place in that SCC
  std::vector<uint32_t> SccSize; // per SCC: how many of the functions it holds
  std::vector<uint32_t> LastCaller; // per shared local: its serially last caller, whose
                                    // calls its owner's shard marks (markLastCallers), or ~0u
  bool SccImports = false;       // serial-scc: markSerialSccCalls marks calls to imports
  bool SccCalls = false;         // serial-view: and to functions the shard holds
  unsigned Revisit = 0;          // revisit: markRevisits marks functions whose cycle is cut
  bool ExactCopies = false;      // exact-copies: markExactCopies marks inexact copies
};

/// How a shard holds a definition.
enum Place : uint8_t {
  NotHere = 0,
  Own = 1,    // assigned to this shard
  Copy = 2,   // copy of a discardable comdat group
  Dup = 3,    // private copy of a small local (internal, as in the input)
  Import = 4, // available_externally copy, for inlining and constant folding
};

/// Whether every call to GV is inlined whatever its cost (always_inline).
bool alwaysInlined(const llvm::GlobalValue &GV);
/// The largest function a shard imports (twice that with inlinehint).
uint64_t importLimit(const llvm::Function &F, const SplitLimits &Lim);

/// The layout of M's definitions under plan P. Pinned: the names that must survive
/// promotion (pinnedNames), whose definitions are neither copied nor imported.
/// CopyBodies: no shard borrows a body (every Movable is false).
Layout buildLayout(llvm::Module &M, const Plan &P, const SplitLimits &Lim, bool CopyBodies,
                   const llvm::StringSet<> &Pinned);

/// Collects (again) what definition I refers to and calls (L.Refs[I], L.Calls[I]), as
/// its body is now.
void collectLinks(Layout &L, uint32_t I);

/// With a profile in M, the functions each definition calls at a hot call site
/// (L.HotCalls; Hot.cpp); none without one, or with SplitLimits::HotImportCost 0.
void markHotCalls(llvm::Module &M, Layout &L, const SplitLimits &Lim);
/// Numbers the SCCs of M's call graph, as the inliner sees it, into L.CallScc, and each
/// function's place in its SCC into L.SccPos (Scc.cpp).
void markCallSccs(llvm::Module &M, Layout &L);
/// Marks SerialViewMD on each call, in shard C, from a function with a body there to a
/// callee in the same serial SCC (L.CallScc), placed later there (L.SccPos), but a
/// presimplified one: to an import (with L.SccImports), and between two functions the
/// shard holds where its own calls do not keep them in one SCC (with L.SccCalls). The
/// shard compile gives the call the callee's body as it was before the inliner's walk, as
/// the serial inliner sees it.
/// Returns how many.
unsigned markSerialSccCalls(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C);

/// Marks RevisitAttr (L.Revisit) on each function shard C owns that shares a serial SCC with
/// others (L.CallScc) but none in the shard's own call graph. Returns how many.
unsigned markRevisits(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C);

/// Of the shared locals (Shared: copySharedLocals made them linkonce_odr copies) of inline
/// size up to MaxSize that are called only directly, records in L.LastCaller the caller the
/// serial inliner reaches last (by L.CallScc), where its owner's shard holds the local too.
/// Returns how many.
unsigned markLastCallers(Layout &L, uint64_t MaxSize,
                         const std::vector<uint8_t> &Shared,
                         const std::vector<std::vector<uint8_t>> &Placed);
/// Marks LastCallMD, in shard C (Here), on the calls of each recorded last caller it owns
/// to its shared local (markLastCallers): the shard compile gives such a call the
/// inliner's last-call bonus once it is the callee's only use there. Returns how many.
unsigned markLastCalls(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C);

/// Marks in Placed (one Place per definition) how shard S holds each definition.
void placeShard(const Layout &L, const SplitLimits &Lim, unsigned S, std::vector<uint8_t> &Placed);

/// Of the locals that the split promotes anyway (Promoted, promotedDefinitions), the
/// functions a shard may import as it imports a global, up to import-cost: marks them
/// importable (L.Import) and returns them (copySharedLocals shares them). Importing one
/// promotes nothing that is not promoted already, and the shard's inliner then sees the
/// body the serial inliner takes into each caller, where it would otherwise see a call
/// to a declaration and take the caller as cheaper than the serial build does.
std::vector<uint8_t> shareLocals(Layout &L, const SplitLimits &Lim, const llvm::StringSet<> &Pinned,
                                 const std::vector<uint8_t> &Promoted);

/// Makes every shard that holds a definition naming a per-shard one (L.PerShard) hold
/// that one too: a private copy of a local, a copy of any other. Run after every other
/// placement, so that nothing promotes or imports them.
void holdPerShard(const Layout &L, std::vector<std::vector<uint8_t>> &Placed);

/// Adds to L the local definitions New, made in the module after buildLayout (by
/// presimplify), in order, with what they refer to and whether a shard may copy or
/// import them; their owners are placeAdded's.
void addDefinitions(Layout &L, llvm::ArrayRef<llvm::GlobalObject *> New, const SplitLimits &Lim);

/// Gives the definitions from First on (addDefinitions) their owners and places them in
/// every shard's Placed, as placeShard would for a local that what the shard holds names:
/// copied privately where it may be, else imported or declared (and promoted).
void placeAdded(Layout &L, uint32_t First, std::vector<std::vector<uint8_t>> &Placed);

} // namespace split
} // namespace shard

#endif
