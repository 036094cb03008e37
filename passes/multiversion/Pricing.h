//===- Pricing.h - A function's predicted cost per subtarget -----*- C++ -*-===//
//
// The gain model of shard-mv-annotate asks the target's own cost model
// (TargetTransformInfo, reciprocal throughput) what a function costs as
// compiled for each subtarget and run on CPUs that have each target. Pricer
// does the asking; Pricing.cpp describes how.
//
//===----------------------------------------------------------------------===//
#ifndef SHARD_MULTIVERSION_PRICING_H
#define SHARD_MULTIVERSION_PRICING_H

#include "multiversion/MV.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <cassert>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace shard {

/// How deep the calls to functions that will probably be inlined are followed
/// (their cost counts in the caller).
constexpr unsigned MaxCalleeDepth = 3;

/// Categories of gain, for reasons people can read.
enum Category { CatVector, CatBitOps, CatFMA, CatScalar, NumCategories };
inline constexpr const char *CategoryName[NumCategories] = {"vectorisable loops", "bit operations",
                                                            "FMA", "scalar code"};

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
/// that Y implies are priced, the other entries stay 0).
struct Pricing {
  Shape Sh;
  std::vector<std::vector<Cost>> On;
  explicit Pricing(size_t NumSubtargets = 0)
      : On(NumSubtargets, std::vector<Cost>(NumSubtargets)) {}
};

/// Prices functions under the baseline and one subtarget per target, following
/// calls to functions that will probably be inlined. Prices are memoised.
class Pricer {
public:
  /// Targets: least capable first, as the subtargets 1.. of every priceAt.
  /// LikelyInlined: the functions whose cost counts in their callers.
  Pricer(llvm::Module &M, llvm::TargetMachine &TM, llvm::ArrayRef<MVTarget> Targets,
         const llvm::SmallPtrSetImpl<const llvm::Function *> &LikelyInlined)
      : M(M), TM(TM), Targets(Targets), LikelyInlined(LikelyInlined) {}

  /// F priced under Subs[0] (the baseline) and Subs[1..] (one per target);
  /// Depth limits the callee recursion.
  Pricing priceAt(llvm::Function &F, const std::vector<Subtarget> &Subs, unsigned Depth);

  /// Whether code compiled for subtarget X runs on a CPU that has target Y:
  /// the baseline and every target Y implies.
  bool runs(size_t X, size_t Y) const {
    assert(Y >= 1 && Y <= Targets.size() && X <= Targets.size() && "subtarget index");
    return X == 0 || X == Y || Targets[Y - 1].implies(Targets[X - 1]);
  }
  bool likelyInlined(const llvm::Function &F) const { return LikelyInlined.count(&F); }

private:
  llvm::Module &M;
  llvm::TargetMachine &TM;
  llvm::ArrayRef<MVTarget> Targets;
  const llvm::SmallPtrSetImpl<const llvm::Function *> &LikelyInlined;
  // Memoised prices: (function, key of the subtargets) -> pricing.
  std::map<std::pair<const llvm::Function *, std::string>, Pricing> Memo;
  llvm::SmallPtrSet<const llvm::Function *, 8> InProgress;

  Pricing analyse(llvm::Function &F, const std::vector<Subtarget> &Subs, unsigned Depth);
};

} // namespace shard

#endif
