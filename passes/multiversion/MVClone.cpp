//===- MVClone.cpp - Clone functions per CPU target and dispatch at run time ===//
//
// shard-mv<dispatch=ifunc|table|auto;force=TARGET|default;trace> turns every
// defined function F that carries !shard.mv !{!"T1", ...} into a family:
//
//   F.default           the original body, internal
//   F.<T>               one clone per target T, internal, with "target-cpu"=T,
//                       "tune-cpu"=T and "target-features" = baseline + T's features
//   F.resolver          internal; calls __cpu_indicator_init() and tests the bits of
//                       __cpu_model / __cpu_features2 that __builtin_cpu_supports
//                       tests (llvm::X86::getCpuSupportsMask), most capable first
//   F                   dispatch=ifunc: an ifunc (F's linkage and visibility) whose
//                       resolver is F.resolver, the shape clang gives target_clones
//                       dispatch=table: F stays a function (same address) that loads
//                       a pointer from the internal global F.ptr and musttail-calls it;
//                       F.ptr starts at the internal stub F.init, which calls the
//                       resolver, stores its answer (atomically) and musttail-calls it
//
// dispatch=auto (the default) is ifunc on ELF and table elsewhere. Direct calls
// inside F.<T> to another multiversioned G go straight to G.<T>, else to the
// most capable clone of G that T implies, else to G.default, so inlining still
// works inside cloned code. Every member carries !shard.mv.family !{!"F"} (and
// the clones and default !shard.mv.clone !{!"T"}), which shard-partition uses to
// keep a family in one shard.
//
// Test-only: force=T makes every resolver return the clone a CPU with exactly
// T's features would get (force=default: the default); trace makes every clone
// and default store a pointer to its own name into @__shard_mv_trace (weak
// hidden) on entry. The same settings come from -shard-mv-dispatch,
// -shard-mv-force and -shard-mv-trace when the pipeline does not give them.
//
//===----------------------------------------------------------------------===//
#include "ir/Support.h"
#include "multiversion/MV.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "shard-mv"

// The only way to configure the passes the plugin adds to clang's pipelines (clang -mllvm ...).
static cl::opt<std::string>
    MVDispatchOpt("shard-mv-dispatch", cl::init("auto"),
                  cl::desc("Shard: how shard-mv dispatches: ifunc, table (pointer table) or auto "
                           "(ifunc on ELF, table elsewhere)"));
static cl::opt<std::string>
    MVForceOpt("shard-mv-force", cl::init(""),
               cl::desc("Shard (testing): every shard-mv resolver returns the clone for this "
                        "target, or the default clone with 'default'"));
static cl::opt<bool> MVTraceOpt(
    "shard-mv-trace", cl::init(false),
    cl::desc("Shard (testing): every clone stores its name into @__shard_mv_trace on entry"));

namespace shard {

std::optional<MVDispatch> parseMVDispatch(StringRef S) {
  if (S == "auto")
    return MVDispatch::Auto;
  if (S == "ifunc")
    return MVDispatch::IFunc;
  if (S == "table")
    return MVDispatch::Table;
  return std::nullopt;
}

namespace {

struct Family {
  Function *Orig = nullptr;
  std::string Name;
  std::vector<MVTarget> Targets; // most capable first
  Function *Default = nullptr;
  std::vector<Function *> Clones; // parallel to Targets
  Function *Resolver = nullptr;
  GlobalValue *Entry = nullptr; // what callers reference: the ifunc, or F itself
};

/// The most capable of Fam's clones that a CPU with CPUTarget's features runs;
/// the default when none. Null CPUTarget: the default.
Function *bestFor(const Family &Fam, const MVTarget *CPUTarget) {
  assert(Fam.Clones.size() == Fam.Targets.size() && Fam.Default && "the versions are made");
  if (!CPUTarget)
    return Fam.Default;
  for (size_t I = 0; I < Fam.Targets.size(); ++I)
    if (Fam.Targets[I].Name == CPUTarget->Name)
      return Fam.Clones[I];
  for (size_t I = 0; I < Fam.Targets.size(); ++I) // most capable first
    if (CPUTarget->implies(Fam.Targets[I]))
      return Fam.Clones[I];
  return Fam.Default;
}

class Cloner {
public:
  Cloner(Module &M, MVDispatch Dispatch, std::optional<MVTarget> Force, bool ForceDefault,
         bool Trace)
      : M(M), Ctx(M.getContext()), Dispatch(Dispatch), Force(std::move(Force)),
        ForceDefault(ForceDefault), Trace(Trace) {}
  bool run();

private:
  Module &M;
  LLVMContext &Ctx;
  MVDispatch Dispatch;
  std::optional<MVTarget> Force;
  bool ForceDefault;
  bool Trace;
  std::vector<Family> Families;
  DenseMap<const GlobalValue *, size_t> FamilyOfEntry;

  MDNode *familyMD(const Family &Fam) { return MDNode::get(Ctx, MDString::get(Ctx, Fam.Name)); }
  void collectFamilies();
  std::optional<Family> familyOf(Function &F, const MDNode &MD);
  void makeVersions(Family &Fam);
  Function *makeVersion(Family &Fam, const MVTarget *T, Function *After);
  void buildResolver(Family &Fam);
  void makeIFunc(Family &Fam);
  void makeTable(Family &Fam);
  void rewriteCalls(Family &Fam);
  void addTrace(Function &V);
};

Function *Cloner::makeVersion(Family &Fam, const MVTarget *T, Function *After) {
  Function *F = Fam.Orig;
  ValueToValueMapTy VMap;
  Function *V = CloneFunction(F, VMap);
  V->setName(Fam.Name + "." + (T ? T->Name : std::string("default")));
  V->removeFromParent();
  M.getFunctionList().insertAfter(After->getIterator(), V);
  V->setLinkage(GlobalValue::InternalLinkage);
  V->setVisibility(GlobalValue::DefaultVisibility);
  V->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  V->setDSOLocal(true);
  V->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  V->setComdat(nullptr);
  V->setMetadata(MVMD, nullptr);
  V->setMetadata(MVFamilyMD, familyMD(Fam));
  V->setMetadata(MVCloneMD, MDNode::get(Ctx, MDString::get(Ctx, T ? T->Name : "default")));
  if (T) {
    V->setMetadata(MVReasonMD, nullptr);
    StringRef FS = F->getFnAttribute("target-features").getValueAsString();
    V->addFnAttr("target-cpu", T->Name);
    V->addFnAttr("tune-cpu", T->Name);
    V->addFnAttr("target-features", cloneFeatures(FS, *T));
  }
  if (Trace)
    addTrace(*V);
  return V;
}

void Cloner::addTrace(Function &V) {
  Type *PtrTy = PointerType::getUnqual(Ctx);
  auto *TraceGV = M.getNamedGlobal("__shard_mv_trace");
  if (!TraceGV) {
    TraceGV = new GlobalVariable(M, PtrTy, false, GlobalValue::WeakAnyLinkage,
                                 ConstantPointerNull::get(PointerType::getUnqual(Ctx)),
                                 "__shard_mv_trace");
    TraceGV->setVisibility(GlobalValue::HiddenVisibility);
    TraceGV->setDSOLocal(true);
  }
  Constant *Str = ConstantDataArray::getString(Ctx, V.getName());
  auto *StrGV = new GlobalVariable(M, Str->getType(), true, GlobalValue::PrivateLinkage, Str,
                                   V.getName() + ".trace");
  StrGV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  IRBuilder<> B(&*V.getEntryBlock().getFirstInsertionPt());
  B.CreateStore(StrGV, TraceGV, /*isVolatile=*/true);
}

/// libgcc's / compiler-rt's CPU model, which __builtin_cpu_supports reads:
/// struct __processor_model { unsigned vendor, type, subtype, features[1]; }
/// __cpu_model, and unsigned __cpu_features2[3].
StructType *cpuModelType(LLVMContext &Ctx) {
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(I32, I32, I32, ArrayType::get(I32, 1));
}
ArrayType *cpuFeatures2Type(LLVMContext &Ctx) { return ArrayType::get(Type::getInt32Ty(Ctx), 3); }

/// Whether the CPU has every feature T's resolver tests, as __builtin_cpu_supports
/// tests them: the bits of each feature word; false when nothing can be tested.
Value *supportsTest(IRBuilder<> &B, const MVTarget &T, GlobalVariable *Model,
                    GlobalVariable *Features2) {
  Type *I32 = B.getInt32Ty();
  SmallVector<StringRef, 32> Names(T.Supports.begin(), T.Supports.end());
  std::array<uint32_t, 4> Mask = X86::getCpuSupportsMask(Names);
  Value *Ok = nullptr;
  for (unsigned W = 0; W < 4; ++W) {
    if (!Mask[W])
      continue;
    // __cpu_model.__cpu_features[0], or __cpu_features2[W - 1].
    Value *Addr = W == 0 ? B.CreateInBoundsGEP(cpuModelType(B.getContext()), Model,
                                               {B.getInt32(0), B.getInt32(3), B.getInt32(0)})
                         : B.CreateConstInBoundsGEP2_32(cpuFeatures2Type(B.getContext()), Features2,
                                                        0, W - 1);
    LoadInst *Word = B.CreateAlignedLoad(I32, Addr, Align(4));
    Value *Bits = B.CreateAnd(Word, B.getInt32(Mask[W]));
    Value *Has = B.CreateICmpEQ(Bits, B.getInt32(Mask[W]));
    Ok = Ok ? B.CreateAnd(Ok, Has) : Has;
  }
  if (!Ok) // nothing __builtin_cpu_supports can test: never chosen at run time
    Ok = B.getFalse();
  return Ok;
}

void Cloner::buildResolver(Family &Fam) {
  Function *R = Fam.Resolver;
  assert(R && R->empty() && Fam.Clones.size() == Fam.Targets.size() &&
         "the resolver is built once, after the versions");
  R->addFnAttr(Attribute::NoUnwind);
  R->addFnAttr(Attribute::DisableSanitizerInstrumentation);
  R->setMetadata(MVFamilyMD, familyMD(Fam));
  FunctionCallee Init =
      M.getOrInsertFunction("__cpu_indicator_init", FunctionType::get(Type::getVoidTy(Ctx), false));
  if (auto *InitF = dyn_cast<Function>(Init.getCallee()))
    InitF->setDSOLocal(true);
  auto External = [&](StringRef Name, Type *Ty) {
    auto *GV = dyn_cast_or_null<GlobalVariable>(M.getNamedValue(Name));
    if (!GV) {
      GV = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage, nullptr, Name);
      GV->setDSOLocal(true);
    }
    return GV;
  };

  BasicBlock *BB = BasicBlock::Create(Ctx, "entry", R);
  IRBuilder<> B(BB);
  B.CreateCall(Init);
  if (Force || ForceDefault) {
    B.CreateRet(bestFor(Fam, Force ? &*Force : nullptr));
    return;
  }
  GlobalVariable *Model = External("__cpu_model", cpuModelType(Ctx));
  GlobalVariable *Features2 = External("__cpu_features2", cpuFeatures2Type(Ctx));
  // Most capable first: the first target the CPU has wins.
  for (size_t I = 0; I < Fam.Targets.size(); ++I) {
    const MVTarget &T = Fam.Targets[I];
    Value *Ok = supportsTest(B, T, Model, Features2);
    BasicBlock *Yes = BasicBlock::Create(Ctx, "use." + T.Name, R);
    BasicBlock *No = BasicBlock::Create(Ctx, "not." + T.Name, R);
    B.CreateCondBr(Ok, Yes, No);
    IRBuilder<>(Yes).CreateRet(Fam.Clones[I]);
    B.SetInsertPoint(No);
  }
  B.CreateRet(Fam.Default);
}

void Cloner::makeIFunc(Family &Fam) {
  Function *F = Fam.Orig;
  assert(F && Fam.Resolver && "the dispatch is made once, after the resolver");
  auto *IF = GlobalIFunc::create(F->getValueType(), F->getAddressSpace(), F->getLinkage(), "",
                                 Fam.Resolver, &M);
  IF->setVisibility(F->getVisibility());
  IF->setDLLStorageClass(F->getDLLStorageClass());
  IF->setDSOLocal(F->isDSOLocal());
  IF->setUnnamedAddr(F->getUnnamedAddr());
  IF->setPartition(F->getPartition());
  F->replaceAllUsesWith(IF);
  F->eraseFromParent();
  IF->setName(Fam.Name);
  Fam.Entry = IF;
}

/// Ends In with a musttail call of Callee (of type FTy and convention CC) that
/// passes on In's arguments, with the return and parameter attributes of AL,
/// and returns its result.
void forwardTailCall(IRBuilder<> &B, Function &In, FunctionType *FTy, CallingConv::ID CC,
                     const AttributeList &AL, Value *Callee) {
  SmallVector<Value *, 8> Args;
  for (Argument &A : In.args())
    Args.push_back(&A);
  CallInst *CI = B.CreateCall(FTy, Callee, Args);
  CI->setTailCallKind(CallInst::TCK_MustTail);
  CI->setCallingConv(CC);
  CI->setAttributes(AttributeList::get(B.getContext(), AttributeSet(), AL.getRetAttrs(), [&] {
    SmallVector<AttributeSet, 8> P;
    for (unsigned I = 0; I < In.arg_size(); ++I)
      P.push_back(AL.getParamAttrs(I));
    return P;
  }()));
  if (FTy->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(CI);
}

void Cloner::makeTable(Family &Fam) {
  Function *F = Fam.Orig;
  assert(F && Fam.Resolver && "the dispatch is made once, after the resolver");
  Type *PtrTy = PointerType::getUnqual(Ctx);
  // F.init: resolve, remember, and go on to the chosen version.
  Function *Init = Function::Create(F->getFunctionType(), GlobalValue::InternalLinkage,
                                    F->getAddressSpace(), Fam.Name + ".init");
  M.getFunctionList().insertAfter(Fam.Resolver->getIterator(), Init);
  for (auto [From, To] : llvm::zip(F->args(), Init->args()))
    To.setName(From.getName());
  auto *Ptr =
      new GlobalVariable(M, PtrTy, false, GlobalValue::InternalLinkage, Init, Fam.Name + ".ptr");
  Ptr->setMetadata(MVFamilyMD, familyMD(Fam));
  Ptr->setAlignment(Align(8));

  // Attributes that still hold for a function that reads a global and calls on.
  AttributeList AL = F->getAttributes();
  AttributeList Thunk = AL.removeFnAttribute(Ctx, Attribute::Memory);
  Init->setAttributes(Thunk.removeFnAttribute(Ctx, Attribute::Hot));
  Init->setCallingConv(F->getCallingConv());
  Init->addFnAttr(Attribute::NoInline);
  Init->addFnAttr(Attribute::Cold);
  Init->setMetadata(MVFamilyMD, familyMD(Fam));
  Init->setDSOLocal(true);

  auto TailCall = [&](IRBuilder<> &B, Function *In, Value *Callee) {
    forwardTailCall(B, *In, F->getFunctionType(), F->getCallingConv(), AL, Callee);
  };
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Init));
    CallInst *Chosen = B.CreateCall(Fam.Resolver->getFunctionType(), Fam.Resolver);
    StoreInst *St = B.CreateAlignedStore(Chosen, Ptr, Align(8));
    St->setAtomic(AtomicOrdering::Monotonic);
    TailCall(B, Init, Chosen);
  }
  // F itself: one load and a tail call. deleteBody makes F external: restore.
  GlobalValue::LinkageTypes Linkage = F->getLinkage();
  F->deleteBody();
  F->setLinkage(Linkage);
  F->setAttributes(Thunk);
  F->setMetadata(MVMD, nullptr);
  F->setMetadata(MVFamilyMD, familyMD(Fam));
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
    LoadInst *Target = B.CreateAlignedLoad(PtrTy, Ptr, Align(8));
    Target->setAtomic(AtomicOrdering::Monotonic);
    TailCall(B, F, Target);
  }
  Fam.Entry = F;
}

void Cloner::rewriteCalls(Family &Fam) {
  for (size_t I = 0; I < Fam.Clones.size(); ++I) {
    const MVTarget &T = Fam.Targets[I];
    for (BasicBlock &BB : *Fam.Clones[I])
      for (Instruction &Inst : BB) {
        auto *CB = dyn_cast<CallBase>(&Inst);
        if (!CB)
          continue;
        auto *Callee = dyn_cast<GlobalValue>(CB->getCalledOperand()->stripPointerCasts());
        auto It = Callee ? FamilyOfEntry.find(Callee) : FamilyOfEntry.end();
        if (It == FamilyOfEntry.end())
          continue;
        CB->setCalledOperand(bestFor(Families[It->second], &T));
      }
  }
}

/// The families to make: every function with a valid !shard.mv that can be
/// cloned safely. The others lose their !shard.mv, with a remark.
void Cloner::collectFamilies() {
  for (Function &F : M)
    if (MDNode *MD = F.getMetadata(MVMD))
      if (std::optional<Family> Fam = familyOf(F, *MD))
        Families.push_back(std::move(*Fam));
}

/// F's family, its targets most capable first; none when F gets no clone.
std::optional<Family> Cloner::familyOf(Function &F, const MDNode &MD) {
  OptimizationRemarkEmitter ORE(&F);
  auto Decline = [&](const std::string &Why) {
    ORE.emit([&]() {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotCloned", &F) << "not multiversioned: " << Why;
    });
    F.setMetadata(MVMD, nullptr);
  };
  if (std::optional<std::string> Why = unsafeReason(F)) {
    Decline(*Why);
    return std::nullopt;
  }
  Family Fam;
  Fam.Orig = &F;
  Fam.Name = F.getName().str();
  for (const MDOperand &Op : MD.operands()) {
    auto *S = dyn_cast_or_null<MDString>(Op.get());
    std::string Err;
    std::optional<MVTarget> T = S ? parseMVTarget(S->getString(), Err) : std::nullopt;
    if (!T) {
      Decline(S ? Err : "malformed !shard.mv");
      return std::nullopt;
    }
    if (llvm::none_of(Fam.Targets, [&](const MVTarget &X) { return X.Name == T->Name; }))
      Fam.Targets.push_back(std::move(*T));
  }
  if (Fam.Targets.empty())
    return std::nullopt;
  sortMostCapableFirst(Fam.Targets);
  return Fam;
}

/// F.default and one clone per target, after F, from F's untouched body; then
/// the (empty) resolver after them, and its body.
void Cloner::makeVersions(Family &Fam) {
  Function *After = Fam.Orig;
  Fam.Default = After = makeVersion(Fam, nullptr, After);
  for (const MVTarget &T : Fam.Targets)
    Fam.Clones.push_back(After = makeVersion(Fam, &T, After));
  Fam.Resolver = Function::Create(FunctionType::get(PointerType::getUnqual(Ctx), false),
                                  GlobalValue::InternalLinkage, Fam.Name + ".resolver");
  M.getFunctionList().insertAfter(After->getIterator(), Fam.Resolver);
  Fam.Resolver->setDSOLocal(true);
  buildResolver(Fam);
}

bool Cloner::run() {
  collectFamilies();
  if (Families.empty())
    return false;
  // Versions first, from the untouched bodies; then the dispatch; then calls.
  for (Family &Fam : Families)
    makeVersions(Fam);
  for (size_t I = 0; I < Families.size(); ++I) {
    Family &Fam = Families[I];
    if (Dispatch == MVDispatch::IFunc)
      makeIFunc(Fam);
    else
      makeTable(Fam);
    Fam.Orig = nullptr;
    assert(!FamilyOfEntry.count(Fam.Entry) && "each family has its own entry");
    FamilyOfEntry[Fam.Entry] = I;
  }
  for (Family &Fam : Families)
    rewriteCalls(Fam);
  return true;
}

} // namespace

PreservedAnalyses MVClonePass::run(Module &M, ModuleAnalysisManager &) {
  MVDispatch Dispatch = Opts.Dispatch ? *Opts.Dispatch : MVDispatch::Auto;
  if (!Opts.Dispatch) {
    std::optional<MVDispatch> D = parseMVDispatch(MVDispatchOpt);
    if (!D)
      fatal("shard-mv", "-shard-mv-dispatch must be ifunc, table or auto");
    Dispatch = *D;
  }
  Triple TT(M.getTargetTriple());
  if (Dispatch == MVDispatch::Auto)
    Dispatch = TT.isOSBinFormatELF() ? MVDispatch::IFunc : MVDispatch::Table;
  std::string ForceName = Opts.Force ? *Opts.Force : MVForceOpt.getValue();
  std::optional<MVTarget> Force;
  bool ForceDefault = ForceName == "default";
  if (!ForceName.empty() && !ForceDefault) {
    std::string Err;
    Force = parseMVTarget(ForceName, Err);
    if (!Force)
      fatal("shard-mv", "force: " + Err);
  }
  bool Trace = Opts.Trace ? *Opts.Trace : MVTraceOpt.getValue();
  if (!Cloner(M, Dispatch, std::move(Force), ForceDefault, Trace).run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

void MVClonePass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-mv";
  SmallVector<std::string, 3> P;
  if (Opts.Dispatch)
    P.push_back(std::string("dispatch=") + (*Opts.Dispatch == MVDispatch::IFunc   ? "ifunc"
                                            : *Opts.Dispatch == MVDispatch::Table ? "table"
                                                                                  : "auto"));
  if (Opts.Force)
    P.push_back("force=" + *Opts.Force);
  if (Opts.Trace && *Opts.Trace)
    P.push_back("trace");
  if (!P.empty())
    OS << "<" << join(P, ";") << ">";
}

} // namespace shard
