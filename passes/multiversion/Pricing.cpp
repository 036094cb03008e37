//===- Pricing.cpp - A function's predicted cost per subtarget -----------===//
//
// Pricer::priceAt() prices a function for every pair (code compiled for
// subtarget X, CPU that has target Y). A scratch copy of the function is put in
// SSA form (so that a front end's unoptimised IR, as the driver's phase 1 sees
// it, and the optimisation pipeline's IR read alike) and given, in turn, the
// baseline's and each target's "target-cpu" / "target-features";
// TargetTransformInfo then prices every instruction (reciprocal throughput).
//
// Innermost loops that the loop vectoriser probably takes (LoopModel.h) cost
// the cheaper of their scalar and vector form, at the vector width TTI reports
// for X (128 bits at the baseline and x86-64-v2, 256 at x86-64-v3, and at
// x86-64-v4 too unless prefer-vector-width=512), with loop control amortised
// over LoopInterleave iterations. Everything else costs its scalar form (where
// POPCNT, LZCNT, TZCNT and FMA show). Blocks weigh LoopWeight per loop level
// (MaxLoopDepth levels at most), and calls to functions that will probably be
// inlined add the callee's weighted cost. Costs that LLVM's tables give the
// same instruction on older and newer features are evened out (unbias()), and
// llvm.fmuladd without FMA costs an fmul and an fadd.
//
//===----------------------------------------------------------------------===//
#include "multiversion/Pricing.h"
#include "multiversion/LoopModel.h"
#include "multiversion/Targets.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include <cmath>

using namespace llvm;

#define DEBUG_TYPE "shard-mv-annotate"

namespace shard {

namespace {

/// The loop vectoriser interleaves and the unroller unrolls small innermost
/// loops: their control (induction update, exit compare, branch) is paid about
/// once per this many iterations (VF-wide iterations in the vector form).
constexpr double LoopInterleave = 4.0;
/// A baseline instruction whose cost is within this factor of the target's
/// cost at the same width is the same instruction (see unbias()).
constexpr double SameLoweringRatio = 4.0;
/// Weight of a block per loop level, and the deepest level counted.
constexpr double LoopWeight = 8.0;
constexpr unsigned MaxLoopDepth = 3;

// InstructionCost::getValue() returns an optional in LLVM 19, the value in 22.
template <typename T> double unwrapCost(const std::optional<T> &V) { return double(*V); }
template <typename T> double unwrapCost(T V) { return double(V); }
double costValue(InstructionCost C) { return C.isValid() ? unwrapCost(C.getValue()) : INFINITY; }

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
  assert(VF > 1 && "a vector form has more than one lane");
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

double loopLevelWeight(unsigned Depth) {
  return std::pow(LoopWeight, std::min(Depth, MaxLoopDepth));
}

/// The cost of an instruction of code compiled for a less capable subtarget, as
/// run on a CPU that has the target. LLVM's X86 cost tables are keyed by
/// features and describe the CPUs that introduced them: an SSE2 fmul costs more
/// than an SSE4.2 one, an AVX2 vpmulld more than an AVX-512 one, for the same
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
/// target, whatever LLVM's tables for older features say (they give an SSE2
/// divsd many times the cost the AVX-512 tables give it).
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

/// The cost model of each subtarget, made from a scratch copy that carries the
/// subtarget's attributes in turn (X86 TTI reads them once).
struct SubtargetModels {
  std::vector<TargetTransformInfo> TTIs;
  std::vector<unsigned> RegBits; // the widest fixed vector register
  std::vector<bool> HasFMA;

  SubtargetModels(TargetMachine &TM, Function &S, const std::vector<Subtarget> &Subs) {
    for (const Subtarget &ST : Subs) {
      S.addFnAttr("target-cpu", ST.CPU);
      S.addFnAttr("target-features", ST.FS);
      if (ST.Tune.empty())
        S.removeFnAttr("tune-cpu");
      else
        S.addFnAttr("tune-cpu", ST.Tune);
      TTIs.push_back(TM.getTargetTransformInfo(S));
      RegBits.push_back(TTIs.back()
                            .getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
                            .getFixedValue());
      HasFMA.push_back(effectiveFeatures(ST.CPU, ST.FS).lookup("fma"));
    }
  }

  /// Cost of I in code for X on a CPU with Y, at VF lanes (1: scalar).
  double price(const Instruction &I, size_t X, size_t Y, unsigned VF) const {
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
  }
};

/// Puts the allocas of S's entry block that can be promoted in SSA form.
void promoteAllocas(Function &S, DominatorTree &DT) {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : S.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (!Allocas.empty())
    PromoteMemToReg(Allocas, DT);
}

/// Fills one Pricing from the SSA copy of F: first the vectorisable innermost
/// loops, then every other block, with the calls it makes to functions that
/// will probably be inlined.
class FunctionPricer {
public:
  FunctionPricer(Pricer &Prices, const Function &F, const std::vector<Subtarget> &Subs,
                 const SubtargetModels &Models, unsigned Depth, Pricing &P)
      : Prices(Prices), F(F), Subs(Subs), Models(Models), Depth(Depth), P(P), NS(Subs.size()) {
    assert(P.On.size() == NS && Models.TTIs.size() == NS && "one cost per subtarget");
  }

  void priceVectorLoops(const LoopInfo &LI, ScalarEvolution &SE);
  void priceOtherBlocks(Function &S, const LoopInfo &LI);
  void noteInterestingInVectorLoops();

private:
  Pricer &Prices;
  const Function &F;
  const std::vector<Subtarget> &Subs;
  const SubtargetModels &Models;
  unsigned Depth;
  Pricing &P;
  size_t NS;
  SmallPtrSet<const BasicBlock *, 32> InVectorLoop;

  double price(const Instruction &I, size_t X, size_t Y, unsigned VF) const {
    return Models.price(I, X, Y, VF);
  }
  void priceLoopAt(const Loop &L, const LoopFacts &LF, size_t X, size_t Y, double W);
  void priceInstruction(const Instruction &I, double W);
  void addCallee(Function &Callee, double W);
};

void FunctionPricer::priceVectorLoops(const LoopInfo &LI, ScalarEvolution &SE) {
  Shape &Sh = P.Sh;
  Sh.HasLoops = !LI.empty();
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    LoopFacts LF = examineLoop(L, SE);
    if (LF.StrictFMA && !Sh.StrictFMAChain) {
      Sh.StrictFMAChain = true;
      if (DebugLoc DL = L->getStartLoc())
        Sh.StrictFMAWhere = "line " + std::to_string(DL.getLine());
    }
    LLVM_DEBUG(dbgs() << DEBUG_TYPE ": " << F.getName() << " loop " << L->getHeader()->getName()
                      << (LF.Vectorisable ? " vectorisable" : " not vectorisable: ")
                      << (LF.WhyNot ? LF.WhyNot : "") << "\n");
    if (!LF.Vectorisable || Models.RegBits[0] / LF.WidestBits < 2)
      continue;
    for (BasicBlock *BB : L->blocks())
      InVectorLoop.insert(BB);
    double W = loopLevelWeight(L->getLoopDepth());
    for (size_t Y = 1; Y < NS; ++Y)
      for (size_t X = 0; X < NS; ++X)
        if (Prices.runs(X, Y))
          priceLoopAt(*L, LF, X, Y, W);
  }
}

/// Per iteration: the scalar form and the vector form (one VF-wide iteration
/// per VF); the vectoriser takes the cheaper. Everything but bit operations and
/// FMA counts as loop work, in either form.
void FunctionPricer::priceLoopAt(const Loop &L, const LoopFacts &LF, size_t X, size_t Y, double W) {
  assert(LF.Vectorisable && LF.WidestBits <= 64 && "only vectorisable loops have a vector form");
  unsigned VF = std::max(Models.RegBits[X] / LF.WidestBits, 1u);
  Cost Sc, Ve;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      Category Cat = categoryOf(I) == CatScalar ? CatVector : categoryOf(I);
      double SC = price(I, X, Y, 1);
      if (LF.Control.count(&I)) {
        Sc.add(Cat, SC / LoopInterleave);
        Ve.add(Cat, SC / (VF * LoopInterleave));
      } else if (LF.Scalarised.count(&I)) {
        Sc.add(Cat, SC);
        Ve.add(Cat, SC + 1); // a scalar access and a lane insert or extract
      } else {
        Sc.add(Cat, SC);
        Ve.add(Cat, VF >= 2 ? price(I, X, Y, VF) / VF : INFINITY);
        LLVM_DEBUG({
          if (VF >= 2)
            dbgs() << DEBUG_TYPE ":   code=" << Subs[X].CPU << " cpu=" << Subs[Y].CPU
                   << " scalar=" << SC << " vector=" << price(I, X, Y, VF) << ":" << I << "\n";
        });
      }
    }
  P.On[Y][X].addScaled(Ve.Total < Sc.Total ? Ve : Sc, W);
  LLVM_DEBUG(dbgs() << DEBUG_TYPE ": " << F.getName() << " loop " << L.getHeader()->getName()
                    << " weight=" << W << " code=" << Subs[X].CPU << " cpu=" << Subs[Y].CPU
                    << " scalar=" << Sc.Total << " vector(VF=" << VF << ")=" << Ve.Total << "\n");
}

void FunctionPricer::priceOtherBlocks(Function &S, const LoopInfo &LI) {
  for (BasicBlock &BB : S) {
    if (InVectorLoop.count(&BB))
      continue;
    double W = loopLevelWeight(LI.getLoopDepth(&BB));
    for (Instruction &I : BB) {
      priceInstruction(I, W);
      // Calls to functions that will probably be inlined: their cost counts here.
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (Callee && Callee != &F && Depth < MaxCalleeDepth && Prices.likelyInlined(*Callee))
        addCallee(*Callee, W);
    }
  }
}

/// I in its scalar form, weighed W, for every (code, CPU) pair that runs.
void FunctionPricer::priceInstruction(const Instruction &I, double W) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    P.Sh.HasInteresting |= isBitOp(ID) || isFMAOp(ID);
  }
  for (size_t Y = 1; Y < NS; ++Y)
    for (size_t X = 0; X < NS; ++X)
      if (Prices.runs(X, Y)) {
        double C = price(I, X, Y, 1);
        P.On[Y][X].add(categoryOf(I), W * C);
        LLVM_DEBUG({
          if (X == 0 && C != price(I, Y, Y, 1))
            dbgs() << DEBUG_TYPE ": " << F.getName() << " weight=" << W << " base=" << C << " "
                   << Subs[Y].CPU << "=" << price(I, Y, Y, 1) << ":" << I << "\n";
        });
      }
}

void FunctionPricer::addCallee(Function &Callee, double W) {
  Pricing CP = Prices.priceAt(Callee, Subs, Depth + 1);
  assert(CP.On.size() == NS && "the callee is priced under the same subtargets");
  for (size_t Y = 1; Y < NS; ++Y)
    for (size_t X = 0; X < NS; ++X)
      P.On[Y][X].addScaled(CP.On[Y][X], W);
  Shape &Sh = P.Sh;
  Sh.HasLoops |= CP.Sh.HasLoops;
  Sh.HasInteresting |= CP.Sh.HasInteresting;
  if (CP.Sh.StrictFMAChain && !Sh.StrictFMAChain) {
    Sh.StrictFMAChain = true;
    Sh.StrictFMAWhere = "in inlined " + Callee.getName().str();
  }
}

/// The vector loops were priced apart: note their bit operations and FMA too.
void FunctionPricer::noteInterestingInVectorLoops() {
  for (const BasicBlock *BB : InVectorLoop)
    for (const Instruction &I : *BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        P.Sh.HasInteresting |= isBitOp(II->getIntrinsicID()) || isFMAOp(II->getIntrinsicID());
}

} // namespace

Pricing Pricer::priceAt(Function &F, const std::vector<Subtarget> &Subs, unsigned Depth) {
  assert(Subs.size() == Targets.size() + 1 && "the baseline and one subtarget per target");
  std::string Key;
  for (const Subtarget &ST : Subs)
    Key += ST.key() + ";";
  auto It = Memo.find({&F, Key});
  if (It != Memo.end())
    return It->second;
  if (!InProgress.insert(&F).second) // recursion: count nothing more
    return Pricing(Subs.size());
  Pricing P = analyse(F, Subs, Depth);
  InProgress.erase(&F);
  Memo[{&F, Key}] = P;
  return P;
}

Pricing Pricer::analyse(Function &F, const std::vector<Subtarget> &Subs, unsigned Depth) {
  Pricing P(Subs.size());
  // A scratch copy, erased when priced (after the analyses of it are gone).
  ValueToValueMapTy VMap;
  Function *S = CloneFunction(&F, VMap);
  S->setLinkage(GlobalValue::InternalLinkage);
  S->setMetadata(MVMD, nullptr);
  {
    SubtargetModels Models(TM, *S, Subs);
    DominatorTree DT(*S);
    promoteAllocas(*S, DT);
    LoopInfo LI(DT);
    TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
    TargetLibraryInfo TLI(TLII, S);
    AssumptionCache AC(*S);
    ScalarEvolution SE(*S, TLI, AC, DT, LI);

    FunctionPricer FP(*this, F, Subs, Models, Depth, P);
    FP.priceVectorLoops(LI, SE);
    FP.priceOtherBlocks(*S, LI);
    FP.noteInterestingInVectorLoops();
  }
  S->eraseFromParent();
  return P;
}

} // namespace shard
