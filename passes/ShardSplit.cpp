//===- ShardSplit.cpp - Write one module per shard -----------------------===//
//
// shard-split<dir=PATH> reads the plan of shard-partition and writes
// PATH/shard.K.bc for every shard K, plus PATH/manifest for the driver
// (docs/contract.md). Shard K keeps the definitions assigned to it and declares
// the rest. Discardable comdat groups (linkonce, selection "any") are copied
// into every shard that refers to them, as C++ compilers do across translation
// units, so no shard is left calling an inline function that its owner dropped.
// A local referenced from another shard becomes a hidden global under a name
// unique to this translation unit; the manifest lists it so that the driver can
// make it local again after linking.
//
//===----------------------------------------------------------------------===//
#include "Shard.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace shard {

namespace {

/// Dies with a message naming the pass; used for conditions opt cannot recover from.
[[noreturn]] void fail(const Twine &Msg) {
  report_fatal_error("shard-split: " + Msg, /*gen_crash_diag=*/false);
}

/// What the split knows about the module's definitions.
struct Layout {
  std::vector<GlobalValue *> Defs;                 // in module order
  DenseMap<const GlobalValue *, uint32_t> Index;   // Defs position
  std::vector<unsigned> Owner;                     // shard per definition
  std::vector<int32_t> Unit;                       // copy unit (comdat) or -1
  std::vector<std::vector<uint32_t>> UnitMembers;  // definitions per copy unit
  std::vector<std::vector<uint32_t>> Refs;         // definitions each one refers to
  std::vector<uint8_t> Dup;    // a small local a shard may copy privately
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
  if (GV.isInterposable() || GV.hasAvailableExternallyLinkage() || GV.hasComdat())
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

Layout buildLayout(Module &M, const Plan &P, const SplitLimits &Lim) {
  Layout L;
  for (GlobalValue &GV : M.global_values()) {
    if (GV.isDeclaration() || isPerShardArray(GV))
      continue;
    std::optional<unsigned> S = getShard(GV);
    if (!S || *S >= P.NumShards)
      fail("no shard recorded for " + displayName(GV) + " (run shard-partition first)");
    L.Index[&GV] = L.Defs.size();
    L.Defs.push_back(&GV);
    L.Owner.push_back(*S);
  }
  // Copy units: comdats with selection "any" whose members may all be discarded
  // when unused (linkonce) or are private to the group (local).
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
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (L.Unit[I] >= 0 && !Copyable[L.Unit[I]])
      L.Unit[I] = -1;
  L.Refs.resize(L.Defs.size());
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    collectDefRefs(*L.Defs[I], L, L.Refs[I]);
  StringSet<> Pinned = pinnedNames(M);
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
/// definition gets the shallowest depth whatever the order of references.
void placeShard(const Layout &L, const SplitLimits &Lim, unsigned S,
                std::vector<uint8_t> &Placed) {
  Placed.assign(L.Defs.size(), NotHere);
  std::vector<std::vector<uint32_t>> Level(Lim.Depth + 1);
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (L.Owner[I] == S) {
      Placed[I] = Own;
      Level[0].push_back(I);
    }
  for (unsigned D = 0; D <= Lim.Depth; ++D) {
    for (size_t K = 0; K < Level[D].size(); ++K) { // grows while we walk it
      uint32_t I = Level[D][K];
      for (uint32_t R : L.Refs[I]) {
        if (Placed[R] != NotHere)
          continue;
        if (L.Unit[R] >= 0) {
          for (uint32_t Member : L.UnitMembers[L.Unit[R]])
            if (Placed[Member] == NotHere) {
              Placed[Member] = Copy;
              Level[D].push_back(Member);
            }
        } else if (L.Dup[R]) {
          Placed[R] = Dup;
          Level[D].push_back(R);
        } else if (L.Import[R] && D < Lim.Depth) {
          Placed[R] = Import;
          Level[D + 1].push_back(R);
        }
      }
    }
  }
}

/// A name suffix that identifies this translation unit: a hash of the source file
/// name and of the names of the module's external definitions.
std::string unitSuffix(const Module &M) {
  MD5 Hash;
  Hash.update(M.getSourceFileName());
  for (const GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration() && !GV.hasLocalLinkage()) {
      Hash.update(StringRef("\0", 1));
      Hash.update(GV.getName());
    }
  MD5::MD5Result R;
  Hash.final(R);
  return ".shard." + utohexstr(R.low(), /*LowerCase=*/true, /*Width=*/16);
}

struct Promotion {
  std::string NewName, OldName; // OldName "-": keep NewName when localising
};

/// Makes every local that some shard refers to but does not hold a hidden global.
std::vector<Promotion> promoteCrossShardLocals(Module &M, const Layout &L, unsigned NumShards,
                                               std::vector<std::vector<uint8_t>> &Placed) {
  std::vector<uint8_t> Promote(L.Defs.size(), 0);
  for (unsigned S = 0; S < NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Placed[S][I] != NotHere)
        for (uint32_t R : L.Refs[I])
          if ((Placed[S][R] == NotHere || Placed[S][R] == Import) &&
              L.Defs[R]->hasLocalLinkage())
            Promote[R] = 1;
  // A local promoted for one shard is one symbol everywhere: private copies of
  // it elsewhere become imports of that symbol.
  for (unsigned S = 0; S < NumShards; ++S)
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Promote[I] && Placed[S][I] == Dup)
        Placed[S][I] = Import;
  std::vector<Promotion> Out;
  std::string Suffix;
  StringSet<> Pinned;
  for (uint32_t I = 0; I < L.Defs.size(); ++I) {
    if (!Promote[I])
      continue;
    if (Suffix.empty()) {
      Suffix = unitSuffix(M);
      Pinned = pinnedNames(M);
    }
    GlobalValue *GV = L.Defs[I];
    std::string Old = GV->getName().str();
    bool Keep = !Old.empty() && Pinned.contains(Old);
    if (!Keep)
      GV->setName(Old.empty() ? "__shard.anon" + Suffix : Old + Suffix);
    Promotion P{GV->getName().str(), "-"};
    if (!Old.empty() && GV->hasInternalLinkage() && !Keep)
      P.OldName = Old; // private names never reach the symbol table: leave them
    GV->setLinkage(GlobalValue::ExternalLinkage);
    GV->setVisibility(GlobalValue::HiddenVisibility);
    GV->setDSOLocal(true);
    Out.push_back(std::move(P));
  }
  return Out;
}

/// Keeps in a per-shard array (ctors, dtors, used) the entries shard S should emit.
void filterArray(Module &Shard, StringRef Name, function_ref<bool(const Constant *)> Keep) {
  GlobalVariable *GV = Shard.getGlobalVariable(Name);
  if (!GV || !GV->hasInitializer())
    return;
  auto *Init = dyn_cast<ConstantArray>(GV->getInitializer());
  if (!Init) // zeroinitializer or empty
    return;
  SmallVector<Constant *, 16> Kept;
  for (const Use &U : Init->operands())
    if (Keep(cast<Constant>(U.get())))
      Kept.push_back(cast<Constant>(U.get()));
  if (Kept.size() == Init->getNumOperands())
    return;
  if (Kept.empty()) {
    GV->eraseFromParent();
    return;
  }
  auto *Ty = ArrayType::get(Init->getType()->getElementType(), Kept.size());
  auto *New = new GlobalVariable(Shard, Ty, GV->isConstant(), GV->getLinkage(),
                                 ConstantArray::get(Ty, Kept), "", GV,
                                 GV->getThreadLocalMode());
  New->copyAttributesFrom(GV);
  New->takeName(GV);
  GV->eraseFromParent();
}

/// Removes the metadata shard-cost and shard-partition attached: shard modules
/// should not change when only the plan does.
void stripShardMetadata(Module &Shard) {
  LLVMContext &Ctx = Shard.getContext();
  unsigned Kinds[] = {Ctx.getMDKindID(CostMD), Ctx.getMDKindID(ShardMD)};
  for (GlobalObject &GO : Shard.global_objects())
    for (unsigned K : Kinds)
      GO.setMetadata(K, nullptr);
  for (const char *Name : {PlanMD, TotalCostMD})
    if (NamedMDNode *NMD = Shard.getNamedMetadata(Name))
      Shard.eraseNamedMetadata(NMD);
}

/// Keeps in each compile unit's global list only the variables this shard
/// defines (and, in the asm shard, those with no variable left at all).
void pruneDebugGlobals(Module &Shard, bool KeepOrphans) {
  NamedMDNode *CUs = Shard.getNamedMetadata("llvm.dbg.cu");
  if (!CUs)
    return;
  SmallPtrSet<const Metadata *, 32> Defined, Attached;
  for (GlobalVariable &V : Shard.globals()) {
    SmallVector<DIGlobalVariableExpression *, 1> GVEs;
    V.getDebugInfo(GVEs);
    bool Elsewhere = V.isDeclaration() || V.hasAvailableExternallyLinkage();
    for (DIGlobalVariableExpression *E : GVEs)
      (Elsewhere ? Attached : Defined).insert(E);
    if (Elsewhere)
      V.eraseMetadata(LLVMContext::MD_dbg);
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

/// Turns what CloneModule left of other shards' aliases and ifuncs into proper
/// declarations, and drops declarations nobody uses.
void fixDeclarations(Module &Shard, const Module &Src) {
  for (GlobalValue &GV : Shard.global_values()) {
    if (!GV.isDeclaration())
      continue;
    const GlobalValue *Orig = Src.getNamedValue(GV.getName());
    if (Orig && isa<GlobalAlias>(Orig)) {
      GV.setVisibility(Orig->getVisibility());
      GV.setDSOLocal(Orig->isDSOLocal());
      GV.setUnnamedAddr(Orig->getUnnamedAddr());
    }
  }
  for (GlobalIFunc &GI : llvm::make_early_inc_range(Shard.ifuncs())) {
    if (GI.getResolverFunction() && !GI.getResolverFunction()->isDeclaration())
      continue;
    Function *Decl = Function::Create(cast<FunctionType>(GI.getValueType()),
                                      GlobalValue::ExternalLinkage, GI.getAddressSpace(),
                                      "", &Shard);
    Decl->setVisibility(GI.getVisibility());
    Decl->setDSOLocal(GI.isDSOLocal());
    Decl->takeName(&GI);
    GI.replaceAllUsesWith(Decl);
    GI.eraseFromParent();
  }
  // filterArray leaves the old ctors/dtors/used initialisers behind as dead
  // constants that still "use" the entries it dropped; without removing them a
  // local of another shard named only there (e.g. in llvm.used) would survive
  // as a stray `external` declaration under its unpromoted name.
  for (Function &F : llvm::make_early_inc_range(Shard.functions())) {
    if (!F.isDeclaration() || F.isIntrinsic())
      continue;
    F.removeDeadConstantUsers();
    if (F.use_empty())
      F.eraseFromParent();
  }
  for (GlobalVariable &V : llvm::make_early_inc_range(Shard.globals())) {
    if (!V.isDeclaration())
      continue;
    V.removeDeadConstantUsers();
    if (V.use_empty())
      V.eraseFromParent();
  }
}

/// Target CPU and features most functions use (the first defined one's).
std::pair<std::string, std::string> moduleTarget(const Module &M) {
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute("target-cpu"))
      return {F.getFnAttribute("target-cpu").getValueAsString().str(),
              F.getFnAttribute("target-features").getValueAsString().str()};
  return {};
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

} // namespace

PreservedAnalyses ShardSplitPass::run(Module &M, ModuleAnalysisManager &) {
  std::optional<Plan> P = readPlan(M);
  if (!P)
    fail("module has no shard plan (run shard-partition first)");
  if (!sys::fs::is_directory(Dir))
    fail("output directory '" + Dir + "' does not exist");
  Layout L = buildLayout(M, *P, Limits);
  std::vector<std::vector<uint8_t>> Placed(P->NumShards);
  for (unsigned S = 0; S < P->NumShards; ++S)
    placeShard(L, Limits, S, Placed[S]);
  std::vector<Promotion> Promoted = promoteCrossShardLocals(M, L, P->NumShards, Placed);

  std::vector<unsigned> Functions(P->NumShards, 0);
  std::vector<uint64_t> Work(P->NumShards, 0); // predicted cost with copies and imports
  for (unsigned S = 0; S < P->NumShards; ++S) {
    const std::vector<uint8_t> &Here = Placed[S];
    auto Holds = [&](const GlobalValue *GV) {
      auto It = L.Index.find(GV);
      return It != L.Index.end() && Here[It->second] != NotHere;
    };
    auto Owns = [&](const GlobalValue *GV) {
      auto It = L.Index.find(GV);
      return It != L.Index.end() && Here[It->second] == Own;
    };
    for (uint32_t I = 0; I < L.Defs.size(); ++I) {
      Functions[S] += Here[I] == Own && isa<Function>(L.Defs[I]);
      // An import is simplified and inlined but never compiled to code: half a copy.
      if (Here[I] != NotHere)
        Work[S] += getGlobalCost(*L.Defs[I]) / (Here[I] == Import ? 2 : 1);
    }

    ValueToValueMapTy VMap;
    std::unique_ptr<Module> Shard = CloneModule(M, VMap, [&](const GlobalValue *GV) {
      return isPerShardArray(*GV) || Holds(GV);
    });
    for (uint32_t I = 0; I < L.Defs.size(); ++I)
      if (Here[I] == Import)
        cast<GlobalValue>(VMap[L.Defs[I]])->setLinkage(GlobalValue::AvailableExternallyLinkage);
    bool IsAsmShard = S == P->AsmShard;
    if (!IsAsmShard)
      Shard->setModuleInlineAsm("");

    // Entries of ctors/dtors run once: in the owner of the function, or in every
    // copy of a comdat-keyed entry (the linker keeps one group). Entries naming
    // something defined nowhere stay in the asm shard.
    // Entries are mapped back to the source module through VMap, not by name:
    // an unnamed ctor (name "") was not found by name, so its entry was dropped
    // in its owner and kept in the asm shard against an undefined @N.
    DenseMap<const Value *, const GlobalValue *> SrcOf;
    for (const GlobalValue &GV : M.global_values())
      if (const Value *V = VMap.lookup(&GV))
        SrcOf[V] = &GV;
    auto Orig = [&](const Constant *C) -> const GlobalValue * {
      return SrcOf.lookup(C->stripPointerCasts());
    };
    auto KeepStructor = [&](const Constant *E) {
      auto *CS = dyn_cast<ConstantStruct>(E);
      const GlobalValue *SrcFn = CS && CS->getNumOperands() > 1 ? Orig(CS->getOperand(1)) : nullptr;
      const GlobalValue *SrcKey = CS && CS->getNumOperands() > 2 ? Orig(CS->getOperand(2)) : nullptr;
      if (!SrcFn || SrcFn->isDeclaration())
        return IsAsmShard;
      if (Owns(SrcFn))
        return true;
      return Holds(SrcFn) && SrcKey && SrcKey->hasComdat() && Holds(SrcKey);
    };
    auto KeepUsed = [&](const Constant *E) {
      const GlobalValue *Src = Orig(E);
      if (!Src || Src->isDeclaration())
        return IsAsmShard;
      return Holds(Src);
    };
    filterArray(*Shard, "llvm.global_ctors", KeepStructor);
    filterArray(*Shard, "llvm.global_dtors", KeepStructor);
    filterArray(*Shard, "llvm.used", KeepUsed);
    filterArray(*Shard, "llvm.compiler.used", KeepUsed);
    stripShardMetadata(*Shard);
    pruneDebugGlobals(*Shard, IsAsmShard);
    fixDeclarations(*Shard, M);

    writeFile(Dir + "/shard." + std::to_string(S) + ".bc",
              [&](raw_ostream &OS) { WriteBitcodeToFile(*Shard, OS); });
  }

  auto [CPU, Features] = moduleTarget(M);
  writeFile(Dir + "/manifest", [&](raw_ostream &OS) {
    OS << "shard-manifest 1\n";
    OS << "shards " << P->NumShards << "\n";
    if (std::string T = Triple(M.getTargetTriple()).str(); !T.empty())
      OS << "triple " << T << "\n";
    OS << "reloc "
       << (M.getPICLevel() == PICLevel::NotPIC ? "static"
           : M.getPIELevel() != PIELevel::Default ? "pie"
                                                   : "pic")
       << "\n";
    if (!CPU.empty())
      OS << "cpu " << CPU << "\n";
    if (!Features.empty())
      OS << "features " << Features << "\n";
    for (unsigned S = 0; S < P->NumShards; ++S)
      OS << "shard " << S << " cost " << Work[S] << " functions " << Functions[S]
         << "\n";
    for (const Promotion &Pr : Promoted)
      OS << "promoted " << Pr.NewName << " " << Pr.OldName << "\n";
  });
  return PreservedAnalyses::none();
}

void ShardSplitPass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-split<dir=" << Dir;
  SplitLimits D;
  if (Limits.ImportCost != D.ImportCost)
    OS << ";import-cost=" << Limits.ImportCost;
  if (Limits.DupCost != D.DupCost)
    OS << ";dup-cost=" << Limits.DupCost;
  if (Limits.Depth != D.Depth)
    OS << ";import-depth=" << Limits.Depth;
  if (Limits.ConstBytes != D.ConstBytes)
    OS << ";const-bytes=" << Limits.ConstBytes;
  OS << ">";
}

} // namespace shard
