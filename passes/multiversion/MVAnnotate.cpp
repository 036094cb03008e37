//===- MVAnnotate.cpp - Choose the CPU targets each function is cloned for -===//
//
// shard-mv-annotate<targets=T1:T2:...> decides, per defined function and per
// target, whether a clone compiled for the target is expected to pay, and
// records the decision: !shard.mv !{!"T", ...} on chosen functions,
// !shard.mv.reason with a short reason per target on every function considered,
// and optimisation remarks (pass name "shard-mv-annotate": Passed for chosen
// targets, Missed for declined ones).
//
// Functions that cannot be cloned safely (unsafeReason), or should not be
// (skipReason: cold, optnone, inline asm, likely inlined, ...), are declined
// outright, and so are functions without loops, bit operations or FMA
// candidates. The others are priced (Pricing.h). Targets are weighed least
// capable first: a target is chosen when the predicted speedup of its clone over
// the baseline, and over every chosen less capable target that it implies,
// reaches the thresholds below. A loop-carried floating-point reduction through
// the addend of llvm.fmuladd without reassoc is predicted to lose on a target
// that adds FMA (the fused operation lengthens the chain), so such targets are
// declined.
//
//===----------------------------------------------------------------------===//
#include "cost/ShardCost.h"
#include "ir/Support.h"
#include "multiversion/LoopModel.h"
#include "multiversion/MV.h"
#include "multiversion/Pricing.h"
#include "multiversion/Targets.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include <map>
#include <memory>

using namespace llvm;

#define DEBUG_TYPE "shard-mv-annotate"

// The only way to configure the passes the plugin adds to clang's pipelines (clang -mllvm ...).
static cl::opt<std::string>
    MVTargetsOpt("shard-mv-targets", cl::init(""),
                 cl::desc("Shard: comma-separated x86-64 targets to multiversion functions for "
                          "(x86-64-v2, x86-64-v3, x86-64-v4 or CPU names); in clang -fpass-plugin, "
                          "turns shard-mv-annotate and shard-mv on before the loop vectoriser"));

namespace shard {

StringRef mvTargetsOption() { return MVTargetsOpt; }

/// Why F cannot be multiversioned safely (whatever the annotation says); shard-mv
/// checks again before it clones.
std::optional<std::string> unsafeReason(const Function &F) {
  if (F.isDeclaration())
    return std::string("declaration");
  if (!F.hasName())
    return std::string("unnamed function");
  if (F.getMetadata(MVFamilyMD) || F.getMetadata(MVCloneMD))
    return std::string("already multiversioned");
  if (F.isVarArg())
    return std::string("varargs");
  if (F.hasFnAttribute(Attribute::Naked))
    return std::string("naked");
  if (F.hasAvailableExternallyLinkage())
    return std::string("available_externally");
  if (F.isInterposable())
    return std::string("interposable definition");
  if (F.hasComdat())
    return std::string("in a comdat");
  if (F.hasPrefixData() || F.hasPrologueData())
    return std::string("prefix or prologue data");
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr())
      return std::string("inalloca or preallocated arguments");
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return std::string("address-taken blocks (blockaddress)");
  return std::nullopt;
}

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
/// A function is likely to be inlined (then its gain counts in its callers, and
/// it is not cloned itself) when it is called directly and has at most this
/// shard-cost, or is local with a single use that is a direct call.
constexpr uint64_t InlineLikelyCost = 50;

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

/// The decision on one target, with its reason.
struct Judgement {
  bool Chosen = false;
  std::string Why;
};

/// Records the decisions on one function as they are made: a reason per target
/// (!shard.mv.reason), the chosen targets (!shard.mv) and a remark each.
class Verdicts {
public:
  explicit Verdicts(Function &F) : F(F), Ctx(F.getContext()), ORE(&F) {}

  void record(const MVTarget &T, const Judgement &J) {
    if (J.Chosen) {
      Chosen.push_back(MDString::get(Ctx, T.Name));
      Reasons.push_back(MDString::get(Ctx, T.Name + ": chosen: " + J.Why));
      ORE.emit([&]() {
        return OptimizationRemark(DEBUG_TYPE, "Multiversioned", &F)
               << "multiversioned for " << T.Name << ": " << J.Why;
      });
    } else {
      Reasons.push_back(MDString::get(Ctx, T.Name + ": declined: " + J.Why));
      ORE.emit([&]() {
        return OptimizationRemarkMissed(DEBUG_TYPE, "Declined", &F)
               << "declined " << T.Name << ": " << J.Why;
      });
    }
  }

  /// One reason for every target, then finish().
  void declineAll(const std::string &Why) {
    Reasons.push_back(MDString::get(Ctx, "not multiversioned: " + Why));
    ORE.emit([&]() {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotMultiversioned", &F)
             << "declined all targets: " << Why;
    });
    finish();
  }

  /// Writes the metadata.
  void finish() {
    F.setMetadata(MVReasonMD, MDNode::get(Ctx, Reasons));
    F.setMetadata(MVMD, Chosen.empty() ? nullptr : MDNode::get(Ctx, Chosen));
  }

private:
  Function &F;
  LLVMContext &Ctx;
  OptimizationRemarkEmitter ORE;
  SmallVector<Metadata *, 4> Reasons, Chosen;
};

class Annotator {
public:
  Annotator(Module &M, ModuleAnalysisManager &MAM, std::vector<MVTarget> Targets)
      : M(M), MAM(MAM), Targets(std::move(Targets)) {
    assert(!this->Targets.empty() && "nothing to choose from");
    assert(isOrderedByCapability(this->Targets, /*LeastFirst=*/true) &&
           "a target is weighed after the targets it implies");
  }
  void run();

private:
  Module &M;
  ModuleAnalysisManager &MAM;
  std::vector<MVTarget> Targets; // least capable first
  std::string CommonCPU, CommonFS;
  SmallPtrSet<const Function *, 8> Resolvers;
  ProfileSummaryInfo *PSI = nullptr;
  SmallPtrSet<const Function *, 32> LikelyInlined; // computed before any scratch copy

  // Eligibility.
  void findCommonSubtarget();
  std::optional<std::string> skipReason(Function &F);
  bool computeLikelyInlined(const Function &F) const;
  bool likelyInlined(const Function &F) const { return LikelyInlined.count(&F); }
  bool isHot(const Function &F) const;
  bool isCold(const Function &F) const;
  bool mayGain(const Function &F, unsigned Depth) const;

  // The decision.
  void decide(Function &F, Pricer &Prices);
  std::vector<Subtarget> subtargetsFor(const Function &F) const;
  Judgement judge(size_t K, const Pricing &P, const StringMap<bool> &BaseFeats, double Bar,
                  ArrayRef<size_t> Chose) const;
  Judgement weighGain(size_t K, const Pricing &P, double Bar, ArrayRef<size_t> Chose) const;
  std::optional<size_t> closestChosen(size_t K, const Pricing &P, ArrayRef<size_t> Chose) const;
};

/// The baseline every candidate must share: the most common subtarget.
void Annotator::findCommonSubtarget() {
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
}

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

/// F's own subtarget (the baseline), then a clone's for each target.
std::vector<Subtarget> Annotator::subtargetsFor(const Function &F) const {
  StringRef FS = F.getFnAttribute("target-features").getValueAsString();
  std::vector<Subtarget> Subs{{F.getFnAttribute("target-cpu").getValueAsString().str(),
                               F.getFnAttribute("tune-cpu").getValueAsString().str(), FS.str()}};
  for (const MVTarget &T : Targets)
    Subs.push_back({T.Name, T.Name, cloneFeatures(FS, T)});
  return Subs;
}

/// The chosen target (an index into Targets) that target K implies and whose
/// clone costs least on a CPU that has target K; the first of equals.
std::optional<size_t> Annotator::closestChosen(size_t K, const Pricing &P,
                                               ArrayRef<size_t> Chose) const {
  std::optional<size_t> Best;
  for (size_t X : Chose) {
    assert(X < K && "targets are chosen in order");
    if (!Targets[K].implies(Targets[X]))
      continue;
    if (!Best || P.On[K + 1][X + 1].Total < P.On[K + 1][*Best + 1].Total)
      Best = X;
  }
  return Best;
}

/// Target K by its predicted gain, over the baseline and over the closest
/// chosen target it implies.
Judgement Annotator::weighGain(size_t K, const Pricing &P, double Bar,
                               ArrayRef<size_t> Chose) const {
  const Cost &B = P.On[K + 1][0], &C = P.On[K + 1][K + 1];
  double Gain = B.Total - C.Total;
  double Speedup = C.Total > 0 ? B.Total / C.Total : 1.0;
  std::optional<size_t> Prev = closestChosen(K, P, Chose);
  double PrevCost = Prev ? P.On[K + 1][*Prev + 1].Total : 0;
  double Over = C.Total > 0 && Prev ? PrevCost / C.Total : 1.0;
  if (Speedup < Bar)
    return {false, "predicted " + formatSpeedup(Speedup) + ", below " + formatSpeedup(Bar)};
  if (Gain < MinAbsoluteGain)
    return {false, "predicted gain too small (" + formatCost(Gain) + " < " +
                       formatCost(MinAbsoluteGain) + ")"};
  if (Prev && (Over < Bar || PrevCost - C.Total < MinAbsoluteGain))
    return {false, "predicted " + formatSpeedup(Over) + " over " + Targets[*Prev].Name +
                       ", below " + formatSpeedup(Bar)};
  return {true, "predicted " + formatSpeedup(Speedup) + " (" + mainGains(B, C) + ")"};
}

/// Target K: declined when the baseline has it or FMA would lengthen a strict
/// reduction, else by its gain.
Judgement Annotator::judge(size_t K, const Pricing &P, const StringMap<bool> &BaseFeats, double Bar,
                           ArrayRef<size_t> Chose) const {
  const MVTarget &T = Targets[K];
  bool InBaseline = llvm::all_of(T.Features, [&](const std::string &Feat) {
    auto It = BaseFeats.find(Feat);
    return It != BaseFeats.end() && It->second;
  });
  if (InBaseline)
    return {false, "the baseline already has every feature of " + T.Name};
  if (T.has("fma") && !BaseFeats.lookup("fma") && P.Sh.StrictFMAChain)
    return {false, "FMA lengthens a loop-carried strict FP reduction (fmuladd without reassoc" +
                       (P.Sh.StrictFMAWhere.empty() ? ")" : ", " + P.Sh.StrictFMAWhere + ")")};
  return weighGain(K, P, Bar, Chose);
}

void Annotator::decide(Function &F, Pricer &Prices) {
  Verdicts V(F);
  if (std::optional<std::string> Why = skipReason(F))
    return V.declineAll(*Why);
  if (!mayGain(F, 0))
    return V.declineAll("no loops or bit operations");
  Pricing P = Prices.priceAt(F, subtargetsFor(F), 0);
  if (!P.Sh.HasLoops && !P.Sh.HasInteresting)
    return V.declineAll("no loops or bit operations");
  assert(P.On.size() == Targets.size() + 1 && "priced under the baseline and every target");

  StringMap<bool> BaseFeats =
      effectiveFeatures(F.getFnAttribute("target-cpu").getValueAsString(),
                        F.getFnAttribute("target-features").getValueAsString());
  double Bar = isHot(F) ? MinSpeedupHot : MinSpeedup;
  SmallVector<size_t, 4> Chose; // the chosen targets, as indices into Targets
  for (size_t K = 0; K < Targets.size(); ++K) {
    Judgement J = judge(K, P, BaseFeats, Bar, Chose);
    if (J.Chosen)
      Chose.push_back(K);
    V.record(Targets[K], J);
  }
  V.finish();
}

void Annotator::run() {
  findCommonSubtarget();
  for (GlobalIFunc &GI : M.ifuncs())
    if (auto *R = dyn_cast<Function>(GI.getResolver()->stripPointerCasts()))
      Resolvers.insert(R);
  PSI = MAM.getCachedResult<ProfileSummaryAnalysis>(M);
  if (!PSI && M.getProfileSummary(/*IsCS=*/false))
    PSI = &MAM.getResult<ProfileSummaryAnalysis>(M);

  Triple TT(M.getTargetTriple());
  std::string Err;
  std::unique_ptr<TargetMachine> TM;
  if (TT.getArch() == Triple::x86_64)
    TM = createTargetMachine(TT, std::nullopt, Err);
  SmallVector<Function *, 64> Work;
  for (Function &F : M)
    if (!F.isDeclaration()) {
      Work.push_back(&F);
      if (computeLikelyInlined(F))
        LikelyInlined.insert(&F);
    }
  if (!TM) {
    std::string Why = TT.getArch() == Triple::x86_64 ? "no x86-64 target available (" + Err + ")"
                                                     : "the module's target is not x86-64";
    for (Function *F : Work) {
      LLVMContext &Ctx = F->getContext();
      F->setMetadata(MVReasonMD,
                     MDNode::get(Ctx, MDString::get(Ctx, "not multiversioned: " + Why)));
      F->setMetadata(MVMD, nullptr);
    }
    return;
  }
  Pricer Prices(M, *TM, Targets, LikelyInlined);
  for (Function *F : Work)
    decide(*F, Prices);
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
