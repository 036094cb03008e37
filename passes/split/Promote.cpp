//===- Promote.cpp - Names, promotion and linkage across shards -----------===//
//
// A local that another shard declares or imports becomes a hidden global under
// a name unique to this translation unit; the manifest lists it so that the
// driver can make it local again after linking. A linkonce_odr group that other
// shards import becomes a linkonce_odr copy in each of them (copyOdrGroups); a
// linkonce definition another shard still needs is made weak in its owner, whose
// optimiser would otherwise drop it. Private globals are first named after their
// referrers, so that the names (and the shards' bytes) do not depend on a
// module-wide counter. Locals the module only reads are first made constant, as
// GlobalOpt makes them in a serial build, so that no shard keeps loads of them.
//
//===----------------------------------------------------------------------===//
#include "split/Promote.h"
#include "ir/Plan.h"
#include "split/Layout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/GlobalStatus.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#define DEBUG_TYPE "shard-split"

using namespace llvm;

namespace shard {
namespace split {

namespace {

/// A name suffix for promoted locals: a hash of the source file name only, so that
/// an edit elsewhere in the module renames nothing (the driver makes the symbols local
/// again, so they cannot clash with other units' symbols in its output).
std::string unitSuffix(const Module &M) {
  return ".shard." + utohexstr(xxh3_64bits(M.getSourceFileName()), /*LowerCase=*/true,
                               /*Width=*/16);
}

/// Name without the counter that the front end or LLVM appended: ".str.1207" gives ".str".
StringRef withoutCounter(StringRef Name) {
  StringRef Base = Name.rtrim("0123456789");
  if (Base.size() == Name.size() || !Base.consume_back("."))
    return Name;
  return Base;
}

} // namespace

unsigned markReadOnlyLocals(Module &M, const StringSet<> &Pinned) {
  unsigned Marked = 0;
  for (GlobalVariable &V : M.globals()) {
    if (!V.hasLocalLinkage() || V.isConstant() || !V.hasInitializer() || V.isThreadLocal() ||
        V.isExternallyInitialized() || V.getName().starts_with("llvm.") ||
        (V.hasName() && Pinned.contains(V.getName())))
      continue;
    GlobalStatus GS;
    if (GlobalStatus::analyzeGlobal(&V, GS) || GS.StoredType != GlobalStatus::NotStored ||
        GS.Ordering != AtomicOrdering::NotAtomic)
      continue; // the address escapes, a store writes it, or an atomic load reads it
    LLVM_DEBUG(dbgs() << "shard-split: read-only local " << V.getName() << " made constant\n");
    V.setConstant(true);
    ++Marked;
  }
  return Marked;
}

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
    std::string Name = (withoutCounter(GV.getName()) + "." + It->second).str();
    unsigned K = Count[Name]++;
    GV.setName(K ? Name + "." + std::to_string(K) : Name);
  }
}

void namePrivatesByReferrer(const Layout &L, uint32_t First) {
  std::vector<StringRef> Referrer(L.Defs.size() - First);
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    const GlobalValue &GV = *L.Defs[I];
    if (GV.hasPrivateLinkage() || !GV.hasName())
      continue;
    for (uint32_t R : L.Refs[I])
      if (R >= First && (Referrer[R - First].empty() || GV.getName() < Referrer[R - First]))
        Referrer[R - First] = GV.getName();
  }
  StringMap<unsigned> Count;
  for (uint32_t I = First; I < L.Defs.size(); ++I) {
    GlobalValue &GV = *L.Defs[I];
    if (!GV.hasPrivateLinkage() || Referrer[I - First].empty())
      continue;
    // Numbered per name, skipping the names taken: setName's module-wide counter would
    // number them by what came before.
    auto Taken = [&](const std::string &N) {
      const GlobalValue *E = GV.getParent()->getNamedValue(N);
      return E && E != &GV;
    };
    // Without every counter: a group's "str.7" may have become "str.7.12" in the module.
    StringRef Base = GV.getName();
    for (StringRef B; (B = withoutCounter(Base)) != Base;)
      Base = B;
    std::string Name = (Base + "." + Referrer[I - First]).str();
    unsigned &K = Count[Name];
    std::string Try = K ? Name + "." + std::to_string(K) : Name;
    while (Taken(Try))
      Try = Name + "." + std::to_string(++K);
    ++K;
    GV.setName(Try);
  }
}

std::vector<uint8_t> promotedDefinitions(const Layout &L, unsigned NumShards,
                                         const std::vector<std::vector<uint8_t>> &Placed) {
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
  return Promote;
}

std::vector<Promotion> promoteCrossShardLocals(Module &M, const Layout &L, unsigned NumShards,
                                               const StringSet<> &Pinned,
                                               std::vector<std::vector<uint8_t>> &Placed) {
  assert(Placed.size() == NumShards && "a placement per shard");
  std::vector<uint8_t> Promote = promotedDefinitions(L, NumShards, Placed);
  // A local promoted for one shard is one symbol everywhere: private copies of
  // it elsewhere become imports of that symbol.
  for (unsigned S = 0; S < NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Promote[I] && Placed[S][I] == Dup)
        Placed[S][I] = Import;
  std::vector<Promotion> Out;
  std::string Suffix;
  unsigned Unnamed = 0;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (!Promote[I])
      continue;
    if (Suffix.empty())
      Suffix = unitSuffix(M);
    GlobalValue *GV = L.Defs[I];
    std::string Old = GV->getName().str();
    bool Keep = !Old.empty() && Pinned.contains(Old);
    // Unnamed globals are numbered here: left to LLVM, the second and later ones became
    // "__shard.anon.shard.H.1", ".2", ..., the form of LLVM's own renaming, which IRMover
    // then confuses with it when linking the shards (llvm-link crashes on such modules).
    if (!Keep)
      GV->setName(Old.empty() ? "__shard.anon." + Twine(Unnamed++) + Suffix : Old + Suffix);
    assert(GV->hasName() && "a promoted global has a symbol name");
    Promotion P{GV->getName().str(), "-"};
    if (!Old.empty() && GV->hasInternalLinkage() && !Keep)
      P.OldName = Old; // private names never reach the symbol table: leave them
    // A common symbol cannot be made local again (objcopy leaves it global, where the
    // serial build's __unnamed_N is local): an unnamed one, which nothing outside the
    // unit can name, becomes a zero-filled definition.
    if (GV->hasLocalLinkage() || GV->hasCommonLinkage())
      GV->setLinkage(GlobalValue::ExternalLinkage);
    GV->setVisibility(GlobalValue::HiddenVisibility);
    GV->setDSOLocal(true);
    Out.push_back(std::move(P));
  }
  LLVM_DEBUG(dbgs() << "shard-split: promoted " << Out.size() << " globals\n");
  return Out;
}

namespace {

/// Whether comdat group U may be copied into other shards as separate translation units
/// would hold it: every member a linkonce_odr function with one owner, the comdat's
/// selection "any", no block address taken. Only linkonce_odr: every copy is the same
/// (ODR) and none need be kept, so the linker may keep any one, an address taken
/// included; a linkonce (not ODR) copy may differ from the one the linker keeps.
bool odrCopyable(const Layout &L, size_t U) {
  ArrayRef<uint32_t> Ms = L.UnitMembers[U];
  const Comdat *C = L.Defs[Ms[0]]->getComdat();
  if (!C || C->getSelectionKind() != Comdat::Any)
    return false;
  return llvm::all_of(Ms, [&](uint32_t M) {
    const auto *F = dyn_cast<Function>(L.Defs[M]);
    return F && F->hasLinkOnceODRLinkage() && F->getComdat() == C && !L.BlocksTaken[M] &&
           L.Owner[M] == L.Owner[Ms[0]];
  });
}

} // namespace

unsigned copyOdrGroups(const Layout &L, std::vector<std::vector<uint8_t>> &Placed,
                       std::vector<uint8_t> &Copied) {
  std::vector<uint8_t> Candidate(L.UnitMembers.size(), 0);
  for (size_t U = 0; U < L.UnitMembers.size(); ++U)
    Candidate[U] = odrCopyable(L, U);
  // Per group, the shards to copy it into: those that import a member. A shard that
  // refers to a member but imports none would need its owner to keep it: no copies.
  std::vector<std::vector<unsigned>> Into(L.UnitMembers.size());
  std::vector<uint8_t> Refd(L.Defs.size());
  for (unsigned S = 0; S < Placed.size(); ++S) {
    const std::vector<uint8_t> &P = Placed[S];
    std::fill(Refd.begin(), Refd.end(), 0);
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (P[I] != NotHere)
        for (uint32_t R : L.Refs[I])
          Refd[R] |= P[R] == NotHere;
    for (size_t U = 0; U < L.UnitMembers.size(); ++U) {
      ArrayRef<uint32_t> Ms = L.UnitMembers[U];
      if (!Candidate[U] || S == L.Owner[Ms[0]])
        continue;
      if (llvm::any_of(Ms, [&](uint32_t M) { return P[M] == Import; }))
        Into[U].push_back(S);
      else if (llvm::any_of(Ms, [&](uint32_t M) { return Refd[M]; }))
        Candidate[U] = 0;
    }
  }
  unsigned Copies = 0;
  for (size_t U = 0; U < L.UnitMembers.size(); ++U)
    for (unsigned S : Candidate[U] ? Into[U] : std::vector<unsigned>())
      for (uint32_t M : L.UnitMembers[U]) { // the whole group: the linker keeps one whole
        Placed[S][M] = Copy;
        Copied[M] = 1;
        ++Copies;
      }
  LLVM_DEBUG(dbgs() << "shard-split: " << Copies << " linkonce_odr copies for importers\n");
  return Copies;
}

unsigned copySharedLocals(Module &M, const Layout &L, const std::vector<uint8_t> &Shared,
                          std::vector<std::vector<uint8_t>> &Placed,
                          std::vector<Promotion> &Promoted) {
  StringMap<Promotion *> ByName;
  for (Promotion &P : Promoted)
    ByName[P.NewName] = &P;
  // Per function, whether every shard other than its owner that names it imports it (the
  // definitions presimplify added after shareLocals are none of them).
  std::vector<uint8_t> AllImport(Shared);
  AllImport.resize(L.Defs.size(), 0);
  for (unsigned S = 0; S < Placed.size(); ++S) {
    const std::vector<uint8_t> &P = Placed[S];
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (P[I] != NotHere)
        for (uint32_t R : L.Refs[I])
          if (AllImport[R] && L.Owner[R] != S && P[R] != Import)
            AllImport[R] = 0;
  }
  unsigned N = 0;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    auto *F = dyn_cast<Function>(L.Defs[I]);
    if (!AllImport[I] || !F || F->hasLocalLinkage()) // not promoted: nothing to share
      continue;
    for (unsigned S = 0; S < Placed.size(); ++S)
      if (Placed[S][I] == Import)
        Placed[S][I] = Copy;
    F->setLinkage(GlobalValue::LinkOnceODRLinkage);
    F->setComdat(M.getOrInsertComdat(F->getName()));
    auto It = ByName.find(F->getName());
    assert(It != ByName.end() && "a shared local is promoted");
    if (It != ByName.end())
      It->second->Grouped = true;
    ++N;
  }
  LLVM_DEBUG(dbgs() << "shard-split: " << N << " promoted locals shared as linkonce_odr\n");
  return N;
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

} // namespace split
} // namespace shard
