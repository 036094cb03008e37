//===- Presimplify.cpp - Simplify once what several shards hold -----------===//
//
// A function that several shards hold (imported for inlining, or a copy of a
// small comdat group) would be simplified by each of them. With
// shard-split<presimplify=L>, the split runs the module simplification pipeline
// of -O<L> once over those functions (simplifyClosure, over the closure of
// Closure.cpp), gives their owners and holders the simplified bodies, and marks
// them with the attribute "shard-presimplified". In a shard compile that loads
// the plugin (clang -fpass-plugin), the optional passes of the simplification
// pipeline skip a marked function (registerShardSkips); the optimisation
// pipeline (vectorisers, late cleanup) and the code generator treat it like any
// other. The same hook gives the calls the split marked "shard.serial.view"
// (split/Scc.cpp) a copy of their callee for the inliner's walk of the call graph
// (makeSerialViews, foldSerialViews), which leaves the copy unsimplified; its
// inline advisor (SerialSccAdvisor) inlines nothing into the copy.
//
//===----------------------------------------------------------------------===//
#include "presimplify/Presimplify.h"
#include "ir/Metadata.h"
#include "ir/Support.h"

#include "llvm/Analysis/InlineAdvisor.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <memory>

using namespace llvm;

namespace shard {

void simplifyClosure(Module &M, unsigned Level) {
  // A module without a target (tests) gets the default cost model.
  runModulePipeline(M, std::nullopt, nullptr, [Level](PassBuilder &PB) {
    return PB.buildModuleSimplificationPipeline(optLevel(Level), ThinOrFullLTOPhase::None);
  });
}

namespace {

/// Whether IR, about to go through an optional pass, is marked with attribute Attr: a
/// marked function, a loop of one, or a call graph SCC of marked functions only.
bool markedIR(Any IR, StringRef Attr) {
  auto Marked = [Attr](const Function &F) { return F.hasFnAttribute(Attr); };
  if (const auto *F = any_cast<const Function *>(&IR))
    return Marked(**F);
  if (const auto *L = any_cast<const Loop *>(&IR))
    return Marked(*(*L)->getHeader()->getParent());
  if (const auto *C = any_cast<const LazyCallGraph::SCC *>(&IR))
    return llvm::all_of(**C, [&](const LazyCallGraph::Node &N) { return Marked(N.getFunction()); });
  return false;
}

/// What makeSerialViews did: the copies (WeakVH: the walk may delete one), each with the
/// callee it stands for, and what it added to llvm.compiler.used.
struct SerialViews {
  SmallVector<std::pair<WeakVH, WeakVH>, 0> Copies;
  SmallVector<WeakVH, 0> Held;
};

/// Points each call marked SerialViewMD at a copy of its callee as it is now, before the
/// inliner's walk, marked SerialSccAttr so that the walk leaves it so. Meanwhile
/// llvm.compiler.used holds a copy that stands for a callee with other uses, or for one
/// that is not local (it never takes the inliner's bonus for a local's last call), and a
/// callee the walk could delete (the copy's calls come back to it).
SerialViews makeSerialViews(Module &M) {
  // Every shard compile passes here: the kind once, then a flag test per instruction.
  unsigned Kind = M.getContext().getMDKindID(SerialViewMD);
  MapVector<Function *, SmallVector<CallBase *, 4>> Calls;
  for (Function &G : M)
    for (Instruction &I : instructions(G))
      if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->getMetadata(Kind)) {
        CB->setMetadata(Kind, nullptr);
        Function *F = CB->getCalledFunction();
        if (F && !F->isDeclaration() && CB->getFunctionType() == F->getFunctionType())
          Calls[F].push_back(CB);
      }
  SerialViews Made;
  if (Calls.empty())
    return Made;
  SmallVector<GlobalValue *, 16> Used;
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/true);
  SmallPtrSet<GlobalValue *, 16> Listed(Used.begin(), Used.end());
  SmallVector<GlobalValue *, 0> Held;
  for (auto &[F, CBs] : Calls) {
    bool Others = F->getNumUses() > CBs.size();
    if (F->hasLocalLinkage() && !Others && CBs.size() == 1)
      continue; // a local's one call: the bonus the serial inliner gives it
    ValueToValueMapTy VMap;
    Function *V = CloneFunction(F, VMap);
    V->setName(F->getName() + ".shard.view");
    V->setLinkage(GlobalValue::InternalLinkage);
    V->setComdat(nullptr);
    V->addFnAttr(SerialSccAttr);
    for (CallBase *CB : CBs)
      CB->setCalledOperand(V);
    if (Others || !F->hasLocalLinkage())
      Held.push_back(V);
    if (F->isDiscardableIfUnused() && !Listed.count(F))
      Held.push_back(F);
    Made.Copies.emplace_back(V, F);
  }
  appendToCompilerUsed(M, Held);
  Made.Held.assign(Held.begin(), Held.end());
  return Made;
}

/// After the inliner's walk: points the calls it left to a copy back at the callee, whose
/// body is the simplified one, and lets the copies go (GlobalOpt deletes them).
void foldSerialViews(Module &M, SerialViews &Made) {
  SmallPtrSet<Constant *, 8> Held;
  for (WeakVH &GV : Made.Held)
    if (GV)
      Held.insert(cast<Constant>(GV));
  removeFromUsedLists(M, [&](Constant *C) { return Held.count(C) != 0; });
  for (auto &[V, F] : Made.Copies)
    if (V && F)
      V->replaceAllUsesWith(F);
  Made = SerialViews();
}

#if LLVM_VERSION_MAJOR >= 20
/// The default inliner's advice, except that the walk inlines nothing into a function
/// marked SerialSccAttr: the serial inliner weighs such a callee before its own calls,
/// which come later in their SCC, are inlined into it, and a shard walks a smaller SCC
/// that holds the callee with its callees but not its callers (duk_remove's). And a call
/// marked LastCallMD gets the last-call bonus once it is its callee's only use.
class SerialSccAdvisor : public InlineAdvisor {
public:
  SerialSccAdvisor(Module &M, FunctionAnalysisManager &FAM, InlineParams Params,
                   InlineContext IC)
      : InlineAdvisor(M, FAM, IC), Default(M, FAM, Params, IC) {}
  void onPassEntry(LazyCallGraph::SCC *SCC) override { Default.onPassEntry(SCC); }
  void onPassExit(LazyCallGraph::SCC *SCC) override { Default.onPassExit(SCC); }

private:
  std::unique_ptr<InlineAdvice> getAdviceImpl(CallBase &CB) override {
    if (CB.getCaller()->hasFnAttribute(SerialSccAttr))
      return std::make_unique<InlineAdvice>(this, CB, getCallerORE(CB), false);
    Function *Callee = CB.getCalledFunction();
    if (!Callee || !CB.getMetadata(LastCallMD) || Callee->hasLocalLinkage() ||
        !Callee->hasOneLiveUse())
      return Default.getAdvice(CB);
    // A shared local's serially last call, now its only use: weighed as the local it is
    // in the input, so that InlineCost gives it the bonus of a local's last call (the
    // default advisor weighs it now, in getAdvice). Its linkage is then restored.
    GlobalValue::LinkageTypes Linkage = Callee->getLinkage();
    GlobalValue::VisibilityTypes Visibility = Callee->getVisibility();
    bool DSOLocal = Callee->isDSOLocal();
    Callee->setLinkage(GlobalValue::InternalLinkage);
    std::unique_ptr<InlineAdvice> Advice = Default.getAdvice(CB);
    Callee->setLinkage(Linkage);
    Callee->setVisibility(Visibility);
    Callee->setDSOLocal(DSOLocal);
    return Advice;
  }
  DefaultInlineAdvisor Default;
};

InlineAdvisor *makeSerialSccAdvisor(Module &M, FunctionAnalysisManager &FAM,
                                    InlineParams Params, InlineContext IC) {
  return new SerialSccAdvisor(M, FAM, Params, IC);
}
#endif

/// The module an instrumentation callback is about to run a module pass on.
Module *moduleOf(Any IR) {
  const auto *M = any_cast<const Module *>(&IR);
  return M ? const_cast<Module *>(*M) : nullptr;
}

} // namespace

void registerShardSkips(PassBuilder &PB) {
#if LLVM_VERSION_MAJOR >= 20 // LLVM 19's plugin advisor is process-wide state
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return PluginInlineAdvisorAnalysis(makeSerialSccAdvisor); });
  });
#endif
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  // The simplification pipeline ends where the optimisation pipeline drops the
  // available_externally bodies (every -O1..-O3 pipeline that emits code); the
  // inliner's walk of the call graph SCCs is the module inliner wrapper.
  auto Optimising = std::make_shared<bool>(false);
  // The serial views are made when the walk starts, before it builds its call graph, and
  // folded when it ends, before DeadArgElim and GlobalOpt look at who calls what.
  auto Inlining = std::make_shared<bool>(false);
  auto Views = std::make_shared<SerialViews>();
  PIC->registerBeforeNonSkippedPassCallback([Optimising, Inlining, Views](StringRef ID, Any IR) {
    if (ID == "EliminateAvailableExternallyPass") {
      *Optimising = true;
    } else if (ID == "ModuleInlinerWrapperPass") {
      *Inlining = true;
      if (Module *M = moduleOf(IR))
        *Views = makeSerialViews(*M);
    }
  });
  PIC->registerAfterPassCallback([Inlining, Views](StringRef ID, Any IR,
                                                   const PreservedAnalyses &) {
    if (ID != "ModuleInlinerWrapperPass")
      return;
    *Inlining = false;
    if (Module *M = moduleOf(IR); M && !Views->Copies.empty())
      foldSerialViews(*M, *Views);
  });
  PIC->registerShouldRunOptionalPassCallback([Optimising, Inlining](StringRef, Any IR) {
    return *Optimising || !(markedIR(IR, PresimplifiedAttr) ||
                            (*Inlining && markedIR(IR, SerialSccAttr)));
  });
}

} // namespace shard
