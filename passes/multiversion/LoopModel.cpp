//===- LoopModel.cpp - Which loops the loop vectoriser takes --------------===//
//
// examineLoop() guesses, from the shape of an innermost loop, whether the loop
// vectoriser takes it, and records what the pricing needs: the loop control
// (paid once per interleaved group of iterations), the strided accesses (one
// access per lane) and the widest scalar type (which sets the vector width).
// Header phis must be inductions (affine add recurrences), reductions (every
// instruction on the cycle one kind of reduction step with one operand on the
// cycle; floating point only with reassoc or no-NaNs) or fixed-order
// recurrences; the first reason a loop is refused is kept for -debug output.
//
//===----------------------------------------------------------------------===//
#include "multiversion/LoopModel.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include <optional>

using namespace llvm;

namespace shard {

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

namespace {

/// Loops with a constant trip count below this stay scalar (the loop
/// vectoriser's own default, -vectorizer-min-trip-count).
constexpr unsigned TinyTripCount = 16;

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

/// Whether I can be a step of a reduction; notes floating-point steps (FP) and
/// floating-point steps that the vectoriser may not reorder (StrictFP).
bool isReductionOp(const Instruction *I, bool &StrictFP, bool &FP) {
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
      FP = true;
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

/// What the cycle of a header phi P that is not an induction is made of.
struct Recurrence {
  bool Reduction = false;     // every step a reduction step of one kind, one operand on the cycle
  bool StrictFP = false;      // a floating-point step that may not be reordered
  bool FP = false;            // a floating-point step
  bool FMAAddendOnly = false; // an fmuladd without reassoc carries the cycle in its addend only
};

/// The kind of arithmetic of a reduction step (a subtraction is an addition).
unsigned reductionKind(const Instruction *I) {
  unsigned Kind = I->getOpcode();
  if (const auto *II = dyn_cast<IntrinsicInst>(I))
    return Instruction::OtherOpsEnd + II->getIntrinsicID();
  if (Kind == Instruction::Sub)
    return Instruction::Add;
  if (Kind == Instruction::FSub)
    return Instruction::FAdd;
  return Kind;
}

/// The recurrence through P: Slice is sliceFrom(P), Next the value P takes from
/// the latch (null when not an instruction).
Recurrence examineRecurrence(const PHINode &P, const Instruction *Next,
                             const SmallPtrSetImpl<const Instruction *> &Slice) {
  Recurrence R;
  R.Reduction = Next && Slice.count(Next);
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
        R.FMAAddendOnly = true;
    if (!R.Reduction)
      continue;
    if (!isReductionOp(I, R.StrictFP, R.FP)) {
      R.Reduction = false;
      continue;
    }
    if (isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) || isa<PHINode>(I))
      continue;
    unsigned Kind = reductionKind(I);
    unsigned OnCycleOps =
        llvm::count_if(I->operands(), [&](const Use &U) { return OnCycle(U.get()); });
    if ((Op && *Op != Kind) || OnCycleOps != 1)
      R.Reduction = false;
    Op = Kind;
  }
  return R;
}

/// examineLoop() in steps; each check that fails records why (the first reason
/// wins) and the loop is then not vectorisable.
class LoopExaminer {
public:
  LoopExaminer(Loop *L, ScalarEvolution &SE)
      : L(L), SE(SE), Latch(L->getLoopLatch()), Exiting(L->getExitingBlock()) {}

  LoopFacts run() {
    checkShape();
    collectControl();
    for (PHINode &P : L->getHeader()->phis()) {
      if (!Latch)
        break;
      examineHeaderPhi(P);
    }
    bool VaryingAccess = false;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        examineInstruction(I, VaryingAccess);
    if (!VaryingAccess)
      fail("no memory access that varies with the loop");
    LF.Vectorisable = Ok && LF.WidestBits <= 64;
    return std::move(LF);
  }

private:
  Loop *L;
  ScalarEvolution &SE;
  BasicBlock *Latch, *Exiting;
  LoopFacts LF;
  bool Ok = true;

  void fail(const char *Why) {
    if (Ok)
      LF.WhyNot = Why;
    Ok = false;
  }

  /// One latch, one exit, and a trip count that is computable and not short.
  void checkShape() {
    if (!L->isInnermost() || !Latch || !Exiting)
      fail("not innermost, or several latches or exits");
    else if (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L)))
      fail("trip count not computable");
    else if (unsigned TC = SE.getSmallConstantTripCount(L); TC && TC < TinyTripCount)
      fail("a short constant trip count");
  }

  /// Loop control: branches, and the compare of the exiting branch.
  void collectControl() {
    for (BasicBlock *BB : L->blocks())
      LF.Control.insert(BB->getTerminator());
    if (Exiting)
      if (auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator()))
        if (Br->isConditional())
          if (auto *C = dyn_cast<Instruction>(Br->getCondition()))
            LF.Control.insert(C);
  }

  /// A header phi: an induction (its update is loop control), a reduction or a
  /// fixed-order recurrence.
  void examineHeaderPhi(PHINode &P) {
    auto *Next = dyn_cast<Instruction>(P.getIncomingValueForBlock(Latch));
    if (SE.isSCEVable(P.getType()))
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P)))
        if (AR->getLoop() == L && AR->isAffine()) {
          if (Next)
            LF.Control.insert(Next);
          return;
        }
    auto Slice = sliceFrom(&P, L);
    Recurrence R = examineRecurrence(P, Next, Slice);
    if (R.FMAAddendOnly && Next && Slice.count(Next))
      LF.StrictFMA = true;
    // A phi whose next value does not depend on it carries a value from one
    // iteration to the next (a fixed-order recurrence, which the vectoriser takes).
    bool FixedOrder = Next && !Slice.count(Next) && !isa<PHINode>(Next);
    if (!FixedOrder && !R.Reduction)
      fail("a recurrence that is not a reduction");
    else if (!FixedOrder && R.FP && R.StrictFP)
      fail("a strict floating-point reduction");
  }

  /// Calls, memory accesses and the types the loop computes with.
  void examineInstruction(Instruction &I, bool &VaryingAccess) {
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (isFreeIntrinsic(*II))
        return;
      if (!isTriviallyVectorizable(II->getIntrinsicID()))
        fail("an intrinsic that does not vectorise");
    } else if (isa<CallBase>(I)) {
      fail("a call");
    }
    if (isa<LoadInst>(I) || isa<StoreInst>(I))
      examineAccess(I, VaryingAccess);
    else if (I.isAtomic())
      fail("an atomic operation");
    Type *Ty = isa<StoreInst>(I) ? I.getOperand(0)->getType() : I.getType();
    if (Ty->isIntegerTy() || Ty->isFloatingPointTy()) {
      if (!LF.Control.count(&I) && !isa<PHINode>(I) && !isa<CmpInst>(I))
        LF.WidestBits = std::max<unsigned>(LF.WidestBits, Ty->getScalarSizeInBits());
    } else if (!Ty->isVoidTy() && !Ty->isPointerTy()) {
      fail("vector or aggregate values"); // already vectorised: leave it alone
    }
  }

  /// Memory: simple accesses at invariant or affine addresses (no gathers, no
  /// scatters such as a histogram's h[a[i]]++).
  void examineAccess(Instruction &I, bool &VaryingAccess) {
    Value *Ptr = getLoadStorePointerOperand(&I);
    bool Simple = isa<LoadInst>(I) ? cast<LoadInst>(I).isSimple() : cast<StoreInst>(I).isSimple();
    if (!Simple)
      fail("volatile or atomic memory access");
    if (L->isLoopInvariant(Ptr))
      return;
    VaryingAccess = true;
    // As the vectoriser sees it: assuming no wrap where a run-time check can
    // tell (a[sext(i * n + j)]).
    PredicatedScalarEvolution PSE(SE, *L);
    const SCEVAddRecExpr *AR = PSE.getAsAddRec(Ptr);
    if (!AR || AR->getLoop() != L || !AR->isAffine()) {
      fail("a memory access at a non-affine address");
      return;
    }
    // Consecutive elements make one vector access; any other stride costs an
    // access per lane.
    Type *ElemTy = getLoadStoreType(&I);
    const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    uint64_t Size = I.getModule()->getDataLayout().getTypeStoreSize(ElemTy);
    if (!Step || Step->getAPInt().getSExtValue() != int64_t(Size))
      LF.Scalarised.insert(&I);
  }
};

} // namespace

LoopFacts examineLoop(Loop *L, ScalarEvolution &SE) { return LoopExaminer(L, SE).run(); }

} // namespace shard
