//===- MVAnnotate.cpp - Choose the CPU targets each function is cloned for -===//
//
// shard-mv-annotate<targets=T1:T2:...> decides, per defined function and per
// target, whether a clone compiled for the target is expected to pay, and
// records the decision: !shard.mv !{!"T", ...} on chosen functions,
// !shard.mv.reason with a short reason per target on every function considered,
// and optimisation remarks (pass name "shard-mv-annotate": Passed for chosen
// targets, Missed for declined ones).
//
// The gain model asks the target's own cost model. A scratch copy of the
// function is put in SSA form (so that a front end's unoptimised IR, as the
// driver's phase 1 sees it, and the optimisation pipeline's IR read alike) and
// given, in turn, the baseline's and each target's "target-cpu" /
// "target-features"; TargetTransformInfo then prices every instruction
// (reciprocal throughput) for each pair (code compiled for X, CPU that has
// target Y). Innermost loops that the loop vectoriser can take (inductions,
// reductions and fixed-order recurrences only, a computable trip count of at
// least 16, one exit, memory at invariant or affine addresses, no calls but
// vectorisable intrinsics) cost the cheaper of their scalar and vector form, at
// the vector width TTI reports for X (128 bits at the baseline and x86-64-v2,
// 256 at x86-64-v3, and at x86-64-v4 too unless prefer-vector-width=512), with
// loop control amortised over an interleave of 4. Everything else costs its
// scalar form (where POPCNT, LZCNT, TZCNT and FMA show). Blocks weigh x8 per loop
// level (3 levels at most), and calls to functions that will probably be inlined
// add the callee's weighted cost. Costs that LLVM's tables give the same
// instruction on older and newer features are evened out (unbias()), and
// llvm.fmuladd without FMA costs an fmul and an fadd. A target is chosen when
// the predicted speedup of its clone over the baseline, and over every chosen
// less capable target that it implies, reaches the thresholds below. A
// loop-carried floating-point reduction through the addend of llvm.fmuladd
// without reassoc is predicted to lose on a target that adds FMA (the fused
// operation lengthens the chain), so such targets are declined.
//
//===----------------------------------------------------------------------===//
#include "cost/ShardCost.h"
#include "ir/Plan.h"
#include "ir/Support.h"
#include "multiversion/MV.h"
#include "multiversion/Targets.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include <cmath>
#include <map>
#include <memory>

using namespace llvm;

#define DEBUG_TYPE "shard-mv-annotate"

static cl::opt<std::string>
    MVTargetsOpt("shard-mv-targets", cl::init(""),
                 cl::desc("Shard: comma-separated x86-64 targets to multiversion functions for "
                          "(x86-64-v2, x86-64-v3, x86-64-v4 or CPU names); in clang -fpass-plugin, "
                          "turns shard-mv-annotate and shard-mv on before the loop vectoriser"));

static cl::opt<bool>
    MVDebugOpt("shard-mv-debug", cl::init(false), cl::Hidden,
               cl::desc("Shard: print the cost of every instruction shard-mv-annotate prices"));

namespace shard {

StringRef mvTargetsOption() { return MVTargetsOpt; }

namespace {

// Thresholds of the gain model (README, "CPU multiversioning").
/// A target is chosen when the function's predicted cost at the baseline is at
/// least this many times its predicted cost at the target ...
constexpr double MinSpeedup = 1.20;
/// ... or this many times for hot functions (attribute hot or profile data).
constexpr double MinSpeedupHot = 1.10;
/// A target that implies an already chosen one must beat that clone by as much.
/// The predicted gain must also be at least this many cost units (one simple
/// instruction outside loops), so that tiny functions are not cloned for noise.
constexpr double MinAbsoluteGain = 1.0;
/// The loop vectoriser interleaves and the unroller unrolls small innermost
/// loops: their control (induction update, exit compare, branch) is paid about
/// once per this many iterations (VF-wide iterations in the vector form).
constexpr double LoopInterleave = 4.0;
/// Loops with a constant trip count below this stay scalar (the loop
/// vectoriser's own default, -vectorizer-min-trip-count).
constexpr unsigned TinyTripCount = 16;
/// A baseline instruction whose cost is within this factor of the target's
/// cost at the same width is the same instruction (see unbias()).
constexpr double SameLoweringRatio = 4.0;
/// Weight of a block per loop level, and the deepest level counted.
constexpr double LoopWeight = 8.0;
constexpr unsigned MaxLoopDepth = 3;
/// A function is likely to be inlined (then its gain counts in its callers, and
/// it is not cloned itself) when it is called directly and has at most this
/// shard-cost, or is local with a single use that is a direct call.
constexpr uint64_t InlineLikelyCost = 50;
/// How deep the callee gains are followed.
constexpr unsigned MaxCalleeDepth = 3;

// InstructionCost::getValue() returns an optional in LLVM 19, the value in 22.
template <typename T> double unwrapCost(const std::optional<T> &V) { return double(*V); }
template <typename T> double unwrapCost(T V) { return double(V); }
double costValue(InstructionCost C) { return C.isValid() ? unwrapCost(C.getValue()) : INFINITY; }

bool isBitOp(Intrinsic::ID ID) {
  return ID == Intrinsic::ctpop || ID == Intrinsic::ctlz || ID == Intrinsic::cttz;
}
bool isFMAOp(Intrinsic::ID ID) { return ID == Intrinsic::fmuladd || ID == Intrinsic::fma; }

/// Intrinsics that cost nothing and do not stop vectorisation.
bool isFreeIntrinsic(const IntrinsicInst &II) {
  if (II.isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
    return true;
  switch (II.getIntrinsicID()) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::experimental_noalias_scope_decl:
    return true;
  default:
    return false;
  }
}

/// Categories of gain, for reasons people can read.
enum Category { CatVector, CatBitOps, CatFMA, CatScalar, NumCategories };
const char *const CategoryName[NumCategories] = {"vectorisable loops", "bit operations", "FMA",
                                                 "scalar code"};

/// A function's predicted cost under one subtarget, split by category.
struct Cost {
  double Total = 0;
  double ByCat[NumCategories] = {};
  void add(Category C, double V) {
    Total += V;
    ByCat[C] += V;
  }
  void addScaled(const Cost &O, double W) {
    Total += O.Total * W;
    for (unsigned I = 0; I < NumCategories; ++I)
      ByCat[I] += O.ByCat[I] * W;
  }
};

/// The subtarget attributes a function is priced under.
struct Subtarget {
  std::string CPU, Tune, FS;
  std::string key() const { return CPU + "|" + Tune + "|" + FS; }
};

/// Target-independent facts about one function (computed on the SSA copy).
struct Shape {
  bool HasLoops = false;
  bool HasInteresting = false; // bit operations or FP math that may gain
  bool StrictFMAChain = false; // loop-carried fmuladd reduction without reassoc
  std::string StrictFMAWhere;  // for the reason
};

/// A function priced on CPUs with each target's features: On[Y][X] is the
/// cost of the code compiled for subtarget X (0: the baseline, K: target K)
/// running on a CPU that has target Y (Y >= 1; only X = 0, X = Y and targets
/// that Y implies are priced).
struct Pricing {
  Shape Sh;
  std::vector<std::vector<Cost>> On;
};

class Annotator {
public:
  Annotator(Module &M, ModuleAnalysisManager &MAM, std::vector<MVTarget> Targets)
      : M(M), MAM(MAM), Targets(std::move(Targets)) {}
  void run();

private:
  Module &M;
  ModuleAnalysisManager &MAM;
  std::vector<MVTarget> Targets; // least capable first
  std::unique_ptr<TargetMachine> TM;
  std::string CommonCPU, CommonFS;
  SmallPtrSet<const Function *, 8> Resolvers;
  ProfileSummaryInfo *PSI = nullptr;
  // Memoised prices: (function, key of the subtargets) -> pricing.
  std::map<std::pair<const Function *, std::string>, Pricing> Memo;
  SmallPtrSet<const Function *, 8> InProgress;
  SmallPtrSet<const Function *, 32> LikelyInlined; // computed before any scratch copy

  std::optional<std::string> skipReason(Function &F);
  bool computeLikelyInlined(const Function &F) const;
  bool likelyInlined(const Function &F) const { return LikelyInlined.count(&F); }
  bool isHot(const Function &F) const;
  bool isCold(const Function &F) const;
  bool mayGain(const Function &F, unsigned Depth) const;
  /// F priced under Subs[0] (the baseline) and Subs[1..] (one per target);
  /// Depth limits the callee recursion.
  Pricing priceAt(Function &F, const std::vector<Subtarget> &Subs, unsigned Depth);
  Pricing analyse(Function &F, const std::vector<Subtarget> &Subs, unsigned Depth);
  void decide(Function &F);
};

bool Annotator::isHot(const Function &F) const {
  if (F.hasFnAttribute(Attribute::Hot))
    return true;
  return PSI && PSI->hasProfileSummary() && PSI->isFunctionEntryHot(&F);
}

bool Annotator::isCold(const Function &F) const {
  if (F.hasFnAttribute(Attribute::Cold))
    return true;
  return PSI && PSI->hasProfileSummary() && PSI->isFunctionEntryCold(&F);
}

bool Annotator::computeLikelyInlined(const Function &F) const {
  if (F.isDeclaration() || F.hasFnAttribute(Attribute::NoInline) || F.isInterposable())
    return false;
  unsigned Calls = 0, Others = 0;
  for (const Use &U : F.uses()) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    if (CB && CB->isCallee(&U) && CB->getFunction() != &F)
      ++Calls;
    else
      ++Others;
  }
  if (Calls == 0)
    return false;
  if (F.hasFnAttribute(Attribute::AlwaysInline))
    return true;
  if (getCost(F) <= InlineLikelyCost)
    return true;
  return F.hasLocalLinkage() && Calls == 1 && Others == 0;
}

/// A cheap test before any pricing: F, or a callee that will probably be
/// inlined into it, has a loop, a bit operation or an FMA candidate.
bool Annotator::mayGain(const Function &F, unsigned Depth) const {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 8> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  if (!BackEdges.empty())
    return true;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
        if (isBitOp(II->getIntrinsicID()) || isFMAOp(II->getIntrinsicID()))
          return true;
      } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
        const Function *Callee = CB->getCalledFunction();
        if (Callee && Callee != &F && Depth < MaxCalleeDepth && likelyInlined(*Callee) &&
            mayGain(*Callee, Depth + 1))
          return true;
      }
    }
  return false;
}

std::optional<std::string> Annotator::skipReason(Function &F) {
  if (F.hasFnAttribute("target_clones") || F.hasFnAttribute("target-version") ||
      F.hasFnAttribute("fmv-features"))
    return std::string("already multiversioned");
  if (std::optional<std::string> Why = unsafeReason(F))
    return Why;
  if (Resolvers.count(&F))
    return std::string("ifunc resolver");
  if (F.getFnAttribute("target-cpu").getValueAsString() != CommonCPU ||
      F.getFnAttribute("target-features").getValueAsString() != CommonFS)
    return std::string("already multiversioned (own target-cpu/target-features)");
  if (F.hasFnAttribute(Attribute::OptimizeNone))
    return std::string("optnone");
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->isInlineAsm())
          return std::string("inline asm");
  if (F.hasFnAttribute(Attribute::AlwaysInline))
    return std::string("always_inline");
  if (isCold(F))
    return std::string("cold");
  if (likelyInlined(F))
    return std::string("likely inlined into its callers");
  return std::nullopt;
}

/// The innermost loop L can probably be vectorised: inductions and reductions
/// only, one exit, a computable trip count, varying memory accesses, no calls
/// but vectorisable intrinsics. Sets StrictFMA when a header phi is carried
/// through the addend of an fmuladd without reassoc (a strict reduction).
struct LoopFacts {
  bool Vectorisable = false;
  bool StrictFMA = false;
  unsigned WidestBits = 8;
  SmallPtrSet<const Instruction *, 16> Control;   // induction updates, exit compare, branches
  SmallPtrSet<const Instruction *, 8> Scalarised; // loads and stores with a stride: one per lane
  const char *WhyNot = nullptr;                   // why it is not vectorisable
};

/// Instructions of L that depend on P (forward slice through in-loop users).
SmallPtrSet<const Instruction *, 16> sliceFrom(const PHINode *P, const Loop *L) {
  SmallPtrSet<const Instruction *, 16> S;
  SmallVector<const Instruction *, 16> Work{P};
  while (!Work.empty()) {
    const Instruction *I = Work.pop_back_val();
    for (const User *U : I->users()) {
      const auto *UI = dyn_cast<Instruction>(U);
      if (!UI || !L->contains(UI) || UI == P || UI->isTerminator() || !S.insert(UI).second)
        continue;
      if (isa<PHINode>(UI) && UI->getParent() == L->getHeader())
        continue; // another recurrence
      Work.push_back(UI);
    }
  }
  return S;
}

bool isReductionOp(const Instruction *I, bool &StrictFP, bool &FMA, bool &FP) {
  if (const auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin:
    case Intrinsic::smax:
    case Intrinsic::umin:
    case Intrinsic::umax:
      return true;
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
      FP = true;
      StrictFP |= !II->hasNoNaNs();
      return true;
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
      FP = FMA = true;
      StrictFP |= !II->hasAllowReassoc();
      return true;
    default:
      return false;
    }
  }
  switch (I->getOpcode()) {
  case Instruction::PHI: // a conditional step (if-converted into a select)
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::Select:
  case Instruction::ICmp:
  case Instruction::FCmp:
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt:
    return true;
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    FP = true;
    StrictFP |= !I->hasAllowReassoc();
    return true;
  default:
    return false;
  }
}

LoopFacts examineLoop(Loop *L, ScalarEvolution &SE) {
  LoopFacts LF;
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Exiting = L->getExitingBlock();
  bool Ok = true;
  auto Fail = [&](const char *Why) {
    if (Ok)
      LF.WhyNot = Why;
    Ok = false;
  };
  if (!L->isInnermost() || !Latch || !Exiting)
    Fail("not innermost, or several latches or exits");
  else if (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L)))
    Fail("trip count not computable");
  else if (unsigned TC = SE.getSmallConstantTripCount(L); TC && TC < TinyTripCount)
    Fail("a short constant trip count");
  // Loop control: branches, and the compare of the exiting branch.
  for (BasicBlock *BB : L->blocks())
    LF.Control.insert(BB->getTerminator());
  if (Exiting)
    if (auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator()))
      if (Br->isConditional())
        if (auto *C = dyn_cast<Instruction>(Br->getCondition()))
          LF.Control.insert(C);
  // Header phis: inductions (affine add recurrences) or reductions.
  for (PHINode &P : L->getHeader()->phis()) {
    if (!Latch)
      break;
    auto *Next = dyn_cast<Instruction>(P.getIncomingValueForBlock(Latch));
    if (SE.isSCEVable(P.getType()))
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P)))
        if (AR->getLoop() == L && AR->isAffine()) {
          if (Next)
            LF.Control.insert(Next);
          continue;
        }
    // A recurrence: every instruction on its cycle must be a reduction step
    // with exactly one operand on the cycle.
    auto Slice = sliceFrom(&P, L);
    bool StrictFP = false, FMA = false, FP = false, Reduction = Next && Slice.count(Next);
    bool FMAAddendOnly = false;
    auto OnCycle = [&](const Value *V) {
      const auto *I = dyn_cast<Instruction>(V);
      return V == &P || (I && Slice.count(I));
    };
    std::optional<unsigned> Op; // the one kind of arithmetic on the cycle
    for (const Instruction *I : Slice) {
      if (const auto *II = dyn_cast<IntrinsicInst>(I))
        if (isFMAOp(II->getIntrinsicID()) && OnCycle(II->getArgOperand(2)) &&
            !OnCycle(II->getArgOperand(0)) && !OnCycle(II->getArgOperand(1)) &&
            !II->hasAllowReassoc())
          FMAAddendOnly = true;
      if (!Reduction)
        continue;
      if (!isReductionOp(I, StrictFP, FMA, FP)) {
        Reduction = false;
        continue;
      }
      if (isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) || isa<PHINode>(I))
        continue;
      unsigned Kind = I->getOpcode();
      if (const auto *II = dyn_cast<IntrinsicInst>(I))
        Kind = Instruction::OtherOpsEnd + II->getIntrinsicID();
      else if (Kind == Instruction::Sub)
        Kind = Instruction::Add;
      else if (Kind == Instruction::FSub)
        Kind = Instruction::FAdd;
      unsigned OnCycleOps =
          llvm::count_if(I->operands(), [&](const Use &U) { return OnCycle(U.get()); });
      if ((Op && *Op != Kind) || OnCycleOps != 1)
        Reduction = false;
      Op = Kind;
    }
    if (FMAAddendOnly && Next && Slice.count(Next))
      LF.StrictFMA = true;
    // A phi whose next value does not depend on it carries a value from one
    // iteration to the next (a fixed-order recurrence, which the vectoriser takes).
    bool FixedOrder = Next && !Slice.count(Next) && !isa<PHINode>(Next);
    if (!FixedOrder && !Reduction)
      Fail("a recurrence that is not a reduction");
    else if (!FixedOrder && FP && StrictFP)
      Fail("a strict floating-point reduction");
  }
  bool VaryingAccess = false;
  for (BasicBlock *BB : L->blocks()) {
    for (Instruction &I : *BB) {
      if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        if (isFreeIntrinsic(*II))
          continue;
        if (!isTriviallyVectorizable(II->getIntrinsicID()))
          Fail("an intrinsic that does not vectorise");
      } else if (isa<CallBase>(I)) {
        Fail("a call");
      }
      // Memory: simple accesses at invariant or affine addresses (no gathers,
      // no scatters such as a histogram's h[a[i]]++).
      if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
        Value *Ptr = getLoadStorePointerOperand(&I);
        bool Simple =
            isa<LoadInst>(I) ? cast<LoadInst>(I).isSimple() : cast<StoreInst>(I).isSimple();
        if (!Simple)
          Fail("volatile or atomic memory access");
        if (!L->isLoopInvariant(Ptr)) {
          VaryingAccess = true;
          // As the vectoriser sees it: assuming no wrap where a run-time check
          // can tell (a[sext(i * n + j)]).
          PredicatedScalarEvolution PSE(SE, *L);
          const SCEVAddRecExpr *AR = PSE.getAsAddRec(Ptr);
          if (!AR || AR->getLoop() != L || !AR->isAffine()) {
            Fail("a memory access at a non-affine address");
          } else {
            // Consecutive elements make one vector access; any other stride
            // costs an access per lane.
            Type *ElemTy = getLoadStoreType(&I);
            const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
            uint64_t Size = I.getModule()->getDataLayout().getTypeStoreSize(ElemTy);
            if (!Step || Step->getAPInt().getSExtValue() != int64_t(Size))
              LF.Scalarised.insert(&I);
          }
        }
      } else if (I.isAtomic()) {
        Fail("an atomic operation");
      }
      Type *Ty = isa<StoreInst>(I) ? I.getOperand(0)->getType() : I.getType();
      if (Ty->isIntegerTy() || Ty->isFloatingPointTy()) {
        if (!LF.Control.count(&I) && !isa<PHINode>(I) && !isa<CmpInst>(I))
          LF.WidestBits = std::max<unsigned>(LF.WidestBits, Ty->getScalarSizeInBits());
      } else if (!Ty->isVoidTy() && !Ty->isPointerTy()) {
        Fail("vector or aggregate values"); // already vectorised: leave it alone
      }
    }
  }
  if (!VaryingAccess)
    Fail("no memory access that varies with the loop");
  LF.Vectorisable = Ok && LF.WidestBits <= 64;
  return LF;
}

Category categoryOf(const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (isBitOp(II->getIntrinsicID()))
      return CatBitOps;
    if (isFMAOp(II->getIntrinsicID()))
      return CatFMA;
  }
  return CatScalar;
}

double scalarCost(const TargetTransformInfo &TTI, const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    if (isFreeIntrinsic(*II))
      return 0;
  if (isa<PHINode>(I) || isa<GetElementPtrInst>(I) || isa<AllocaInst>(I))
    return 0;
  return costValue(TTI.getInstructionCost(&I, TargetTransformInfo::TCK_RecipThroughput));
}

/// Cost of I widened to VF lanes (INFINITY when it cannot be widened).
double vectorCost(const TargetTransformInfo &TTI, const Instruction &I, unsigned VF) {
  auto Kind = TargetTransformInfo::TCK_RecipThroughput;
  auto Vec = [&](Type *T) -> Type * {
    if (T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy())
      return FixedVectorType::get(T, VF);
    return nullptr;
  };
  if (isa<PHINode>(I) || isa<GetElementPtrInst>(I))
    return 0;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (isFreeIntrinsic(*II))
      return 0;
    SmallVector<Type *, 4> Args;
    for (const Value *A : II->args()) {
      bool KeepScalar = isa<ConstantInt>(A) && A->getType()->isIntegerTy(1);
      Type *T = KeepScalar ? A->getType() : Vec(A->getType());
      if (!T)
        return INFINITY;
      Args.push_back(T);
    }
    Type *R = Vec(II->getType());
    if (!R)
      return INFINITY;
    IntrinsicCostAttributes ICA(II->getIntrinsicID(), R, Args);
    return costValue(TTI.getIntrinsicInstrCost(ICA, Kind));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(&I)) // uniform constants matter (shifts)
    return costValue(
        TTI.getArithmeticInstrCost(BO->getOpcode(), Vec(BO->getType()), Kind,
                                   TargetTransformInfo::getOperandInfo(BO->getOperand(0)),
                                   TargetTransformInfo::getOperandInfo(BO->getOperand(1))));
  if (const auto *UO = dyn_cast<UnaryOperator>(&I))
    return costValue(TTI.getArithmeticInstrCost(UO->getOpcode(), Vec(UO->getType()), Kind));
  if (const auto *C = dyn_cast<CmpInst>(&I)) {
    Type *OpTy = Vec(C->getOperand(0)->getType());
    if (!OpTy)
      return INFINITY;
    return costValue(TTI.getCmpSelInstrCost(
        C->getOpcode(), OpTy, Vec(Type::getInt1Ty(I.getContext())), C->getPredicate(), Kind));
  }
  if (const auto *S = dyn_cast<SelectInst>(&I)) {
    Type *T = Vec(S->getType());
    if (!T)
      return INFINITY;
    return costValue(TTI.getCmpSelInstrCost(Instruction::Select, T,
                                            Vec(Type::getInt1Ty(I.getContext())),
                                            CmpInst::BAD_ICMP_PREDICATE, Kind));
  }
  if (const auto *C = dyn_cast<CastInst>(&I)) {
    Type *D = Vec(C->getDestTy()), *S = Vec(C->getSrcTy());
    if (!D || !S)
      return INFINITY;
    return costValue(TTI.getCastInstrCost(C->getOpcode(), D, S,
                                          TargetTransformInfo::CastContextHint::None, Kind));
  }
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    Type *T = Vec(L->getType());
    if (!T)
      return INFINITY;
    return costValue(TTI.getMemoryOpCost(Instruction::Load, T, L->getAlign(),
                                         L->getPointerAddressSpace(), Kind));
  }
  if (const auto *St = dyn_cast<StoreInst>(&I)) {
    Type *T = Vec(St->getValueOperand()->getType());
    if (!T)
      return INFINITY;
    return costValue(TTI.getMemoryOpCost(Instruction::Store, T, St->getAlign(),
                                         St->getPointerAddressSpace(), Kind));
  }
  return INFINITY;
}

double blockWeight(const LoopInfo &LI, const BasicBlock *BB) {
  return std::pow(LoopWeight, std::min(LI.getLoopDepth(BB), MaxLoopDepth));
}

Pricing Annotator::priceAt(Function &F, const std::vector<Subtarget> &Subs, unsigned Depth) {
  std::string Key;
  for (const Subtarget &ST : Subs)
    Key += ST.key() + ";";
  auto It = Memo.find({&F, Key});
  if (It != Memo.end())
    return It->second;
  if (!InProgress.insert(&F).second) { // recursion: count nothing more
    Pricing P;
    P.On.assign(Subs.size(), std::vector<Cost>(Subs.size()));
    return P;
  }
  Pricing P = analyse(F, Subs, Depth);
  InProgress.erase(&F);
  Memo[{&F, Key}] = P;
  return P;
}

/// The cost of an instruction of code compiled for a less capable subtarget, as
/// run on a CPU that has the target. LLVM's X86 cost tables are keyed by
/// features and describe the CPUs that introduced them: an SSE2 fmul costs twice
/// an SSE4.2 one, an AVX2 vpmulld four times an AVX-512 one, for the same
/// instruction. A cost within SameLoweringRatio of the target's at the same
/// vector width is therefore taken to be the same instruction and priced by the
/// target's tables; a larger difference is a different lowering (POPCNT or
/// LZCNT missing, a vector ctlz emulated, ...) and keeps its own cost. (Smaller
/// real differences, such as pmulld or pmaxsd emulated with SSE2, are missed.)
double unbias(double BaseCost, double TargetCost) {
  if (BaseCost <= SameLoweringRatio * TargetCost)
    return std::min(BaseCost, TargetCost);
  return BaseCost;
}

/// Scalar instructions whose lowering a newer x86-64 target changes: bit counts
/// (POPCNT, LZCNT, TZCNT), unsigned and half-precision conversions (AVX-512,
/// F16C). Every other scalar instruction is the same instruction on every
/// target, whatever LLVM's tables for older features say (an SSE2 divsd costs
/// 38 there, 4 in the AVX-512 tables).
bool scalarLoweringVaries(const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return isBitOp(II->getIntrinsicID());
  if (isa<UIToFPInst>(I) || isa<FPToUIInst>(I))
    return true;
  if (isa<FPExtInst>(I) || isa<FPTruncInst>(I))
    return I.getType()->isHalfTy() || I.getOperand(0)->getType()->isHalfTy();
  return false;
}

/// llvm.fmuladd / llvm.fma without FMA: fmul + fadd (priced by the target's tables).
double unfusedCost(const TargetTransformInfo &TTI, const IntrinsicInst &II, unsigned VF) {
  Type *Ty = II.getType();
  if (VF > 1)
    Ty = FixedVectorType::get(Ty, VF);
  auto Kind = TargetTransformInfo::TCK_RecipThroughput;
  return costValue(TTI.getArithmeticInstrCost(Instruction::FMul, Ty, Kind)) +
         costValue(TTI.getArithmeticInstrCost(Instruction::FAdd, Ty, Kind));
}

Pricing Annotator::analyse(Function &F, const std::vector<Subtarget> &Subs, unsigned Depth) {
  size_t NS = Subs.size();
  Pricing P;
  P.On.assign(NS, std::vector<Cost>(NS));
  Shape &Sh = P.Sh;
  // Which code runs on which CPU: the baseline and every target Y implies.
  auto Runs = [&](size_t X, size_t Y) {
    return X == 0 || X == Y || Targets[Y - 1].implies(Targets[X - 1]);
  };
  // A scratch copy in SSA form; each subtarget's TTI is made while the copy
  // carries that subtarget's attributes (X86 TTI reads them once).
  ValueToValueMapTy VMap;
  Function *S = CloneFunction(&F, VMap);
  S->setLinkage(GlobalValue::InternalLinkage);
  S->setMetadata(MVMD, nullptr);
  {
    std::vector<TargetTransformInfo> TTIs;
    std::vector<unsigned> RegBits;
    std::vector<bool> HasFMA;
    for (const Subtarget &ST : Subs) {
      S->addFnAttr("target-cpu", ST.CPU);
      S->addFnAttr("target-features", ST.FS);
      if (ST.Tune.empty())
        S->removeFnAttr("tune-cpu");
      else
        S->addFnAttr("tune-cpu", ST.Tune);
      TTIs.push_back(TM->getTargetTransformInfo(*S));
      RegBits.push_back(TTIs.back()
                            .getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
                            .getFixedValue());
      HasFMA.push_back(effectiveFeatures(ST.CPU, ST.FS).lookup("fma"));
    }

    DominatorTree DT(*S);
    SmallVector<AllocaInst *, 16> Allocas;
    for (Instruction &I : S->getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (isAllocaPromotable(AI))
          Allocas.push_back(AI);
    if (!Allocas.empty())
      PromoteMemToReg(Allocas, DT);
    LoopInfo LI(DT);
    TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
    TargetLibraryInfo TLI(TLII, S);
    AssumptionCache AC(*S);
    ScalarEvolution SE(*S, TLI, AC, DT, LI);

    // Cost of I in code for X on a CPU with Y, at VF lanes (1: scalar).
    auto Price = [&](const Instruction &I, size_t X, size_t Y, unsigned VF) -> double {
      const TargetTransformInfo &TX = TTIs[X], &TY = TTIs[Y];
      auto At = [&](const TargetTransformInfo &TTI) {
        return VF == 1 ? scalarCost(TTI, I) : vectorCost(TTI, I, VF);
      };
      if (const auto *II = dyn_cast<IntrinsicInst>(&I))
        if (isFMAOp(II->getIntrinsicID()) && !HasFMA[X])
          return unfusedCost(TY, *II, VF);
      if (X == Y || (VF == 1 && !scalarLoweringVaries(I)))
        return At(TY);
      return unbias(At(TX), At(TY));
    };

    Sh.HasLoops = !LI.empty();
    SmallPtrSet<const BasicBlock *, 32> InVectorLoop;
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost())
        continue;
      LoopFacts LF = examineLoop(L, SE);
      if (LF.StrictFMA && !Sh.StrictFMAChain) {
        Sh.StrictFMAChain = true;
        if (DebugLoc DL = L->getStartLoc())
          Sh.StrictFMAWhere = "line " + std::to_string(DL.getLine());
      }
      if (MVDebugOpt)
        errs() << "shard-mv-debug: " << F.getName() << " loop " << L->getHeader()->getName()
               << (LF.Vectorisable ? " vectorisable" : " not vectorisable: ")
               << (LF.WhyNot ? LF.WhyNot : "") << "\n";
      if (!LF.Vectorisable || RegBits[0] / LF.WidestBits < 2)
        continue;
      for (BasicBlock *BB : L->blocks())
        InVectorLoop.insert(BB);
      double W = std::pow(LoopWeight, std::min(L->getLoopDepth(), MaxLoopDepth));
      for (size_t Y = 1; Y < NS; ++Y)
        for (size_t X = 0; X < NS; ++X) {
          if (!Runs(X, Y))
            continue;
          unsigned VF = std::max(RegBits[X] / LF.WidestBits, 1u);
          // Per iteration: the scalar form and the vector form (one VF-wide
          // iteration per VF); the vectoriser takes the cheaper. Everything but
          // bit operations and FMA counts as loop work, in either form.
          Cost Sc, Ve;
          for (BasicBlock *BB : L->blocks())
            for (Instruction &I : *BB) {
              Category Cat = categoryOf(I) == CatScalar ? CatVector : categoryOf(I);
              double SC = Price(I, X, Y, 1);
              if (LF.Control.count(&I)) {
                Sc.add(Cat, SC / LoopInterleave);
                Ve.add(Cat, SC / (VF * LoopInterleave));
              } else if (LF.Scalarised.count(&I)) {
                Sc.add(Cat, SC);
                Ve.add(Cat, SC + 1); // a scalar access and a lane insert or extract
              } else {
                Sc.add(Cat, SC);
                Ve.add(Cat, VF >= 2 ? Price(I, X, Y, VF) / VF : INFINITY);
                if (MVDebugOpt && VF >= 2)
                  errs() << "shard-mv-debug:   code=" << Subs[X].CPU << " cpu=" << Subs[Y].CPU
                         << " scalar=" << SC << " vector=" << Price(I, X, Y, VF) << ":" << I
                         << "\n";
              }
            }
          P.On[Y][X].addScaled(Ve.Total < Sc.Total ? Ve : Sc, W);
          if (MVDebugOpt)
            errs() << "shard-mv-debug: " << F.getName() << " loop " << L->getHeader()->getName()
                   << " weight=" << W << " code=" << Subs[X].CPU << " cpu=" << Subs[Y].CPU
                   << " scalar=" << Sc.Total << " vector(VF=" << VF << ")=" << Ve.Total << "\n";
        }
    }
    for (BasicBlock &BB : *S) {
      if (InVectorLoop.count(&BB))
        continue;
      double W = blockWeight(LI, &BB);
      for (Instruction &I : BB) {
        if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
          Intrinsic::ID ID = II->getIntrinsicID();
          Sh.HasInteresting |= isBitOp(ID) || isFMAOp(ID);
        }
        for (size_t Y = 1; Y < NS; ++Y)
          for (size_t X = 0; X < NS; ++X)
            if (Runs(X, Y)) {
              double C = Price(I, X, Y, 1);
              P.On[Y][X].add(categoryOf(I), W * C);
              if (MVDebugOpt && X == 0 && C != Price(I, Y, Y, 1))
                errs() << "shard-mv-debug: " << F.getName() << " weight=" << W << " base=" << C
                       << " " << Subs[Y].CPU << "=" << Price(I, Y, Y, 1) << ":" << I << "\n";
            }
        // Calls to functions that will probably be inlined: their cost counts here.
        auto *CB = dyn_cast<CallBase>(&I);
        Function *Callee = CB ? CB->getCalledFunction() : nullptr;
        if (!Callee || Callee == &F || Depth >= MaxCalleeDepth || !likelyInlined(*Callee))
          continue;
        Pricing CP = priceAt(*Callee, Subs, Depth + 1);
        for (size_t Y = 1; Y < NS; ++Y)
          for (size_t X = 0; X < NS; ++X)
            P.On[Y][X].addScaled(CP.On[Y][X], W);
        Sh.HasLoops |= CP.Sh.HasLoops;
        Sh.HasInteresting |= CP.Sh.HasInteresting;
        if (CP.Sh.StrictFMAChain && !Sh.StrictFMAChain) {
          Sh.StrictFMAChain = true;
          Sh.StrictFMAWhere = "in inlined " + Callee->getName().str();
        }
      }
    }
    for (const BasicBlock *BB : InVectorLoop)
      for (const Instruction &I : *BB)
        if (auto *II = dyn_cast<IntrinsicInst>(&I))
          Sh.HasInteresting |= isBitOp(II->getIntrinsicID()) || isFMAOp(II->getIntrinsicID());
  }
  S->eraseFromParent();
  return P;
}

std::string formatCost(double X) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%.1f", X);
  return S;
}

std::string formatSpeedup(double X) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%.2fx", X);
  return S;
}

/// The categories that gained most (up to two), for the reason text.
std::string mainGains(const Cost &Base, const Cost &T) {
  SmallVector<std::pair<double, unsigned>, 4> G;
  for (unsigned I = 0; I < NumCategories; ++I)
    if (Base.ByCat[I] - T.ByCat[I] > 0.5)
      G.push_back({Base.ByCat[I] - T.ByCat[I], I});
  llvm::sort(G, [](auto &A, auto &B) {
    return A.first > B.first || (A.first == B.first && A.second < B.second);
  });
  std::string S;
  for (unsigned I = 0; I < G.size() && I < 2; ++I)
    S += std::string(I ? ", " : "") + CategoryName[G[I].second];
  return S;
}

void Annotator::decide(Function &F) {
  LLVMContext &Ctx = F.getContext();
  OptimizationRemarkEmitter ORE(&F);
  SmallVector<Metadata *, 4> Reasons, Chosen;
  auto Record = [&](const std::string &R) { Reasons.push_back(MDString::get(Ctx, R)); };
  auto Finish = [&]() {
    F.setMetadata(MVReasonMD, MDNode::get(Ctx, Reasons));
    F.setMetadata(MVMD, Chosen.empty() ? nullptr : MDNode::get(Ctx, Chosen));
  };
  auto DeclineAll = [&](const std::string &Why) {
    Record("not multiversioned: " + Why);
    ORE.emit([&]() {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotMultiversioned", &F)
             << "declined all targets: " << Why;
    });
    Finish();
  };

  if (std::optional<std::string> Why = skipReason(F))
    return DeclineAll(*Why);
  if (!mayGain(F, 0))
    return DeclineAll("no loops or bit operations");

  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  StringRef FS = F.getFnAttribute("target-features").getValueAsString();
  std::vector<Subtarget> Subs{
      {CPU.str(), F.getFnAttribute("tune-cpu").getValueAsString().str(), FS.str()}};
  for (const MVTarget &T : Targets)
    Subs.push_back({T.Name, T.Name, cloneFeatures(FS, T)});
  Pricing P = priceAt(F, Subs, 0);
  if (!P.Sh.HasLoops && !P.Sh.HasInteresting)
    return DeclineAll("no loops or bit operations");

  StringMap<bool> BaseFeats = effectiveFeatures(CPU, FS);
  double Bar = isHot(F) ? MinSpeedupHot : MinSpeedup;
  struct Taken {
    const MVTarget *T;
    double Speedup, Gain;
  };
  std::vector<Taken> Chose;
  for (size_t K = 0; K < Targets.size(); ++K) {
    const MVTarget &T = Targets[K];
    std::string Why;
    bool Ok = false;
    double Speedup = 1, Gain = 0;
    bool InBaseline = llvm::all_of(T.Features, [&](const std::string &Feat) {
      auto It = BaseFeats.find(Feat);
      return It != BaseFeats.end() && It->second;
    });
    if (InBaseline) {
      Why = "the baseline already has every feature of " + T.Name;
    } else if (T.has("fma") && !BaseFeats.lookup("fma") && P.Sh.StrictFMAChain) {
      Why = "FMA lengthens a loop-carried strict FP reduction (fmuladd without reassoc";
      Why += P.Sh.StrictFMAWhere.empty() ? ")" : ", " + P.Sh.StrictFMAWhere + ")";
    } else {
      const Cost &B = P.On[K + 1][0], &C = P.On[K + 1][K + 1];
      Gain = B.Total - C.Total;
      Speedup = C.Total > 0 ? B.Total / C.Total : 1.0;
      // Against the best chosen target that T implies, on a CPU that has T.
      const Taken *Prev = nullptr;
      double PrevCost = 0;
      for (const Taken &X : Chose) {
        if (!T.implies(*X.T))
          continue;
        size_t XI = X.T - Targets.data() + 1;
        double XC = P.On[K + 1][XI].Total;
        if (!Prev || XC < PrevCost)
          Prev = &X, PrevCost = XC;
      }
      double Over = C.Total > 0 && Prev ? PrevCost / C.Total : 1.0;
      if (Speedup < Bar) {
        Why = "predicted " + formatSpeedup(Speedup) + ", below " + formatSpeedup(Bar);
      } else if (Gain < MinAbsoluteGain) {
        Why = "predicted gain too small (" + formatCost(Gain) + " < " +
              formatCost(MinAbsoluteGain) + ")";
      } else if (Prev && (Over < Bar || PrevCost - C.Total < MinAbsoluteGain)) {
        Why = "predicted " + formatSpeedup(Over) + " over " + Prev->T->Name + ", below " +
              formatSpeedup(Bar);
      } else {
        Ok = true;
        Why = "predicted " + formatSpeedup(Speedup) + " (" + mainGains(B, C) + ")";
      }
    }
    if (Ok) {
      Chose.push_back({&T, Speedup, Gain});
      Chosen.push_back(MDString::get(Ctx, T.Name));
      Record(T.Name + ": chosen: " + Why);
      ORE.emit([&]() {
        return OptimizationRemark(DEBUG_TYPE, "Multiversioned", &F)
               << "multiversioned for " << T.Name << ": " << Why;
      });
    } else {
      Record(T.Name + ": declined: " + Why);
      ORE.emit([&]() {
        return OptimizationRemarkMissed(DEBUG_TYPE, "Declined", &F)
               << "declined " << T.Name << ": " << Why;
      });
    }
  }
  Finish();
}

void Annotator::run() {
  // The baseline every candidate must share: the most common subtarget.
  std::map<std::pair<std::string, std::string>, unsigned> Count;
  for (Function &F : M)
    if (!F.isDeclaration())
      ++Count[{F.getFnAttribute("target-cpu").getValueAsString().str(),
               F.getFnAttribute("target-features").getValueAsString().str()}];
  unsigned Best = 0;
  for (auto &[Key, N] : Count)
    if (N > Best) {
      Best = N;
      CommonCPU = Key.first;
      CommonFS = Key.second;
    }
  for (GlobalIFunc &GI : M.ifuncs())
    if (auto *R = dyn_cast<Function>(GI.getResolver()->stripPointerCasts()))
      Resolvers.insert(R);
  PSI = MAM.getCachedResult<ProfileSummaryAnalysis>(M);
  if (!PSI && M.getProfileSummary(/*IsCS=*/false))
    PSI = &MAM.getResult<ProfileSummaryAnalysis>(M);

  Triple TT(M.getTargetTriple());
  std::string Err;
  if (TT.getArch() == Triple::x86_64)
    TM = createTargetMachine(TT, std::nullopt, Err);
  SmallVector<Function *, 64> Work;
  for (Function &F : M)
    if (!F.isDeclaration()) {
      Work.push_back(&F);
      if (computeLikelyInlined(F))
        LikelyInlined.insert(&F);
    }
  for (Function *F : Work) {
    if (!TM) {
      LLVMContext &Ctx = F->getContext();
      std::string Why = TT.getArch() == Triple::x86_64 ? "no x86-64 target available (" + Err + ")"
                                                       : "the module's target is not x86-64";
      F->setMetadata(MVReasonMD,
                     MDNode::get(Ctx, MDString::get(Ctx, "not multiversioned: " + Why)));
      F->setMetadata(MVMD, nullptr);
      continue;
    }
    decide(*F);
  }
}

} // namespace

PreservedAnalyses MVAnnotatePass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::vector<MVTarget> Ts;
  std::string Err;
  StringRef List = Targets.empty() ? mvTargetsOption() : StringRef(Targets);
  if (!parseMVTargetList(List, Ts, Err))
    fatal("shard-mv-annotate", Err);
  if (Ts.empty())
    return PreservedAnalyses::all();
  // Least capable first: a more capable target must beat the clones it implies.
  sortMostCapableFirst(Ts);
  std::reverse(Ts.begin(), Ts.end());
  Annotator(M, MAM, std::move(Ts)).run();
  return PreservedAnalyses::all();
}

void MVAnnotatePass::printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << "shard-mv-annotate";
  if (!Targets.empty())
    OS << "<targets=" << Targets << ">";
}

} // namespace shard
