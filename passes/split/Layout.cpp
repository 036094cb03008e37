//===- Layout.cpp - Definitions, what shards may copy, and where ----------===//
//
// Shard K keeps the definitions assigned to it, declares what it uses of the
// rest, and copies what its optimiser needs to make the code a serial build
// makes: private copies of small locals (dupEligible), copies of small
// discardable comdat groups, as C++ compilers emit them in every unit (the copy
// units of buildLayout), and available_externally imports of small functions
// and constants (importEligible). placeShard (Place.cpp) walks the references
// from a shard's own definitions to choose them.
//
//===----------------------------------------------------------------------===//
#include "split/Layout.h"
#include "cost/ShardCost.h"
#include "ir/Plan.h"
#include "ir/Support.h"
#include "split/ShardSplit.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/Support/Debug.h"

#include <algorithm>

#define DEBUG_TYPE "shard-split"

using namespace llvm;

namespace shard {
namespace split {

/// Whether every call to F is inlined whatever its cost (always_inline: the serial
/// build's first inliner takes it into each caller), so that a copy or an import of it
/// in a caller's shard is what the serial build does, at any size.
bool alwaysInlined(const GlobalValue &GV) {
  const auto *F = dyn_cast<Function>(&GV);
  return F && F->hasFnAttribute(Attribute::AlwaysInline) && !F->hasFnAttribute(Attribute::NoInline);
}

/// The largest function a shard imports (twice that with inlinehint): import-cost, or
/// local-import-cost for a local. An imported local is promoted, and where every importer
/// inlines it, its owner's copy is left called by nothing (the serial build deletes it);
/// a global's owner keeps its definition anyway.
uint64_t importLimit(const Function &F, const SplitLimits &Lim) {
  return F.hasLocalLinkage() ? std::min(Lim.ImportCost, Lim.LocalImportCost) : Lim.ImportCost;
}

namespace {

/// Whether a shard may borrow its own functions' bodies from the source module rather than
/// copy them (copy-bodies turns it off). LLVM 19 copies: its functions carry one of two
/// debug-info formats, which moving blocks between functions would have to reconcile.
constexpr bool MoveBodies = LLVM_VERSION_MAJOR >= 20;

/// The definitions a definition refers to, each once.
void collectDefRefs(const GlobalValue &GV, const Layout &L, std::vector<uint32_t> &Out) {
  forEachRef(GV, [&](const GlobalValue &R) {
    auto It = L.Index.find(&R);
    if (It != L.Index.end() && &R != &GV)
      Out.push_back(It->second);
  });
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
}

/// The defined functions a definition calls directly, each once.
void collectCallees(const GlobalValue &GV, const Layout &L, std::vector<uint32_t> &Out) {
  const auto *F = dyn_cast<Function>(&GV);
  if (!F)
    return;
  for (const BasicBlock &BB : *F)
    for (const Instruction &I : BB)
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        auto It = L.Index.find(dyn_cast<GlobalValue>(CB->getCalledOperand()->stripPointerCasts()));
        if (It != L.Index.end())
          Out.push_back(It->second);
      }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
}

/// The comdat of a global object, or of the object an alias points to.
const Comdat *comdatOf(const GlobalValue &GV) {
  if (const auto *GA = dyn_cast<GlobalAlias>(&GV))
    if (const GlobalObject *GO = GA->getAliaseeObject())
      return GO->getComdat();
  return GV.getComdat();
}

/// Whether a function's body can be copied into another module as is.
bool copyableBody(const Function &F) {
  if (F.hasFnAttribute(Attribute::NoInline) || F.hasFnAttribute(Attribute::OptimizeNone) ||
      F.isVarArg() || F.hasSection())
    return false;
  for (const BasicBlock &BB : F) {
    if (BB.hasAddressTaken())
      return false;
    for (const Instruction &I : BB)
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (CB->isInlineAsm())
          return false;
  }
  return true;
}

/// Whether C holds a blockaddress, which is only valid in the module that defines
/// its function.
bool hasBlockAddress(const Constant *C) {
  SmallVector<const Constant *, 16> Work{C};
  SmallPtrSet<const Constant *, 16> Seen;
  while (!Work.empty()) {
    const Constant *Cur = Work.pop_back_val();
    if (isa<BlockAddress>(Cur))
      return true;
    if (isa<GlobalValue>(Cur) || isa<ConstantData>(Cur) || !Seen.insert(Cur).second)
      continue;
    for (const Use &U : Cur->operands())
      Work.push_back(cast<Constant>(U.get()));
  }
  return false;
}

/// Whether V is a constant variable small enough to copy or import.
bool smallConstant(const GlobalVariable &V, const SplitLimits &Lim) {
  // A copy of a table of block addresses in another shard would name a function
  // body that shard does not have: CloneModule crashed (LLVM 22) or wrote bitcode
  // that cannot be read back (LLVM 19). Such tables stay with their function.
  return V.isConstant() && V.hasInitializer() && !V.isThreadLocal() && !V.hasSection() &&
         V.getParent()->getDataLayout().getTypeAllocSize(V.getValueType()) <= Lim.ConstBytes &&
         !hasBlockAddress(V.getInitializer());
}

/// Whether GV is a definition each shard that names it must hold itself, as the
/// translation unit did: a function-name variable of front-end instrumentation
/// (-fprofile-instr-generate, "__profn_NAME", named by llvm.instrprof.* only). Each
/// shard's lowering turns it into that shard's counters: private ones for a private
/// name (one profile record per shard, which llvm-profdata adds up), shared ones through
/// the linkage of any other (one per program). An imported or promoted name would leave
/// counters no shard defines.
bool perShardDefinition(const GlobalValue &GV) {
  const auto *V = dyn_cast<GlobalVariable>(&GV);
  return V && V->hasInitializer() && V->getName().starts_with(getInstrProfNameVarPrefix()) &&
         !V->use_empty() &&
         llvm::all_of(V->users(), [](const User *U) { return isa<InstrProfInstBase>(U); });
}

/// Whether every use of F is an instruction of one function.
bool oneCaller(const Function &F) {
  const Function *Caller = nullptr;
  for (const User *U : F.users()) {
    const auto *I = dyn_cast<Instruction>(U);
    if (!I || (Caller && I->getFunction() != Caller))
      return false;
    Caller = I->getFunction();
  }
  return true;
}

/// Whether a shard's inliner sees a private copy of local function F (of cost Cost) as
/// the serial inliner sees F: where one function calls it, or it is tiny (inlined
/// everywhere either way). A copy of a static with several callers has fewer calls in a
/// shard than in the module, so the inliner takes the last of them with the last-call
/// bonus, which the serial build does not give (dup-one-caller; off: any local).
bool faithfulCopy(const Function &F, uint64_t Cost, const SplitLimits &Lim) {
  return Cost <= Lim.TinyCost || alwaysInlined(F) || !Lim.DupOneCaller || oneCaller(F);
}

/// A local function a shard may copy privately, whatever its size: called only
/// directly (its address is never compared), its body copyable, the copy faithful.
bool copyableLocal(const Function &F, const SplitLimits &Lim) {
  return F.hasLocalLinkage() && !F.hasAddressTaken() && copyableBody(F) &&
         faithfulCopy(F, getCost(F), Lim);
}

/// A local that each shard using it may copy privately: a small (or always_inline)
/// copyableLocal function (a static with several callers is imported instead), or a
/// small constant whose address does not matter (unnamed_addr).
bool dupEligible(const GlobalValue &GV, const SplitLimits &Lim) {
  if (!GV.hasLocalLinkage())
    return false;
  if (const auto *F = dyn_cast<Function>(&GV))
    return (getCost(*F) <= Lim.DupCost || (Lim.DupCost && alwaysInlined(*F))) &&
           copyableLocal(*F, Lim);
  if (const auto *V = dyn_cast<GlobalVariable>(&GV))
    return V->hasGlobalUnnamedAddr() && smallConstant(*V, Lim);
  return false;
}

/// Whether GV's body may stand for the definition the linker keeps: ODR definitions may
/// be imported from a comdat (the import itself has none); others in a comdat could be
/// replaced by another object's copy at link time.
bool importable(const GlobalValue &GV) {
  return !GV.isInterposable() && !GV.hasAvailableExternallyLinkage() &&
         (!GV.hasComdat() || GV.hasLinkOnceODRLinkage() || GV.hasWeakODRLinkage());
}

/// Whether function F of cost Cost and inline size Size may be imported under limit Limit
/// (twice that with inlinehint; any cost when always_inline; nothing at all when Limit is 0).
/// Up to twice the limit, a function of inline size up to import-size may be too: the cost
/// predicts compile time, and a body of local variables and macro scaffolding, which the
/// first simplification removes, costs far more than the inliner will see (inlineSize).
bool importableFunction(const Function &F, uint64_t Cost, uint64_t Size, uint64_t Limit,
                        const SplitLimits &Lim) {
  if (!Limit || !copyableBody(F))
    return false;
  if (F.hasFnAttribute(Attribute::InlineHint))
    Limit *= 2;
  return Cost <= Limit || alwaysInlined(F) ||
         (Cost <= 2 * Limit && Lim.ImportSize && Size <= Lim.ImportSize);
}

/// Whether definition I is one another shard may import as available_externally: a
/// function small enough to be inlined, or a constant whose loads can be folded.
bool importEligible(const Layout &L, uint32_t I, const SplitLimits &Lim) {
  const GlobalValue &GV = *L.Defs[I];
  if (!importable(GV))
    return false;
  if (const auto *F = dyn_cast<Function>(&GV))
    return importableFunction(*F, L.Cost[I], L.Size[I], importLimit(*F, Lim), Lim);
  if (const auto *V = dyn_cast<GlobalVariable>(&GV))
    return smallConstant(*V, Lim);
  return false;
}

/// Lists the definitions with their owners and costs, the position of every global
/// value, and the per-shard arrays.
void indexDefinitions(Module &M, const Plan &P, Layout &L) {
  unsigned Pos = 0;
  for (GlobalValue &GV : M.global_values()) {
    L.SourcePos[&GV] = Pos++;
    if (isPerShardArray(GV)) {
      L.Arrays.push_back(cast<GlobalVariable>(&GV));
      continue;
    }
    if (GV.isDeclaration())
      continue;
    std::optional<unsigned> S = getShard(GV);
    if (!S || *S >= P.NumShards)
      fatal("shard-split",
            "no shard recorded for " + displayName(GV) + " (run shard-partition first)");
    L.Index[&GV] = L.Defs.size();
    L.Defs.push_back(&GV);
    L.Owner.push_back(*S);
    L.Cost.push_back(getGlobalCost(GV));
    const auto *F = dyn_cast<Function>(&GV);
    L.Size.push_back(F ? inlineSize(*F) : 0);
    L.BlocksTaken.push_back(
        F && llvm::any_of(*F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); }));
    L.Exact.push_back(GV.hasExactDefinition());
  }
}

/// Groups the definitions by comdat (L.Unit, L.UnitMembers) and returns, per group,
/// whether it is discardable as a whole: selection "any", every member linkonce or
/// local. A linkonce object without a comdat is just as discardable (its owner's
/// opt -O2 drops it when unused there, leaving other shards' declarations
/// undefined): it gets a group of its own.
std::vector<bool> groupComdats(Layout &L) {
  DenseMap<const Comdat *, int32_t> UnitOf;
  std::vector<bool> Copyable;
  L.Unit.assign(L.Defs.size(), -1);
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const Comdat *C = comdatOf(*L.Defs[I]);
    if (perShardDefinition(*L.Defs[I]))
      continue;
    if (!C) {
      if (L.Defs[I]->hasLinkOnceLinkage() && isa<GlobalObject>(L.Defs[I]) &&
          !isa<GlobalIFunc>(L.Defs[I])) {
        L.Unit[I] = int32_t(L.UnitMembers.size());
        L.UnitMembers.push_back({I});
        Copyable.push_back(true);
      }
      continue;
    }
    auto [It, New] = UnitOf.try_emplace(C, int32_t(L.UnitMembers.size()));
    if (New) {
      L.UnitMembers.emplace_back();
      Copyable.push_back(C->getSelectionKind() == Comdat::Any);
    }
    L.Unit[I] = It->second;
    L.UnitMembers[It->second].push_back(I);
    const GlobalValue &GV = *L.Defs[I];
    if (!GV.hasLinkOnceLinkage() && !GV.hasLocalLinkage())
      Copyable[It->second] = false;
  }
  assert(Copyable.size() == L.UnitMembers.size() && "one verdict per group");
  return Copyable;
}

/// Copy units: the discardable groups that are small. Copying every template a C++
/// shard touches would multiply the work (rustc's codegen units learnt this); larger
/// discardable groups stay with their owner, which keeps them alive for the other
/// shards (keepAlive), and are imported.
void formCopyUnits(Layout &L, const SplitLimits &Lim) {
  std::vector<bool> Copyable = groupComdats(L);
  L.UnitCost.assign(L.UnitMembers.size(), 0);
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (L.Unit[I] >= 0)
      L.UnitCost[L.Unit[I]] += L.Cost[I];
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (L.Unit[I] >= 0 && (!Copyable[L.Unit[I]] || L.UnitCost[L.Unit[I]] > Lim.DupCost))
      L.Unit[I] = -1;
  // A group of global functions that are not tiny is imported, not copied: a shard
  // inlines it just as well, and compiles no copy of what it leaves called (the owner
  // keeps that one).
  L.UnitImported.assign(L.UnitMembers.size(), 0);
  for (size_t U = 0; U < L.UnitMembers.size(); ++U)
    L.UnitImported[U] = Copyable[U] && L.UnitCost[U] <= Lim.DupCost &&
                        L.UnitCost[U] > Lim.TinyCost && Lim.ImportCost &&
                        llvm::all_of(L.UnitMembers[U], [&](uint32_t M) {
                          const auto *F = dyn_cast<Function>(L.Defs[M]);
                          return F && !F->hasLocalLinkage() && copyableBody(*F);
                        });
}

/// What each definition refers to and calls, and which bodies their owners may borrow.
void linkDefinitions(Layout &L, bool CopyBodies) {
  L.Refs.resize(L.Defs.size());
  L.Calls.resize(L.Defs.size());
  L.Movable.resize(L.Defs.size());
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    collectLinks(L, I);
    // Not a function whose blocks or whose references' blocks have their address taken:
    // a blockaddress names its function's own block, which a borrowed body would move.
    L.Movable[I] = MoveBodies && !CopyBodies && isa<Function>(L.Defs[I]) && !L.BlocksTaken[I] &&
                   llvm::none_of(L.Refs[I], [&](uint32_t R) { return L.BlocksTaken[R]; });
  }
}

/// Which functions a shard may import for a hot call (L.HotImport, markHotCalls): up to
/// hot-import-cost, outside the copy units, importable as any other.
void markHotImports(Layout &L, const SplitLimits &Lim) {
  L.HotImport.assign(L.Defs.size(), 0);
  for (const std::vector<uint32_t> &Callees : L.HotCalls)
    for (uint32_t R : Callees) {
      const auto *F = cast<Function>(L.Defs[R]);
      L.HotImport[R] =
          L.Unit[R] < 0 && importable(*F) && copyableBody(*F) && L.Cost[R] <= Lim.HotImportCost;
    }
  LLVM_DEBUG(dbgs() << "shard-split: " << llvm::count(L.HotImport, 1)
                    << " functions called hot may be imported\n");
}

/// The inline cost that a shard's declaration of each small function (inline size up to
/// decl-size) gives the calls to it: the price of the body the serial inliner would have put
/// there, three fifths of LLVM's cost for that many instructions, so that a function calling it
/// (an import, or one of the shard's own) weighs about what it weighs serially once the callee
/// is inlined into it, not the cost of a call. Not for what the serial inliner leaves called
/// (noinline, interposable, varargs, inline asm).
void markDeclCosts(Layout &L, const SplitLimits &Lim) {
  L.DeclCost.assign(L.Defs.size(), 0);
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const auto *F = dyn_cast<Function>(L.Defs[I]);
    if (F && Lim.DeclSize && L.Size[I] <= Lim.DeclSize && !F->isInterposable() &&
        copyableBody(*F))
      L.DeclCost[I] = 3 * L.Size[I] + 1;
  }
}

/// Which definitions outside the copy units a shard may copy privately or import.
void markCopiesAndImports(Layout &L, const SplitLimits &Lim, const StringSet<> &Pinned) {
  L.Dup.resize(L.Defs.size());
  L.Import.resize(L.Defs.size());
  L.Sinkable.resize(L.Defs.size());
  L.PerShard.resize(L.Defs.size());
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const GlobalValue &GV = *L.Defs[I];
    if (L.Unit[I] >= 0 || (GV.hasName() && Pinned.contains(GV.getName())))
      continue;
    L.PerShard[I] = perShardDefinition(GV);
    if (L.PerShard[I])
      continue;
    L.Dup[I] = dupEligible(GV, Lim);
    L.Import[I] = !L.Dup[I] && importEligible(L, I, Lim);
    const auto *F = dyn_cast<Function>(&GV);
    L.Sinkable[I] = F && copyableLocal(*F, Lim);
  }
}

} // namespace

void collectLinks(Layout &L, uint32_t I) {
  L.Refs[I].clear();
  L.Calls[I].clear();
  collectDefRefs(*L.Defs[I], L, L.Refs[I]);
  collectCallees(*L.Defs[I], L, L.Calls[I]);
}

Layout buildLayout(Module &M, const Plan &P, const SplitLimits &Lim, bool CopyBodies,
                   const StringSet<> &Pinned) {
  Layout L;
  indexDefinitions(M, P, L);
  formCopyUnits(L, Lim);
  linkDefinitions(L, CopyBodies);
  markCopiesAndImports(L, Lim, Pinned);
  markHotCalls(M, L, Lim);
  markHotImports(L, Lim);
  markDeclCosts(L, Lim);
  LLVM_DEBUG(dbgs() << "shard-split: " << L.Defs.size() << " definitions, "
                    << llvm::count_if(L.Unit, [](int32_t U) { return U >= 0; })
                    << " in copy units, " << llvm::count(L.Dup, 1) << " private-copy locals, "
                    << llvm::count(L.Import, 1) << " importable\n");
  return L;
}

std::vector<uint8_t> shareLocals(Layout &L, const SplitLimits &Lim, const StringSet<> &Pinned,
                                 const std::vector<uint8_t> &Promoted) {
  std::vector<uint8_t> Shared(L.Defs.size(), 0);
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const auto *F = dyn_cast<Function>(L.Defs[I]);
    // Called only directly: a function whose address is taken (an alias, a pointer) stays
    // with its owner, which keeps it anyway.
    if (!Promoted[I] || !F || !F->hasLocalLinkage() || F->hasAddressTaken() || L.Dup[I] ||
        L.Unit[I] >= 0 || L.PerShard[I] || L.BlocksTaken[I] || Pinned.contains(F->getName()) ||
        !importable(*F) || !importableFunction(*F, L.Cost[I], L.Size[I], Lim.ImportCost, Lim))
      continue;
    Shared[I] = 1;
    L.Import[I] = 1;
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << llvm::count(Shared, 1)
                    << " promoted locals may be imported at import-cost\n");
  return Shared;
}

void addDefinitions(Layout &L, ArrayRef<GlobalObject *> New, const SplitLimits &Lim) {
  uint32_t First = L.Defs.size();
  unsigned Pos = L.SourcePos.size(); // after every global value the module had
  for (GlobalObject *GO : New) {
    assert(GO->hasLocalLinkage() && !GO->isDeclaration() && !L.Index.count(GO) &&
           "a new local definition");
    L.SourcePos[GO] = Pos++;
    L.Index[GO] = L.Defs.size();
    L.Defs.push_back(GO);
    L.Owner.push_back(0); // placeAdded's
    L.Cost.push_back(getGlobalCost(*GO));
    const auto *F = dyn_cast<Function>(GO);
    L.Size.push_back(F ? inlineSize(*F) : 0);
    L.BlocksTaken.push_back(
        F && llvm::any_of(*F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); }));
    L.Exact.push_back(1);   // a local
    L.Movable.push_back(0); // copied into its shard, never borrowed
    L.Unit.push_back(-1);
    L.Dup.push_back(dupEligible(*GO, Lim));
    L.Import.push_back(!L.Dup.back() && importEligible(L, L.Defs.size() - 1, Lim));
    L.HotCalls.emplace_back();
    L.HotImport.push_back(0);
    L.Sinkable.push_back(0);
    L.PerShard.push_back(0);
    L.DeclCost.push_back(0); // a local: declared nowhere
  }
  L.Refs.resize(L.Defs.size());
  L.Calls.resize(L.Defs.size());
  for (uint32_t I = First; I < L.Defs.size(); ++I)
    collectLinks(L, I);
}

} // namespace split
} // namespace shard
