//===- ShardSplit.cpp - Write one module per shard -----------------------===//
//
// shard-split<dir=PATH> reads the plan of shard-partition and writes
// PATH/shard.K.bc for every shard K, plus PATH/manifest for the driver
// (docs/contract.md). Shard K keeps the definitions assigned to it, declares what
// it uses of the rest, and copies what its optimiser needs to make the code a
// serial build makes (placeShard): private copies of small locals, copies of
// small discardable comdat groups (as C++ compilers emit them in every unit), and
// available_externally imports of small functions and constants. A local that
// another shard declares or imports becomes a hidden global under a name unique
// to this translation unit; the manifest lists it so that the driver can make it
// local again after linking. A linkonce definition another shard needs is made
// weak in its owner, whose optimiser would otherwise drop it. A shard borrows the
// bodies of its own functions: they move into the shard module for its write and back
// after (copy-bodies copies them instead: the same bytes, more time).
//
//===----------------------------------------------------------------------===//
#include "split/ShardSplit.h"
#include "cost/ShardCost.h"
#include "ir/Plan.h"
#include "ir/Support.h"
#include "presimplify/Presimplify.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace shard {

namespace {

/// Dies with a message naming the pass; used for conditions opt cannot recover from.
[[noreturn]] void fail(const Twine &Msg) { shard::fatal("shard-split", Msg); }

/// Whether a shard may borrow its own functions' bodies from the source module rather than
/// copy them (copy-bodies turns it off). LLVM 19 copies: its functions carry one of two
/// debug-info formats, which moving blocks between functions would have to reconcile.
constexpr bool MoveBodies = LLVM_VERSION_MAJOR >= 20;

/// What the split knows about the module's definitions.
struct Layout {
  std::vector<GlobalValue *> Defs;               // in module order
  DenseMap<const GlobalValue *, uint32_t> Index; // Defs position
  std::vector<unsigned> Owner;                   // shard per definition
  std::vector<uint64_t> Cost;                    // predicted cost per definition
  std::vector<uint8_t> BlocksTaken;              // a function with a block whose address is taken
  std::vector<uint8_t> Movable;                  // a body its owner's shard may borrow (cloneShard)
  DenseMap<const GlobalValue *, unsigned> SourcePos; // module order, declarations too
  std::vector<const GlobalVariable *> Arrays;        // the per-shard arrays (ctors, used)
  std::vector<int32_t> Unit;                         // copy unit (comdat) or -1
  std::vector<std::vector<uint32_t>> UnitMembers;    // definitions per copy unit
  std::vector<uint64_t> UnitCost;                    // cost per copy unit
  std::vector<uint8_t> UnitImported;                 // a unit other shards import rather than copy
  std::vector<std::vector<uint32_t>> Refs;           // definitions each one refers to
  std::vector<std::vector<uint32_t>> Calls;          // functions each one calls directly
  std::vector<uint8_t> Dup;                          // a small local a shard may copy privately
  std::vector<uint8_t> Import; // a definition a shard may import as available_externally
};

/// How a shard holds a definition.
enum Place : uint8_t {
  NotHere = 0,
  Own = 1,    // assigned to this shard
  Copy = 2,   // copy of a discardable comdat group
  Dup = 3,    // private copy of a small local (internal, as in the input)
  Import = 4, // available_externally copy, for inlining and constant folding
};

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

/// Names that must survive promotion: locals named by module asm or kept by llvm.used.
StringSet<> pinnedNames(const Module &M) {
  StringSet<> Pinned;
  SmallVector<GlobalValue *, 16> Used;
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/true);
  for (GlobalValue *GV : Used)
    if (GV->hasName())
      Pinned.insert(GV->getName());
  StringRef Asm = M.getModuleInlineAsm();
  for (const GlobalValue &GV : M.global_values())
    if (GV.hasLocalLinkage() && GV.hasName() && Asm.contains(GV.getName()))
      Pinned.insert(GV.getName());
  return Pinned;
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

/// Size in bytes of a constant variable worth copying, or false.
bool smallConstant(const GlobalVariable &V, const SplitLimits &Lim) {
  // A copy of a table of block addresses in another shard would name a function
  // body that shard does not have: CloneModule crashed (LLVM 22) or wrote bitcode
  // that cannot be read back (LLVM 19). Such tables stay with their function.
  return V.isConstant() && V.hasInitializer() && !V.isThreadLocal() && !V.hasSection() &&
         V.getParent()->getDataLayout().getTypeAllocSize(V.getValueType()) <= Lim.ConstBytes &&
         !hasBlockAddress(V.getInitializer());
}

/// A local that each shard using it may copy privately: a small function called
/// only directly (its address is never compared), or a small constant whose address
/// does not matter (unnamed_addr).
bool dupEligible(const GlobalValue &GV, const SplitLimits &Lim) {
  if (!GV.hasLocalLinkage())
    return false;
  if (const auto *F = dyn_cast<Function>(&GV))
    return getCost(*F) <= Lim.DupCost && !F->hasAddressTaken() && copyableBody(*F);
  if (const auto *V = dyn_cast<GlobalVariable>(&GV))
    return V->hasGlobalUnnamedAddr() && smallConstant(*V, Lim);
  return false;
}

/// A definition another shard may import as available_externally: a function
/// small enough to be inlined, or a constant whose loads can be folded.
bool importEligible(const GlobalValue &GV, const SplitLimits &Lim) {
  // ODR definitions may be imported from a comdat (the import itself has none);
  // others in a comdat could be replaced by another object's copy at link time.
  if (GV.isInterposable() || GV.hasAvailableExternallyLinkage() ||
      (GV.hasComdat() && !GV.hasLinkOnceODRLinkage() && !GV.hasWeakODRLinkage()))
    return false;
  if (const auto *F = dyn_cast<Function>(&GV)) {
    uint64_t Limit = Lim.ImportCost;
    if (F->hasFnAttribute(Attribute::InlineHint) || F->hasFnAttribute(Attribute::AlwaysInline))
      Limit *= 2;
    return getCost(*F) <= Limit && copyableBody(*F);
  }
  if (const auto *V = dyn_cast<GlobalVariable>(&GV))
    return smallConstant(*V, Lim);
  return false;
}

Layout buildLayout(Module &M, const Plan &P, const SplitLimits &Lim, bool CopyBodies,
                   const StringSet<> &Pinned) {
  Layout L;
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
      fail("no shard recorded for " + displayName(GV) + " (run shard-partition first)");
    L.Index[&GV] = L.Defs.size();
    L.Defs.push_back(&GV);
    L.Owner.push_back(*S);
    L.Cost.push_back(getGlobalCost(GV));
    const auto *F = dyn_cast<Function>(&GV);
    L.BlocksTaken.push_back(
        F && llvm::any_of(*F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); }));
  }
  // Copy units: comdats with selection "any" whose members may all be discarded
  // when unused (linkonce) or are private to the group (local), and that are small:
  // copying every template a C++ shard touches would multiply the work (rustc's
  // codegen units learnt this). Larger discardable groups stay with their owner,
  // which keeps them alive for the other shards (keepAlive), and are imported.
  DenseMap<const Comdat *, int32_t> UnitOf;
  std::vector<bool> Copyable;
  L.Unit.assign(L.Defs.size(), -1);
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const Comdat *C = comdatOf(*L.Defs[I]);
    if (!C) {
      // A linkonce object without a comdat is just as discardable: its owner's
      // opt -O2 drops it when unused there, leaving other shards' declarations
      // undefined. Copy it like a one-member group.
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
  L.Refs.resize(L.Defs.size());
  L.Calls.resize(L.Defs.size());
  L.Movable.resize(L.Defs.size());
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    collectDefRefs(*L.Defs[I], L, L.Refs[I]);
    collectCallees(*L.Defs[I], L, L.Calls[I]);
    // Not a function whose blocks or whose references' blocks have their address taken:
    // a blockaddress names its function's own block, which a borrowed body would move.
    L.Movable[I] = MoveBodies && !CopyBodies && isa<Function>(L.Defs[I]) && !L.BlocksTaken[I] &&
                   llvm::none_of(L.Refs[I], [&](uint32_t R) { return L.BlocksTaken[R]; });
  }
  L.Dup.resize(L.Defs.size());
  L.Import.resize(L.Defs.size());
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const GlobalValue &GV = *L.Defs[I];
    if (L.Unit[I] >= 0 || (GV.hasName() && Pinned.contains(GV.getName())))
      continue;
    L.Dup[I] = dupEligible(GV, Lim);
    L.Import[I] = !L.Dup[I] && importEligible(GV, Lim);
  }
  return L;
}

/// Marks in Placed how shard S holds each definition: its own, the comdat groups
/// and small locals they need (copies), and what it imports for inlining and
/// folding, up to Lim.Depth imports deep. Breadth-first by import depth, so each
/// definition gets the shallowest depth whatever the order of references. Tiny
/// definitions (cost up to Lim.TinyCost: the accessors and wrappers C++ libraries
/// nest many levels deep) and the input's own available_externally definitions (C++
/// extern templates such as std::string's members, which the serial build has every
/// one of) are followed at any depth, and a tiny function adds no depth: what a
/// wrapper refers to is copied or imported as if its caller referred to it.
void placeShard(const Layout &L, const SplitLimits &Lim, unsigned S, std::vector<uint8_t> &Placed) {
  Placed.assign(L.Defs.size(), NotHere);
  // Discardable groups reach one level deeper than imports: past that, their owner
  // keeps them alive (keepAlive) and a declaration does.
  const unsigned CopyDepth = Lim.Depth + 1;
  std::vector<std::vector<uint32_t>> Level(1);
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (L.Owner[I] == S) {
      Placed[I] = Own;
      Level[0].push_back(I);
    }
  auto Tiny = [&](uint32_t R) {
    return L.Unit[R] >= 0 ? L.UnitCost[L.Unit[R]] <= Lim.TinyCost : L.Cost[R] <= Lim.TinyCost;
  };
  for (unsigned D = 0; D < Level.size(); ++D) {
    for (size_t K = 0; K < Level[D].size(); ++K) { // grows while we walk it
      uint32_t I = Level[D][K];
      // A tiny function adds no depth: what a wrapper calls is as deep as the wrapper,
      // as the serial inliner sees it once the wrapper is inlined. (Not so for a constant:
      // the functions a vtable names are seldom inlined.)
      auto Next = [&](uint32_t R, Place P) {
        Placed[R] = P;
        unsigned To = isa<Function>(L.Defs[R]) && Tiny(R) ? D : D + 1;
        if (Level.size() <= To)
          Level.emplace_back();
        Level[To].push_back(R);
      };
      // A function whose address is only taken here (a callback, a table entry) is not
      // inlined: a copy or an import of it would be compiled for nothing.
      auto Called = [&](uint32_t R) {
        return !isa<Function>(L.Defs[R]) || llvm::binary_search(L.Calls[I], R);
      };
      for (uint32_t R : L.Refs[I]) {
        if (Placed[R] != NotHere)
          continue;
        if (L.Unit[R] >= 0) {
          if ((D < CopyDepth || Tiny(R)) && Called(R))
            for (uint32_t Member : L.UnitMembers[L.Unit[R]])
              if (Placed[Member] == NotHere)
                Next(Member, L.UnitImported[L.Unit[R]] ? Import : Copy);
        } else if (L.Dup[R]) {
          Placed[R] = Dup;
          Level[D].push_back(R);
        } else if (((Lim.ImportCost && L.Defs[R]->hasAvailableExternallyLinkage()) ||
                    (L.Import[R] && (D < Lim.Depth || Tiny(R)))) &&
                   Called(R)) {
          Next(R, Import);
        }
      }
    }
  }
}

/// A name suffix for promoted locals: a hash of the source file name only, so that
/// an edit elsewhere in the module renames nothing (the driver makes the symbols local
/// again, so they cannot clash with other units' symbols in its output).
std::string unitSuffix(const Module &M) {
  return ".shard." + utohexstr(xxh3_64bits(M.getSourceFileName()), /*LowerCase=*/true,
                               /*Width=*/16);
}

/// Names each private global after the global that refers to it (the least name
/// among its non-private referrers) instead of the front end's module-wide counter:
/// ".str.1207" becomes ".str.sqlite3VdbeExec.3". A string added to one function
/// then renames nothing in other functions, and the shards that do not hold that
/// function keep their bytes. Private names never reach the symbol table.
void namePrivatesByReferrer(Module &M, const StringSet<> &Pinned) {
  DenseMap<const GlobalValue *, StringRef> Referrer;
  for (const GlobalValue &GV : M.global_values()) {
    if (GV.isDeclaration() || GV.hasPrivateLinkage() || !GV.hasName())
      continue;
    forEachRef(GV, [&](const GlobalValue &R) {
      if (!R.hasPrivateLinkage())
        return;
      auto [It, New] = Referrer.try_emplace(&R, GV.getName());
      if (!New && GV.getName() < It->second)
        It->second = GV.getName();
    });
  }
  StringMap<unsigned> Count;
  for (GlobalValue &GV : M.global_values()) {
    auto It = Referrer.find(&GV);
    if (It == Referrer.end() || Pinned.contains(GV.getName()))
      continue;
    StringRef Base = GV.getName().rtrim("0123456789");
    if (Base.size() == GV.getName().size() || !Base.consume_back("."))
      Base = GV.getName();
    std::string Name = (Base + "." + It->second).str();
    unsigned K = Count[Name]++;
    GV.setName(K ? Name + "." + std::to_string(K) : Name);
  }
}

struct Promotion {
  std::string NewName, OldName; // OldName "-": keep NewName when localising
};

/// Makes every local that some shard refers to but does not hold a hidden global, and
/// names every unnamed global that is not local (hidden, keeping its linkage).
std::vector<Promotion> promoteCrossShardLocals(Module &M, const Layout &L, unsigned NumShards,
                                               const StringSet<> &Pinned,
                                               std::vector<std::vector<uint8_t>> &Placed) {
  std::vector<uint8_t> Promote(L.Defs.size(), 0);
  // The symbol of an unnamed global, __unnamed_N, is numbered per module: each shard
  // would number it differently, and two shards' __unnamed_1 would clash or bind to
  // each other. Like a local, it cannot be named from outside the unit.
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (!L.Defs[I]->hasName() && !L.Defs[I]->hasLocalLinkage() &&
        !L.Defs[I]->hasAvailableExternallyLinkage())
      Promote[I] = 1;
  for (unsigned S = 0; S < NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Placed[S][I] != NotHere)
        for (uint32_t R : L.Refs[I])
          if ((Placed[S][R] == NotHere || Placed[S][R] == Import) && L.Defs[R]->hasLocalLinkage())
            Promote[R] = 1;
  // A local promoted for one shard is one symbol everywhere: private copies of
  // it elsewhere become imports of that symbol.
  for (unsigned S = 0; S < NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Promote[I] && Placed[S][I] == Dup)
        Placed[S][I] = Import;
  std::vector<Promotion> Out;
  std::string Suffix;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (!Promote[I])
      continue;
    if (Suffix.empty())
      Suffix = unitSuffix(M);
    GlobalValue *GV = L.Defs[I];
    std::string Old = GV->getName().str();
    bool Keep = !Old.empty() && Pinned.contains(Old);
    if (!Keep)
      GV->setName(Old.empty() ? "__shard.anon" + Suffix : Old + Suffix);
    Promotion P{GV->getName().str(), "-"};
    if (!Old.empty() && GV->hasInternalLinkage() && !Keep)
      P.OldName = Old; // private names never reach the symbol table: leave them
    if (GV->hasLocalLinkage())
      GV->setLinkage(GlobalValue::ExternalLinkage);
    GV->setVisibility(GlobalValue::HiddenVisibility);
    GV->setDSOLocal(true);
    Out.push_back(std::move(P));
  }
  return Out;
}

/// Makes a discardable (linkonce) definition that another shard refers to without
/// holding it weak in its owner, where the optimiser would otherwise drop it once
/// unused there; the comdat, if any, still lets the linker keep one copy.
void keepAlive(const Layout &L, unsigned NumShards,
               const std::vector<std::vector<uint8_t>> &Placed) {
  std::vector<uint8_t> Needed(L.Defs.size(), 0);
  for (unsigned S = 0; S < NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Placed[S][I] != NotHere)
        for (uint32_t R : L.Refs[I])
          if (Placed[S][R] == NotHere || Placed[S][R] == Import)
            Needed[R] = 1;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    GlobalValue *GV = L.Defs[I];
    if (Needed[I] && GV->hasLinkOnceLinkage())
      GV->setLinkage(GV->hasLinkOnceODRLinkage() ? GlobalValue::WeakODRLinkage
                                                 : GlobalValue::WeakAnyLinkage);
  }
}

/// Keeps F's Key Instructions atom groups (LLVM 22) when F is cloned into a shard.
/// CloneFunctionInto would renumber them from a counter shared by the whole process,
/// so that a shard's bytes depended on what was cloned before it (the shards written
/// earlier, or by another part). A shard is a transplant, not a duplicate: the
/// groups need no new numbers.
void keepAtomGroups(const Function &F, ValueToValueMapTy &VMap) {
#if LLVM_VERSION_MAJOR >= 22
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const DILocation *DL = I.getDebugLoc().get())
        if (uint64_t G = DL->getAtomGroup())
          VMap.AtomMap.insert({{DL->getInlinedAt(), G}, G});
#endif
}

/// Creates in Dst the declarations of global values a shard refers to but does not
/// hold, on demand while its definitions are cloned: a shard declares only what it uses.
struct Declarer final : ValueMaterializer {
  Module &Dst;
  std::vector<std::pair<GlobalValue *, const GlobalValue *>> Made; // declaration, declared
  explicit Declarer(Module &Dst) : Dst(Dst) {}
  Value *materialize(Value *V) override {
    auto *GV = dyn_cast<GlobalValue>(V);
    if (!GV)
      return nullptr;
    GlobalValue *D;
    if (GV->getValueType()->isFunctionTy()) { // functions, and aliases/ifuncs of them
      auto *F =
          Function::Create(cast<FunctionType>(GV->getValueType()), GlobalValue::ExternalLinkage,
                           GV->getAddressSpace(), GV->getName(), &Dst);
      if (const auto *SF = dyn_cast<Function>(GV)) {
        F->copyAttributesFrom(SF);
        F->setPersonalityFn(nullptr); // these would point into the source module
        F->setPrefixData(nullptr);
        F->setPrologueData(nullptr);
      }
      D = F;
    } else {
      const auto *SV = dyn_cast<GlobalVariable>(GV);
      auto *NV = new GlobalVariable(Dst, GV->getValueType(), SV && SV->isConstant(),
                                    GlobalValue::ExternalLinkage, nullptr, GV->getName(), nullptr,
                                    GV->getThreadLocalMode(), GV->getAddressSpace());
      if (SV)
        NV->copyAttributesFrom(SV);
      D = NV;
    }
    D->setLinkage(GlobalValue::ExternalLinkage);
    D->setVisibility(GV->getVisibility());
    D->setDSOLocal(GV->isDSOLocal());
    D->setUnnamedAddr(GV->getUnnamedAddr());
    D->setDLLStorageClass(GV->getDLLStorageClass());
    Made.push_back({D, GV});
    return D;
  }
};

void copyComdat(GlobalObject &Dst, const GlobalObject &Src) {
  if (const Comdat *C = Src.getComdat()) {
    Comdat *DC = Dst.getParent()->getOrInsertComdat(C->getName());
    DC->setSelectionKind(C->getSelectionKind());
    Dst.setComdat(DC);
  }
}

/// Moves From's blocks to the end of To (in the same context) and remaps what they use
/// with VM (Mat makes what VM lacks); the locals VM does not name stay as they are.
void spliceBody(Function &To, Function &From, ValueToValueMapTy &VM,
                ValueMaterializer *Mat = nullptr) {
  To.splice(To.end(), &From);
  for (Instruction &I : instructions(To)) {
    RemapInstruction(&I, VM, RF_IgnoreMissingLocals, nullptr, Mat);
    RemapDbgRecordRange(To.getParent(), I.getDbgRecordRange(), VM, RF_IgnoreMissingLocals, nullptr,
                        Mat);
  }
}

/// Sets To's personality, prefix and prologue data to From's, mapped by Map.
void mapFunctionData(Function &To, const Function &From,
                     function_ref<Constant *(const Constant *)> Map) {
  To.setPersonalityFn(From.hasPersonalityFn() ? Map(From.getPersonalityFn()) : nullptr);
  To.setPrefixData(From.hasPrefixData() ? Map(From.getPrefixData()) : nullptr);
  To.setPrologueData(From.hasPrologueData() ? Map(From.getPrologueData()) : nullptr);
}

/// Adds to Rev the metadata map of VMap reversed: copies back to their originals.
void reverseMetadata(ValueToValueMapTy &VMap, ValueToValueMapTy &Rev) {
  for (auto &KV : VMap.MD())
    if (KV.second)
      Rev.MD()[KV.second.get()].reset(const_cast<Metadata *>(KV.first));
}

/// An empty module with M's identity and target, for a shard.
std::unique_ptr<Module> emptyLike(const Module &M) {
  auto New = std::make_unique<Module>(M.getModuleIdentifier(), M.getContext());
  New->setSourceFileName(M.getSourceFileName());
  New->setDataLayout(M.getDataLayout());
  New->setTargetTriple(M.getTargetTriple());
  return New;
}

/// Fills a shard module (Decl.Dst) with the definitions Held (layout indices, in module
/// order): bodies and initialisers, declaring what they refer to. Like CloneModule, but
/// without a declaration of every other global of the module, and without a walk over
/// the whole module for each shard. The bodies of the functions Move accepts are not
/// copied but moved from the source module (Moved lists them; moveBodiesBack returns them).
void cloneShard(const Layout &L, ArrayRef<uint32_t> Held, function_ref<bool(uint32_t)> Move,
                ValueToValueMapTy &VMap, Declarer &Decl,
                std::vector<std::pair<Function *, Function *>> &Moved) {
  Module &New = Decl.Dst;
  auto Map = [&](const Constant *C) { return MapValue(C, VMap, RF_None, nullptr, &Decl); };
  auto Each = [&](auto Fn) {
    for (uint32_t I : Held)
      Fn(I);
  };

  // Prototypes, variables first, in module order, so references between them resolve.
  Each([&](uint32_t I) {
    if (const auto *G = dyn_cast<GlobalVariable>(L.Defs[I])) {
      auto *NG =
          new GlobalVariable(New, G->getValueType(), G->isConstant(), G->getLinkage(), nullptr,
                             G->getName(), nullptr, G->getThreadLocalMode(), G->getAddressSpace());
      NG->copyAttributesFrom(G);
      VMap[G] = NG;
    }
  });
  Each([&](uint32_t I) {
    if (const auto *F = dyn_cast<Function>(L.Defs[I])) {
      Function *NF = Function::Create(F->getFunctionType(), F->getLinkage(), F->getAddressSpace(),
                                      F->getName(), &New);
      NF->copyAttributesFrom(F);
      VMap[F] = NF;
    }
  });
  Each([&](uint32_t I) {
    if (const auto *A = dyn_cast<GlobalAlias>(L.Defs[I])) {
      auto *NA = GlobalAlias::create(A->getValueType(), A->getAddressSpace(), A->getLinkage(),
                                     A->getName(), &New);
      NA->copyAttributesFrom(A);
      VMap[A] = NA;
    }
  });
  Each([&](uint32_t I) {
    if (const auto *IF = dyn_cast<GlobalIFunc>(L.Defs[I])) {
      auto *NI = GlobalIFunc::create(IF->getValueType(), IF->getAddressSpace(), IF->getLinkage(),
                                     IF->getName(), nullptr, &New);
      NI->copyAttributesFrom(IF);
      VMap[IF] = NI;
    }
  });

  // Bodies, then initialisers, aliasees and resolvers. Functions whose blocks have their
  // address taken go first, so that every blockaddress refers to a block already cloned
  // (the mapper cannot wait for a body cloned by a later call).
  auto MapAttachments = [&](GlobalObject &Dst, const GlobalObject &Src) {
    SmallVector<std::pair<unsigned, MDNode *>, 1> MDs;
    Src.getAllMetadata(MDs);
    for (auto &[Kind, MD] : MDs)
      Dst.addMetadata(Kind, *MapMetadata(MD, VMap, RF_None, nullptr, &Decl));
  };
  // A moved body is mapped as CloneFunctionInto maps a copy (the same flags, the function's
  // metadata first), so that the shard is the same bytes either way; only a moved body's
  // locals are not in the map.
  auto Body = [&](Function &F, bool Moving) {
    auto *NF = cast<Function>(VMap[&F]);
    auto DestArg = NF->arg_begin();
    for (const Argument &A : F.args()) {
      DestArg->setName(A.getName());
      VMap[&A] = &*DestArg++;
    }
    keepAtomGroups(F, VMap);
    if (Moving) {
      MapAttachments(*NF, F);
      spliceBody(*NF, F, VMap, &Decl);
      Moved.push_back({&F, NF});
    } else {
      SmallVector<ReturnInst *, 8> Returns;
      CloneFunctionInto(NF, &F, VMap, CloneFunctionChangeType::ClonedModule, Returns, "", nullptr,
                        nullptr, &Decl);
    }
    mapFunctionData(*NF, F, Map);
    copyComdat(*NF, F);
  };
  for (bool First : {true, false})
    Each([&](uint32_t I) {
      if (auto *F = dyn_cast<Function>(L.Defs[I]); F && bool(L.BlocksTaken[I]) == First)
        Body(*F, Move(I));
    });
  Each([&](uint32_t I) {
    const auto *G = dyn_cast<GlobalVariable>(L.Defs[I]);
    if (!G)
      return;
    auto *NG = cast<GlobalVariable>(VMap[G]);
    MapAttachments(*NG, *G);
    NG->setInitializer(Map(G->getInitializer()));
    copyComdat(*NG, *G);
  });
  Each([&](uint32_t I) {
    if (const auto *A = dyn_cast<GlobalAlias>(L.Defs[I]))
      cast<GlobalAlias>(VMap[A])->setAliasee(Map(A->getAliasee()));
    else if (const auto *IF = dyn_cast<GlobalIFunc>(L.Defs[I]))
      cast<GlobalIFunc>(VMap[IF])->setResolver(Map(IF->getResolver()));
  });
}

/// Returns the bodies cloneShard moved into a shard to their functions in the source
/// module, mapping back what it mapped (VMap, which also holds the declarations made on
/// demand): the shard's globals, constants and arguments to the source's, and its copies
/// of metadata to the originals. The source is then as it was.
void moveBodiesBack(ArrayRef<std::pair<Function *, Function *>> Moved, ValueToValueMapTy &VMap) {
  if (Moved.empty())
    return;
  ValueToValueMapTy Rev;
  for (auto KV : VMap)
    if (!isa<Instruction>(KV.first) && !isa<BasicBlock>(KV.first) && KV.second)
      Rev[KV.second] = const_cast<Value *>(KV.first);
  reverseMetadata(VMap, Rev);
  for (auto [F, NF] : Moved)
    spliceBody(*F, *NF, Rev);
}

/// Gives back to the source module what a pass created in the closure module: a
/// declaration of the same name (intrinsics, library functions), or a copy of a new
/// variable (a constant).
struct Returner final : ValueMaterializer {
  Module &M;
  std::vector<std::pair<GlobalVariable *, const GlobalVariable *>> Vars; // copy, original
  explicit Returner(Module &M) : M(M) {}
  Value *materialize(Value *V) override {
    auto *GV = dyn_cast<GlobalValue>(V);
    if (!GV)
      return nullptr;
    if (auto *F = dyn_cast<Function>(GV)) {
      if (!F->isDeclaration())
        fail("presimplify made a new function " + displayName(*F));
      if (Function *E = M.getFunction(F->getName());
          E && E->getFunctionType() == F->getFunctionType())
        return E;
      Function *D = Function::Create(F->getFunctionType(), F->getLinkage(), F->getAddressSpace(),
                                     F->getName(), &M);
      D->copyAttributesFrom(F);
      return D;
    }
    auto *SV = dyn_cast<GlobalVariable>(GV);
    if (!SV || !SV->hasLocalLinkage())
      fail("presimplify made a new global " + displayName(*GV));
    auto *NV =
        new GlobalVariable(M, SV->getValueType(), SV->isConstant(), SV->getLinkage(), nullptr,
                           SV->getName(), nullptr, SV->getThreadLocalMode(), SV->getAddressSpace());
    NV->copyAttributesFrom(SV);
    Vars.push_back({NV, SV});
    return NV;
  }
};

/// Gives F the body CF (in another module of the same context) and CF's attributes,
/// marked presimplified, mapping with Rev what CF refers to back to the source module
/// (Ret makes what a pass created there); then collects again what F refers to.
void graftBody(Function &F, Function &CF, ValueToValueMapTy &Rev, Returner &Ret, Layout &L,
               uint32_t I) {
  const RemapFlags Flags = RF_IgnoreMissingLocals;
  auto Map = [&](const Constant *V) { return MapValue(V, Rev, Flags, nullptr, &Ret); };
  F.dropAllReferences(); // the body, personality and attachments; not the linkage
  F.setAttributes(CF.getAttributes());
  F.addFnAttr(PresimplifiedAttr);
  SmallVector<std::pair<unsigned, MDNode *>, 1> MDs;
  CF.getAllMetadata(MDs);
  for (auto &[Kind, MD] : MDs)
    F.addMetadata(Kind, *MapMetadata(MD, Rev, Flags, nullptr, &Ret));
  for (auto [A, CA] : zip(F.args(), CF.args()))
    Rev[&CA] = &A;
  spliceBody(F, CF, Rev, &Ret);
  mapFunctionData(F, CF, Map);
  L.Refs[I].clear();
  L.Calls[I].clear();
  collectDefRefs(F, L, L.Refs[I]);
  collectCallees(F, L, L.Calls[I]);
}

/// Completes the variables Ret made: their initialisers, mapped like the bodies.
void finishReturned(Returner &Ret, ValueToValueMapTy &Rev) {
  for (size_t K = 0; K < Ret.Vars.size(); ++K) // grows while initialisers are mapped
    if (Ret.Vars[K].second->hasInitializer())
      Ret.Vars[K].first->setInitializer(MapValue(Ret.Vars[K].second->getInitializer(), Rev,
                                                 RF_IgnoreMissingLocals, nullptr, &Ret));
}

/// How many groups the closure is simplified in (presimplifyShared): a fixed function of
/// the closure's size, never of the threads that run them, so that the output is the same.
unsigned closureGroups(size_t Members) {
  return unsigned(std::clamp<size_t>(Members / 2048, 1, 8));
}

/// Simplifies once the functions that shards import or copy (Presimplify.cpp). They are
/// cloned, with the rest of what shards hold besides their own definitions (the small
/// locals they copy privately, the constants they import), into a closure module, where
/// the simplification pipeline of -O<Level> runs over them; the simplified bodies and the
/// attributes inferred for them then replace the originals, marked, for every shard that
/// holds them, the owner too. What they refer to is collected again, so that the locals
/// they now name are promoted like any other.
///
/// The closure is simplified in groups (closureGroups), on up to Opts.Threads threads, each
/// group in a context of its own: the functions of a range of the module (by cost) with
/// what they refer to in the closure, the rest only declared. A function's simplified body
/// depends on what it calls, which its group holds, and not on the threads. A module with
/// debug info is simplified in one group, in the module's own context (its debug metadata
/// would not survive the trip between contexts).
void presimplifyShared(Module &M, Layout &L, const std::vector<std::vector<uint8_t>> &Placed,
                       const SplitOptions &Opts) {
  enum : uint8_t { Out, Context, Simplified };
  std::vector<uint8_t> Role(L.Defs.size(), Out);
  for (const std::vector<uint8_t> &P : Placed)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (P[I] == Import || P[I] == Copy)
        Role[I] = isa<Function>(L.Defs[I]) && !L.BlocksTaken[I] ? Simplified : Context;
      else if (P[I] == Dup && Role[I] == Out)
        Role[I] = Context;
  std::vector<uint32_t> Held, Members;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (Role[I] != Out)
      Held.push_back(I);
    if (Role[I] == Simplified)
      Members.push_back(I);
  }
  if (Members.empty())
    return;

  // A closure module for the definitions Defs (layout indices, in module order), where
  // nothing is dropped, renamed or given a new signature: every definition is used. The
  // input is verified only after the split (ShardSplitPass::run): what the pipeline runs
  // on must be valid first.
  auto Closure = [&](ArrayRef<uint32_t> Defs, ValueToValueMapTy &VMap) {
    std::unique_ptr<Module> C = emptyLike(M);
    Declarer Decl(*C);
    std::vector<std::pair<Function *, Function *>> Moved;
    cloneShard(L, Defs, [](uint32_t) { return false; }, VMap, Decl, Moved);
    std::vector<GlobalValue *> Keep;
    for (uint32_t I : Defs)
      Keep.push_back(cast<GlobalValue>(VMap[L.Defs[I]]));
    appendToCompilerUsed(*C, Keep);
    bool BrokenDebugInfo = false;
    if (Opts.Verify && verifyModule(*C, &errs(), &BrokenDebugInfo))
      fail("input module '" + M.getModuleIdentifier() + "' is broken");
    return C;
  };
  // The source globals of the closure's (the map follows replacements: a pass that
  // rewrites an argument's uses leaves it naming the new value; only globals still mapped
  // to globals count, with the declarations made on demand that no pass dropped).
  auto Back = [](ValueToValueMapTy &VMap, function_ref<void(GlobalValue &, GlobalValue &)> Fn) {
    for (auto KV : VMap)
      if (auto *GV = dyn_cast<GlobalValue>(KV.first))
        if (auto *CV = dyn_cast_or_null<GlobalValue>(static_cast<Value *>(KV.second)))
          Fn(*CV, *const_cast<GlobalValue *>(GV));
  };

  Returner Ret(M);
  if (!M.debug_compile_units().empty()) {
    ValueToValueMapTy VMap;
    std::unique_ptr<Module> C = Closure(Held, VMap);
    simplifyClosure(*C, Opts.Presimplify);
    ValueToValueMapTy Rev;
    Back(VMap, [&](GlobalValue &CV, GlobalValue &GV) { Rev[&CV] = &GV; });
    reverseMetadata(VMap, Rev);
    for (uint32_t I : Members)
      graftBody(*cast<Function>(L.Defs[I]), *cast<Function>(VMap[L.Defs[I]]), Rev, Ret, L, I);
    finishReturned(Ret, Rev);
    return;
  }

  // Groups: ranges of the members of about the same cost, each with what it refers to in
  // the closure (transitively), in module order.
  unsigned G = closureGroups(Members.size());
  uint64_t Total = 0, Sum = 0;
  for (uint32_t I : Members)
    Total += L.Cost[I] + 1;
  std::vector<std::vector<uint32_t>> GroupMembers(G), GroupDefs(G);
  for (uint32_t I : Members) {
    GroupMembers[std::min<uint64_t>(G - 1, Sum * G / Total)].push_back(I);
    Sum += L.Cost[I] + 1;
  }
  std::vector<uint8_t> Seen(L.Defs.size());
  for (unsigned Gr = 0; Gr < G; ++Gr) {
    std::fill(Seen.begin(), Seen.end(), 0);
    std::vector<uint32_t> Work = GroupMembers[Gr];
    for (uint32_t I : Work)
      Seen[I] = 1;
    while (!Work.empty()) {
      uint32_t I = Work.back();
      Work.pop_back();
      GroupDefs[Gr].push_back(I);
      for (uint32_t R : L.Refs[I])
        if (Role[R] != Out && !Seen[R]) {
          Seen[R] = 1;
          Work.push_back(R);
        }
    }
    llvm::sort(GroupDefs[Gr]);
  }
  // Each group's closure module as bitcode, every global named (unnamed ones get a name),
  // and the source global of each name.
  std::vector<SmallVector<char, 0>> Bitcode(G);
  std::vector<StringMap<GlobalValue *>> Orig(G);
  std::vector<std::vector<std::string>> MemberNames(G);
  for (unsigned Gr = 0; Gr < G; ++Gr) {
    ValueToValueMapTy VMap;
    std::unique_ptr<Module> C = Closure(GroupDefs[Gr], VMap);
    for (GlobalValue &GV : C->global_values())
      if (!GV.hasName())
        GV.setName("shard.unnamed");
    Back(VMap, [&](GlobalValue &CV, GlobalValue &GV) { Orig[Gr][CV.getName()] = &GV; });
    for (uint32_t I : GroupMembers[Gr])
      MemberNames[Gr].push_back(VMap[L.Defs[I]]->getName().str());
    raw_svector_ostream OS(Bitcode[Gr]);
    WriteBitcodeToFile(*C, OS);
  }

  // Each group in a context of its own, on up to Opts.Threads threads: read, simplified,
  // written back with only its members' bodies.
  std::vector<std::string> Error(G);
  std::atomic<unsigned> Next{0};
  auto Worker = [&] {
    for (unsigned Gr; (Gr = Next++) < G;) {
      LLVMContext Ctx;
      Expected<std::unique_ptr<Module>> Mod = parseBitcodeFile(
          MemoryBufferRef(StringRef(Bitcode[Gr].data(), Bitcode[Gr].size()), "closure"), Ctx);
      if (!Mod) {
        Error[Gr] = toString(Mod.takeError());
        continue;
      }
      simplifyClosure(**Mod, Opts.Presimplify);
      StringSet<> Keep;
      for (const std::string &N : MemberNames[Gr])
        Keep.insert(N);
      for (Function &F : **Mod)
        if (!F.isDeclaration() && !Keep.contains(F.getName())) {
          F.deleteBody();
          F.setComdat(nullptr);
        }
      Bitcode[Gr].clear();
      raw_svector_ostream OS(Bitcode[Gr]);
      WriteBitcodeToFile(**Mod, OS);
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < std::min(Opts.Threads, G); ++T)
    Pool.emplace_back(Worker);
  Worker();
  for (std::thread &T : Pool)
    T.join();

  // Back in the source module's context, group by group: the members' bodies replace the
  // originals; what they refer to is found by name.
  for (unsigned Gr = 0; Gr < G; ++Gr) {
    if (!Error[Gr].empty())
      fail("presimplify: cannot read a closure module back: " + Error[Gr]);
    Expected<std::unique_ptr<Module>> R = parseBitcodeFile(
        MemoryBufferRef(StringRef(Bitcode[Gr].data(), Bitcode[Gr].size()), "simplified"),
        M.getContext());
    if (!R)
      fail("presimplify: cannot read a simplified closure module: " + toString(R.takeError()));
    ValueToValueMapTy Rev;
    for (GlobalValue &GV : (*R)->global_values())
      if (auto It = Orig[Gr].find(GV.getName()); It != Orig[Gr].end())
        Rev[&GV] = It->second;
    for (size_t K = 0; K < GroupMembers[Gr].size(); ++K) {
      uint32_t I = GroupMembers[Gr][K];
      graftBody(*cast<Function>(L.Defs[I]), *(*R)->getFunction(MemberNames[Gr][K]), Rev, Ret, L, I);
    }
    finishReturned(Ret, Rev);
  }
}

/// Puts the shard's functions and variables in the source module's order (declarations
/// were made in order of first use), so that shards read like the input.
void sortLikeSource(Module &Shard, const Layout &L, ArrayRef<uint32_t> Held,
                    const ValueToValueMapTy &VMap, const Declarer &Decl) {
  DenseMap<const GlobalValue *, unsigned> Pos;
  for (uint32_t I : Held)
    Pos[cast<GlobalValue>(VMap.lookup(L.Defs[I]))] = L.SourcePos.lookup(L.Defs[I]);
  for (auto [D, Src] : Decl.Made)
    Pos[D] = L.SourcePos.lookup(Src);
  for (const GlobalVariable *A : L.Arrays) // rebuilt, not mapped: find it by name
    if (const GlobalValue *V = Shard.getNamedValue(A->getName()))
      Pos[V] = L.SourcePos.lookup(A);
  auto Key = [&](const GlobalValue &GV) {
    auto It = Pos.find(&GV);
    return It == Pos.end() ? ~0u : It->second;
  };
  Shard.getFunctionList().sort(
      [&](const Function &A, const Function &B) { return Key(A) < Key(B); });
  std::vector<GlobalVariable *> Vars;
  for (GlobalVariable &V : Shard.globals())
    Vars.push_back(&V);
  llvm::stable_sort(Vars, [&](GlobalVariable *A, GlobalVariable *B) { return Key(*A) < Key(*B); });
  for (GlobalVariable *V : Vars) {
    Shard.removeGlobalVariable(V);
    Shard.insertGlobalVariable(V);
  }
}

/// Clones into the shard (Decl.Dst) the entries of a per-shard array (ctors, dtors,
/// used) that Keep accepts; entries are judged on the source module's values.
void cloneArray(const Module &M, StringRef Name, function_ref<bool(const Constant *)> Keep,
                ValueToValueMapTy &VMap, Declarer &Decl) {
  const GlobalVariable *GV = M.getGlobalVariable(Name);
  if (!GV || !GV->hasInitializer())
    return;
  const auto *Init = dyn_cast<ConstantArray>(GV->getInitializer());
  if (!Init) // zeroinitializer or empty
    return;
  SmallVector<Constant *, 16> Kept;
  for (const Use &U : Init->operands())
    if (Keep(cast<Constant>(U.get())))
      Kept.push_back(cast<Constant>(U.get()));
  if (Kept.empty())
    return;
  auto *Ty = ArrayType::get(Init->getType()->getElementType(), Kept.size());
  auto *New = new GlobalVariable(Decl.Dst, Ty, GV->isConstant(), GV->getLinkage(), nullptr,
                                 GV->getName(), nullptr, GV->getThreadLocalMode());
  New->copyAttributesFrom(GV);
  New->setInitializer(MapValue(ConstantArray::get(Ty, Kept), VMap, RF_None, nullptr, &Decl));
}

/// Maps the module's named metadata into the shard (compile units, flags, idents).
void cloneNamedMetadata(const Module &M, ValueToValueMapTy &VMap, Declarer &Decl) {
  Module &Shard = Decl.Dst;
  for (const NamedMDNode &NMD : M.named_metadata()) {
    if (NMD.getName() == PlanMD || NMD.getName() == TotalCostMD)
      continue;
    NamedMDNode *New = Shard.getOrInsertNamedMetadata(NMD.getName());
    for (const MDNode *Op : NMD.operands())
      New->addOperand(MapMetadata(Op, VMap, RF_None, nullptr, &Decl));
  }
}

/// Removes the metadata shard-cost and shard-partition attached to definitions (the
/// named plan is never cloned): shard modules should not change when only the plan does.
void stripShardMetadata(Module &Shard) {
  LLVMContext &Ctx = Shard.getContext();
  unsigned Kinds[] = {Ctx.getMDKindID(CostMD), Ctx.getMDKindID(ShardMD)};
  for (GlobalObject &GO : Shard.global_objects())
    for (unsigned K : Kinds)
      GO.setMetadata(K, nullptr);
}

/// Keeps in each compile unit's global list only the variables this shard defines
/// (and, in the asm shard, those attached to no variable of the module at all), and
/// drops !dbg from imported variables: only the owner describes a variable.
void pruneDebugGlobals(Module &Shard, const Module &M, ValueToValueMapTy &VMap, bool KeepOrphans) {
  NamedMDNode *CUs = Shard.getNamedMetadata("llvm.dbg.cu");
  if (!CUs)
    return;
  SmallPtrSet<const Metadata *, 32> Defined, Attached;
  SmallVector<DIGlobalVariableExpression *, 1> GVEs;
  for (const GlobalVariable &V : M.globals()) {
    GVEs.clear();
    V.getDebugInfo(GVEs);
    for (DIGlobalVariableExpression *E : GVEs) { // as the shard sees it: mapped
      Attached.insert(E);
      if (auto Mapped = VMap.getMappedMD(E))
        Attached.insert(*Mapped);
    }
  }
  for (GlobalVariable &V : Shard.globals()) {
    if (V.isDeclaration() || V.hasAvailableExternallyLinkage()) {
      V.eraseMetadata(LLVMContext::MD_dbg);
      continue;
    }
    GVEs.clear();
    V.getDebugInfo(GVEs);
    Defined.insert(GVEs.begin(), GVEs.end());
  }
  for (MDNode *N : CUs->operands()) {
    auto *CU = dyn_cast<DICompileUnit>(N);
    if (!CU)
      continue;
    SmallVector<Metadata *, 32> Kept;
    auto All = CU->getGlobalVariables();
    for (DIGlobalVariableExpression *E : All)
      if (Defined.count(E) || (KeepOrphans && !Attached.count(E)))
        Kept.push_back(E);
    if (Kept.size() != All.size())
      CU->replaceGlobalVariables(MDTuple::get(Shard.getContext(), Kept));
  }
}

/// The part that writes shard S when Parts processes split a module. From 4 parts
/// on, part 0 only writes the manifest: it is the one that also verifies the input
/// (the driver has the others skip that), so the shards go to the rest.
unsigned writerOf(unsigned S, unsigned Parts) {
  return Parts < 4 ? S % Parts : 1 + S % (Parts - 1);
}

void writeFile(const std::string &Path, function_ref<void(raw_ostream &)> Write) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    fail("cannot write '" + Path + "': " + EC.message());
  Write(OS);
  OS.close();
  if (OS.has_error())
    fail("cannot write '" + Path + "': " + OS.error().message());
}

/// Writes shard S's module (the definitions Here places in it) to DIR/shard.S.bc.
void writeShard(const Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here, const std::string &Dir) {
  auto Holds = [&](const GlobalValue *GV) {
    auto It = L.Index.find(GV);
    return It != L.Index.end() && Here[It->second] != NotHere;
  };
  auto Owns = [&](const GlobalValue *GV) {
    auto It = L.Index.find(GV);
    return It != L.Index.end() && Here[It->second] == Own;
  };
  std::vector<uint32_t> Held;
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (Here[I] != NotHere)
      Held.push_back(I);
  // The map goes first: freed after it, the module's values no longer have handles to
  // update (on DuckDB, freeing the shards took half as long).
  std::unique_ptr<Module> Shard = emptyLike(M);
  ValueToValueMapTy VMap;
  Declarer Decl(*Shard);
  std::vector<std::pair<Function *, Function *>> Moved;
  cloneShard(
      L, Held, [&](uint32_t I) { return Here[I] == Own && L.Movable[I]; }, VMap, Decl, Moved);
  for (uint32_t I : Held)
    if (Here[I] == Import) {
      auto *GV = cast<GlobalValue>(VMap[L.Defs[I]]);
      GV->setLinkage(GlobalValue::AvailableExternallyLinkage);
      if (auto *GO = dyn_cast<GlobalObject>(GV))
        GO->setComdat(nullptr);
    }
  bool IsAsmShard = S == P.AsmShard;
  if (IsAsmShard)
    Shard->setModuleInlineAsm(M.getModuleInlineAsm());

  // Entries of ctors/dtors run once: in the owner of the function, or in every copy of a
  // comdat-keyed entry (the linker keeps one group). Entries naming something defined
  // nowhere stay in the asm shard. Entries are judged on the source module's values, so
  // unnamed functions are handled too, and by the layout: a body this shard borrowed has
  // left its function in the source for now.
  auto Orig = [](const Constant *C) { return dyn_cast<GlobalValue>(C->stripPointerCasts()); };
  auto Defined = [&](const GlobalValue *GV) { return GV && L.Index.count(GV); };
  auto KeepStructor = [&](const Constant *E) {
    auto *CS = dyn_cast<ConstantStruct>(E);
    const GlobalValue *Fn = CS && CS->getNumOperands() > 1 ? Orig(CS->getOperand(1)) : nullptr;
    const GlobalValue *Key = CS && CS->getNumOperands() > 2 ? Orig(CS->getOperand(2)) : nullptr;
    if (!Defined(Fn))
      return IsAsmShard;
    if (Owns(Fn))
      return true;
    return Holds(Fn) && Key && Key->hasComdat() && Holds(Key);
  };
  auto KeepUsed = [&](const Constant *E) {
    const GlobalValue *Src = Orig(E);
    if (!Defined(Src))
      return IsAsmShard;
    return Holds(Src);
  };
  cloneArray(M, "llvm.global_ctors", KeepStructor, VMap, Decl);
  cloneArray(M, "llvm.global_dtors", KeepStructor, VMap, Decl);
  cloneArray(M, "llvm.used", KeepUsed, VMap, Decl);
  cloneArray(M, "llvm.compiler.used", KeepUsed, VMap, Decl);
  cloneNamedMetadata(M, VMap, Decl);
  sortLikeSource(*Shard, L, Held, VMap, Decl);
  stripShardMetadata(*Shard);
  pruneDebugGlobals(*Shard, M, VMap, IsAsmShard);

  writeFile(Dir + "/shard." + std::to_string(S) + ".bc",
            [&](raw_ostream &OS) { WriteBitcodeToFile(*Shard, OS); });
  moveBodiesBack(Moved, VMap);
}

/// Writes DIR/manifest: the target, the relocation model, each shard's predicted work
/// and function count, and the promoted names (docs/contract.md).
void writeManifest(const Module &M, const std::string &Dir, ArrayRef<uint64_t> Work,
                   ArrayRef<unsigned> Functions, ArrayRef<Promotion> Promoted) {
  writeFile(Dir + "/manifest", [&](raw_ostream &OS) {
    OS << "shard-manifest 1\n";
    OS << "shards " << Work.size() << "\n";
    if (std::string T = Triple(M.getTargetTriple()).str(); !T.empty())
      OS << "triple " << T << "\n";
    OS << "reloc "
       << (M.getPICLevel() == PICLevel::NotPIC    ? "static"
           : M.getPIELevel() != PIELevel::Default ? "pie"
                                                  : "pic")
       << "\n";
    for (unsigned S = 0; S < Work.size(); ++S)
      OS << "shard " << S << " cost " << Work[S] << " functions " << Functions[S] << "\n";
    for (const Promotion &Pr : Promoted)
      OS << "promoted " << Pr.NewName << " " << Pr.OldName << "\n";
  });
}

/// Tells the driver on file descriptor FD (notify=FD; -1: nobody) that a file is complete:
/// one line, "manifest" or a shard number, written at once (shorter than PIPE_BUF).
void notify(int FD, const std::string &What) {
  if (FD < 0)
    return;
  std::string Line = What + "\n";
  if (::write(FD, Line.data(), Line.size()) != (ssize_t)Line.size())
    fail("cannot notify the driver on file descriptor " + std::to_string(FD) + ": " +
         sys::StrError());
}

} // namespace

PreservedAnalyses ShardSplitPass::run(Module &M, ModuleAnalysisManager &) {
  std::optional<Plan> P = readPlan(M);
  if (!P)
    fail("module has no shard plan (run shard-partition first)");
  if (!sys::fs::is_directory(Dir))
    fail("output directory '" + Dir + "' does not exist");
  namePrivatesByReferrer(M, pinnedNames(M));
  // Names pinned by llvm.used or module asm, once the privates have their new names.
  StringSet<> Pinned = pinnedNames(M);
  Layout L = buildLayout(M, *P, Opts.Limits, Opts.CopyBodies, Pinned);
  std::vector<std::vector<uint8_t>> Placed(P->NumShards);
  for (unsigned S = 0; S < P->NumShards; ++S)
    placeShard(L, Opts.Limits, S, Placed[S]);
  if (Opts.Presimplify)
    presimplifyShared(M, L, Placed, Opts);
  std::vector<Promotion> Promoted = promoteCrossShardLocals(M, L, P->NumShards, Pinned, Placed);
  keepAlive(L, P->NumShards, Placed);

  std::vector<unsigned> Functions(P->NumShards, 0);
  std::vector<uint64_t> Work(P->NumShards, 0); // predicted cost with copies and imports
  for (unsigned S = 0; S < P->NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I) {
      Functions[S] += Placed[S][I] == Own && isa<Function>(L.Defs[I]);
      // An import is simplified and inlined but never compiled to code: three quarters. A
      // copy of a discardable group (a tiny linkonce_odr wrapper, as every C++ unit has
      // them) is inlined and dropped: nothing. (Fitted to the job times of DuckDB's 32
      // shards, r = 0.61 -> 0.76, and sqlite3's 16, 0.89 -> 0.88, README "Measurements".)
      if (Placed[S][I] == Own || Placed[S][I] == Dup)
        Work[S] += L.Cost[I];
      else if (Placed[S][I] == Import)
        Work[S] += L.Cost[I] * 3 / 4;
    }

  // The manifest first, so that a driver may compile each shard as soon as it is written.
  if (Opts.Part == 0) {
    writeManifest(M, Dir, Work, Functions, Promoted);
    notify(Opts.NotifyFD, "manifest");
  }
  // With parts=P, P processes split one module in parallel, each having made the same
  // plan and decisions; this one writes its share of the shards, the largest first (the
  // driver starts the largest jobs first).
  std::vector<unsigned> Mine;
  for (unsigned S = 0; S < P->NumShards; ++S)
    if (writerOf(S, Opts.Parts) == Opts.Part)
      Mine.push_back(S);
  llvm::stable_sort(Mine, [&](unsigned A, unsigned B) { return Work[A] > Work[B]; });
  for (unsigned S : Mine) {
    writeShard(M, *P, L, S, Placed[S], Dir);
    notify(Opts.NotifyFD, std::to_string(S));
  }
  // verify: the driver runs opt with -disable-verify and has the input verified here, once
  // the files are written, so that the first jobs need not wait for it (they fail on a
  // broken shard too, but the driver reports this failure first).
  // Invalid debug info is no error (clang drops it from each shard, as opt would have).
  bool BrokenDebugInfo = false;
  if (Opts.Verify && verifyModule(M, &errs(), &BrokenDebugInfo))
    fail("input module '" + M.getModuleIdentifier() + "' is broken");
  if (BrokenDebugInfo)
    errs() << "warning: shard-split: ignoring invalid debug info in '" << M.getModuleIdentifier()
           << "'\n";
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
  OS << "shard-split<dir=" << Dir;
  if (Lim.ImportCost != D.Limits.ImportCost)
    OS << ";import-cost=" << Lim.ImportCost;
  if (Lim.DupCost != D.Limits.DupCost)
    OS << ";dup-cost=" << Lim.DupCost;
  if (Lim.Depth != D.Limits.Depth)
    OS << ";import-depth=" << Lim.Depth;
  if (Lim.TinyCost != D.Limits.TinyCost)
    OS << ";tiny-cost=" << Lim.TinyCost;
  if (Lim.ConstBytes != D.Limits.ConstBytes)
    OS << ";const-bytes=" << Lim.ConstBytes;
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
  if (Opts.Threads != D.Threads)
    OS << ";threads=" << Opts.Threads;
  OS << ">";
}

} // namespace shard
