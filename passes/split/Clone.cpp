//===- Clone.cpp - The clone engine of the split and the closure ----------===//
//
// cloneDefinitions copies the definitions a module holds in four passes over them:
// prototypes (variables, functions, aliases, ifuncs, so that references between
// them resolve), bodies, initialisers, then aliasees and resolvers. A body the
// shard may borrow is spliced from the source function instead of copied, and
// mapped just as CloneFunctionInto maps a copy, so that the shard has the same
// bytes either way; moveBodiesBack splices it back after the shard is written.
//
//===----------------------------------------------------------------------===//
#include "split/Clone.h"
#include "split/Layout.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace shard {
namespace split {

namespace {

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

void copyComdat(GlobalObject &Dst, const GlobalObject &Src) {
  if (const Comdat *C = Src.getComdat()) {
    Comdat *DC = Dst.getParent()->getOrInsertComdat(C->getName());
    DC->setSelectionKind(C->getSelectionKind());
    Dst.setComdat(DC);
  }
}

/// An empty module with M's identity and target.
std::unique_ptr<Module> emptyLike(const Module &M) {
  auto New = std::make_unique<Module>(M.getModuleIdentifier(), M.getContext());
  New->setSourceFileName(M.getSourceFileName());
  New->setDataLayout(M.getDataLayout());
  New->setTargetTriple(M.getTargetTriple());
  return New;
}

/// The steps of cloneDefinitions, over the definitions Held.
class Cloner {
  const Layout &L;
  ArrayRef<uint32_t> Held;
  ClonedModule &C;

  template <typename Fn> void each(Fn F) {
    for (uint32_t I : Held)
      F(I);
  }
  Constant *map(const Constant *V) { return MapValue(V, C.VMap, RF_None, nullptr, &C.Decl); }
  void body(Function &F, bool Moving);

public:
  Cloner(const Layout &L, ArrayRef<uint32_t> Held, ClonedModule &C) : L(L), Held(Held), C(C) {}
  void prototypes();
  void bodies(function_ref<bool(uint32_t)> Move);
  void initialisers();
  void aliaseesAndResolvers();
};

/// Prototypes, variables first, in module order, so references between them resolve.
void Cloner::prototypes() {
  Module &New = *C.Mod;
  each([&](uint32_t I) {
    if (const auto *G = dyn_cast<GlobalVariable>(L.Defs[I]))
      C.VMap[G] = copyVariable(New, *G, G->getLinkage());
  });
  each([&](uint32_t I) {
    if (const auto *F = dyn_cast<Function>(L.Defs[I]))
      C.VMap[F] = copyFunction(New, *F, F->getLinkage());
  });
  each([&](uint32_t I) {
    if (const auto *A = dyn_cast<GlobalAlias>(L.Defs[I])) {
      auto *NA = GlobalAlias::create(A->getValueType(), A->getAddressSpace(), A->getLinkage(),
                                     A->getName(), &New);
      NA->copyAttributesFrom(A);
      C.VMap[A] = NA;
    }
  });
  each([&](uint32_t I) {
    if (const auto *IF = dyn_cast<GlobalIFunc>(L.Defs[I])) {
      auto *NI = GlobalIFunc::create(IF->getValueType(), IF->getAddressSpace(), IF->getLinkage(),
                                     IF->getName(), nullptr, &New);
      NI->copyAttributesFrom(IF);
      C.VMap[IF] = NI;
    }
  });
}

/// F's body, copied or (Moving) moved. A moved body is mapped as CloneFunctionInto maps a
/// copy (the same flags, the function's metadata first), so that the shard is the same
/// bytes either way; only a moved body's locals are not in the map.
void Cloner::body(Function &F, bool Moving) {
  auto *NF = cast<Function>(C.VMap[&F]);
  auto DestArg = NF->arg_begin();
  for (const Argument &A : F.args()) {
    DestArg->setName(A.getName());
    C.VMap[&A] = &*DestArg++;
  }
  keepAtomGroups(F, C.VMap);
  if (Moving) {
    mapAttachments(*NF, F, C.VMap, RF_None, &C.Decl);
    spliceBody(*NF, F, C.VMap, &C.Decl);
    C.Moved.push_back({&F, NF});
  } else {
    SmallVector<ReturnInst *, 8> Returns;
    CloneFunctionInto(NF, &F, C.VMap, CloneFunctionChangeType::ClonedModule, Returns, "", nullptr,
                      nullptr, &C.Decl);
  }
  mapFunctionData(*NF, F, [&](const Constant *V) { return map(V); });
  copyComdat(*NF, F);
}

/// Bodies. Functions whose blocks have their address taken go first, so that every
/// blockaddress refers to a block already cloned (the mapper cannot wait for a body
/// cloned by a later call).
void Cloner::bodies(function_ref<bool(uint32_t)> Move) {
  for (bool First : {true, false})
    each([&](uint32_t I) {
      if (auto *F = dyn_cast<Function>(L.Defs[I]); F && bool(L.BlocksTaken[I]) == First) {
        bool Moving = Move(I);
        assert((!Moving || !L.BlocksTaken[I]) && "a body whose blocks are named is copied");
        body(*F, Moving);
      }
    });
}

void Cloner::initialisers() {
  each([&](uint32_t I) {
    const auto *G = dyn_cast<GlobalVariable>(L.Defs[I]);
    if (!G)
      return;
    auto *NG = cast<GlobalVariable>(C.VMap[G]);
    mapAttachments(*NG, *G, C.VMap, RF_None, &C.Decl);
    NG->setInitializer(map(G->getInitializer()));
    copyComdat(*NG, *G);
  });
}

void Cloner::aliaseesAndResolvers() {
  each([&](uint32_t I) {
    if (const auto *A = dyn_cast<GlobalAlias>(L.Defs[I]))
      cast<GlobalAlias>(C.VMap[A])->setAliasee(map(A->getAliasee()));
    else if (const auto *IF = dyn_cast<GlobalIFunc>(L.Defs[I]))
      cast<GlobalIFunc>(C.VMap[IF])->setResolver(map(IF->getResolver()));
  });
}

} // namespace

Function *copyFunction(Module &Dst, const Function &F, GlobalValue::LinkageTypes Linkage) {
  Function *NF =
      Function::Create(F.getFunctionType(), Linkage, F.getAddressSpace(), F.getName(), &Dst);
  NF->copyAttributesFrom(&F);
  return NF;
}

GlobalVariable *copyVariable(Module &Dst, const GlobalVariable &G,
                             GlobalValue::LinkageTypes Linkage) {
  auto *NG = new GlobalVariable(Dst, G.getValueType(), G.isConstant(), Linkage, nullptr,
                                G.getName(), nullptr, G.getThreadLocalMode(), G.getAddressSpace());
  NG->copyAttributesFrom(&G);
  return NG;
}

Value *GlobalMaterializer::materialize(Value *V) {
  auto *GV = dyn_cast<GlobalValue>(V);
  if (!GV)
    return nullptr;
  GlobalValue *Made = makeGlobal(*GV);
  assert(Made && Made->getParent() == &Dst && "a global of the destination module");
  return Made;
}

GlobalValue *Declarer::makeGlobal(GlobalValue &GV) {
  GlobalValue *D;
  if (const auto *SF = dyn_cast<Function>(&GV)) {
    Function *F = copyFunction(Dst, *SF, GlobalValue::ExternalLinkage);
    F->setPersonalityFn(nullptr); // these would point into the source module
    F->setPrefixData(nullptr);
    F->setPrologueData(nullptr);
    D = F;
  } else if (GV.getValueType()->isFunctionTy()) { // aliases and ifuncs of functions
    D = Function::Create(cast<FunctionType>(GV.getValueType()), GlobalValue::ExternalLinkage,
                         GV.getAddressSpace(), GV.getName(), &Dst);
  } else if (const auto *SV = dyn_cast<GlobalVariable>(&GV)) {
    D = copyVariable(Dst, *SV, GlobalValue::ExternalLinkage);
  } else { // aliases of variables
    D = new GlobalVariable(Dst, GV.getValueType(), /*isConstant=*/false,
                           GlobalValue::ExternalLinkage, nullptr, GV.getName(), nullptr,
                           GV.getThreadLocalMode(), GV.getAddressSpace());
  }
  D->setLinkage(GlobalValue::ExternalLinkage);
  D->setVisibility(GV.getVisibility());
  D->setDSOLocal(GV.isDSOLocal());
  D->setUnnamedAddr(GV.getUnnamedAddr());
  D->setDLLStorageClass(GV.getDLLStorageClass());
  Made.push_back({D, &GV});
  return D;
}

ClonedModule::ClonedModule(const Module &Src) : Mod(emptyLike(Src)), Decl(*Mod) {}

void cloneDefinitions(const Layout &L, ArrayRef<uint32_t> Held, function_ref<bool(uint32_t)> Move,
                      ClonedModule &C) {
  assert(llvm::is_sorted(Held) && "definitions in module order");
  assert(C.Mod->empty() && C.Mod->global_empty() && "an empty module to fill");
  Cloner Cl(L, Held, C);
  Cl.prototypes();
  Cl.bodies(Move);
  Cl.initialisers();
  Cl.aliaseesAndResolvers();
}

/// Maps back what cloneDefinitions mapped (C.VMap, which also holds the declarations made on
/// demand): the shard's globals, constants and arguments to the source's, and its copies
/// of metadata to the originals.
void moveBodiesBack(ClonedModule &C) {
  if (C.Moved.empty())
    return;
  ValueToValueMapTy Rev;
  for (auto KV : C.VMap)
    if (!isa<Instruction>(KV.first) && !isa<BasicBlock>(KV.first) && KV.second)
      Rev[KV.second] = const_cast<Value *>(KV.first);
  reverseMetadata(C.VMap, Rev);
  for (auto [F, NF] : C.Moved) {
    assert(F->empty() && "a borrowed body returns to an empty function");
    spliceBody(*F, *NF, Rev);
  }
}

void spliceBody(Function &To, Function &From, ValueToValueMapTy &VM, ValueMaterializer *Mat) {
  assert(&To.getContext() == &From.getContext() && "blocks move within one context");
  To.splice(To.end(), &From);
  for (Instruction &I : instructions(To)) {
    RemapInstruction(&I, VM, RF_IgnoreMissingLocals, nullptr, Mat);
    RemapDbgRecordRange(To.getParent(), I.getDbgRecordRange(), VM, RF_IgnoreMissingLocals, nullptr,
                        Mat);
  }
}

void mapFunctionData(Function &To, const Function &From,
                     function_ref<Constant *(const Constant *)> Map) {
  To.setPersonalityFn(From.hasPersonalityFn() ? Map(From.getPersonalityFn()) : nullptr);
  To.setPrefixData(From.hasPrefixData() ? Map(From.getPrefixData()) : nullptr);
  To.setPrologueData(From.hasPrologueData() ? Map(From.getPrologueData()) : nullptr);
}

void mapAttachments(GlobalObject &Dst, const GlobalObject &Src, ValueToValueMapTy &VM,
                    RemapFlags Flags, ValueMaterializer *Mat) {
  SmallVector<std::pair<unsigned, MDNode *>, 1> MDs;
  Src.getAllMetadata(MDs);
  for (auto &[Kind, MD] : MDs)
    Dst.addMetadata(Kind, *MapMetadata(MD, VM, Flags, nullptr, Mat));
}

void reverseMetadata(ValueToValueMapTy &VMap, ValueToValueMapTy &Rev) {
  for (auto &KV : VMap.MD())
    if (KV.second)
      Rev.MD()[KV.second.get()].reset(const_cast<Metadata *>(KV.first));
}

} // namespace split
} // namespace shard
