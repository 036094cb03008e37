//===- ShardModule.cpp - Build the module of one shard --------------------===//
//
// buildShard clones what a shard holds (Clone.cpp) and finishes the module: an
// import becomes available_externally, a declaration of a small function carries
// the inline cost of its body, the asm shard takes the module asm, each
// per-shard array keeps the entries that belong to this shard, the named
// metadata is mapped, globals are put in source order, the split's metadata is
// dropped, and the debug info lists only the variables the shard defines.
//
//===----------------------------------------------------------------------===//
#include "split/ShardModule.h"
#include "ir/Metadata.h"
#include "ir/Plan.h"
#include "split/Clone.h"
#include "split/Exact.h"
#include "split/Layout.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "shard-split"

using namespace llvm;

namespace shard {
namespace split {

namespace {

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

/// Clones into the shard (C.Mod) the entries of a per-shard array (ctors, dtors, used)
/// that Keep accepts; entries are judged on the source module's values. The array is a
/// new one (its type counts only the kept entries), made like the original otherwise.
void cloneArray(const Module &M, StringRef Name, function_ref<bool(const Constant *)> Keep,
                ClonedModule &C) {
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
  auto *New = new GlobalVariable(*C.Mod, Ty, GV->isConstant(), GV->getLinkage(), nullptr,
                                 GV->getName(), nullptr, GV->getThreadLocalMode());
  New->copyAttributesFrom(GV);
  New->setInitializer(MapValue(ConstantArray::get(Ty, Kept), C.VMap, RF_None, nullptr, &C.Decl));
}

/// Clones the shard's share of the per-shard arrays. Entries of ctors/dtors run once: in
/// the owner of the function, or in every copy of a comdat-keyed entry (the linker keeps
/// one group). Entries naming something defined nowhere stay in the asm shard. Entries
/// are judged on the source module's values, so unnamed functions are handled too, and
/// by the layout: a body this shard borrowed has left its function in the source for now.
void clonePerShardArrays(ClonedModule &C, const Module &M, const Layout &L,
                         const std::vector<uint8_t> &Here, bool IsAsmShard) {
  auto Holds = [&](const GlobalValue *GV) {
    auto It = L.Index.find(GV);
    return It != L.Index.end() && Here[It->second] != NotHere;
  };
  auto Owns = [&](const GlobalValue *GV) {
    auto It = L.Index.find(GV);
    return It != L.Index.end() && Here[It->second] == Own;
  };
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
  cloneArray(M, "llvm.global_ctors", KeepStructor, C);
  cloneArray(M, "llvm.global_dtors", KeepStructor, C);
  cloneArray(M, "llvm.used", KeepUsed, C);
  cloneArray(M, "llvm.compiler.used", KeepUsed, C);
}

/// Maps the module's named metadata into the shard (compile units, flags, idents).
void cloneNamedMetadata(const Module &M, ClonedModule &C) {
  for (const NamedMDNode &NMD : M.named_metadata()) {
    if (NMD.getName() == PlanMD || NMD.getName() == TotalCostMD)
      continue;
    NamedMDNode *New = C.Mod->getOrInsertNamedMetadata(NMD.getName());
    for (const MDNode *Op : NMD.operands())
      New->addOperand(MapMetadata(Op, C.VMap, RF_None, nullptr, &C.Decl));
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

/// Gives shard C's declarations of small functions the inline cost of their bodies
/// (Layout::DeclCost, CallInlineCostAttr).
void priceDeclarations(const Layout &L, const std::vector<uint8_t> &Here, ClonedModule &C) {
  for (auto &[D, Src] : C.Decl.Made) {
    auto It = L.Index.find(Src);
    auto *F = dyn_cast<Function>(D);
    if (F && It != L.Index.end() && Here[It->second] == NotHere && L.DeclCost[It->second])
      F->addFnAttr(CallInlineCostAttr, std::to_string(L.DeclCost[It->second]));
  }
}

} // namespace

void dropCallMarks(ClonedModule &C) {
  LLVMContext &Ctx = C.Mod->getContext();
  unsigned Kinds[] = {Ctx.getMDKindID(SerialViewMD), Ctx.getMDKindID(LastCallMD)};
  for (auto [F, NF] : C.Moved)
    for (Instruction &I : instructions(*NF))
      for (unsigned K : Kinds)
        I.setMetadata(K, nullptr);
}

void buildShard(ClonedModule &C, const Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here) {
  assert(Here.size() == L.Defs.size() && "a place per definition");
  std::vector<uint32_t> Held;
  for (uint32_t I = 0; I < L.Defs.size(); ++I)
    if (Here[I] != NotHere)
      Held.push_back(I);
  LLVM_DEBUG(dbgs() << "shard-split: shard " << S << " holds " << Held.size() << " of "
                    << L.Defs.size() << " definitions\n");
  cloneDefinitions(L, Held, [&](uint32_t I) { return Here[I] == Own && L.Movable[I]; }, C);
  for (uint32_t I : Held)
    if (Here[I] == Import) {
      auto *GV = cast<GlobalValue>(C.VMap[L.Defs[I]]);
      GV->setLinkage(GlobalValue::AvailableExternallyLinkage);
      if (auto *GO = dyn_cast<GlobalObject>(GV))
        GO->setComdat(nullptr);
    } else if (Here[I] == Dup && L.PerShard[I]) {
      // A private instrumentation name gives private counters, in a deduplicated group of
      // that name where they count an imported function: named per shard, each shard's
      // group stays its own.
      auto *GV = cast<GlobalValue>(C.VMap[L.Defs[I]]);
      GV->setName(GV->getName() + ".shard" + Twine(S));
    }
  unsigned Viewed = markSerialSccCalls(L, Here, C);
  (void)Viewed;
  LLVM_DEBUG(dbgs() << "shard-split: shard " << S << ": " << Viewed
                    << " calls to the callee as it was\n");
  markLastCalls(L, Here, C);
  markRevisits(L, Here, C);
  unsigned Exact = markExactCopies(L, Here, C);
  (void)Exact;
  LLVM_DEBUG(dbgs() << "shard-split: shard " << S << ": " << Exact << " exact copies\n");
  priceDeclarations(L, Here, C);
  bool IsAsmShard = S == P.AsmShard;
  if (IsAsmShard)
    C.Mod->setModuleInlineAsm(M.getModuleInlineAsm());
  clonePerShardArrays(C, M, L, Here, IsAsmShard);
  cloneNamedMetadata(M, C);
  sortLikeSource(*C.Mod, L, Held, C.VMap, C.Decl);
  stripShardMetadata(*C.Mod);
  pruneDebugGlobals(*C.Mod, M, C.VMap, IsAsmShard);
}

} // namespace split
} // namespace shard
