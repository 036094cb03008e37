//===- Revisit.cpp - More inliner visits where a shard cuts a call cycle --===//
//
// The serial inliner walks a call cycle (an interpreter's loop through its call
// and return helpers) as one SCC; as inlining splits the SCC, it visits the parts
// again, and a later visit takes calls an earlier one refused (the caller is
// simpler by then). A shard that cuts the cycle walks the function once.
// shard-split<revisit=N> marks such functions (markRevisits, split/Scc.cpp); in a
// shard compile that loads the plugin, the inliner's walk gives each marked
// function N more visits (the function simplification pipeline, then the
// inliner), where its SCC is the function alone.
//
//===----------------------------------------------------------------------===//
#include "presimplify/Presimplify.h"
#include "ir/Metadata.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/Inliner.h"

#include <string>

using namespace llvm;

namespace shard {

namespace {

/// The name of an optimisation level in pipeline text: O1, O2, O3, Os or Oz.
std::string levelName(OptimizationLevel Level) {
  if (Level.getSizeLevel())
    return Level.getSizeLevel() == 1 ? "Os" : "Oz";
  return "O" + std::to_string(Level.getSpeedupLevel());
}

/// Visits a marked function's SCC again: simplify, then inline. Its pipeline text is
/// shard-revisit<O2>, with the level of the simplification pipeline.
class RevisitPass : public PassInfoMixin<RevisitPass> {
public:
  RevisitPass(PassBuilder &PB, OptimizationLevel Level) : Level(levelName(Level)) {
    Visit.addPass(createCGSCCToFunctionPassAdaptor(
        PB.buildFunctionSimplificationPipeline(Level, ThinOrFullLTOPhase::None)));
    Visit.addPass(InlinerPass());
  }
  PreservedAnalyses run(LazyCallGraph::SCC &C, CGSCCAnalysisManager &AM, LazyCallGraph &CG,
                        CGSCCUpdateResult &UR) {
    if (C.size() != 1)
      return PreservedAnalyses::all();
    Function &F = C.begin()->getFunction();
    unsigned Times = 0;
    if (!F.hasFnAttribute(RevisitAttr) ||
        F.getFnAttribute(RevisitAttr).getValueAsString().getAsInteger(10, Times))
      return PreservedAnalyses::all();
    F.removeFnAttr(RevisitAttr);
    PreservedAnalyses PA = PreservedAnalyses::all();
    LazyCallGraph::SCC *Cur = &C;
    for (unsigned I = 0; I < Times; ++I) {
      PA.intersect(Visit.run(*Cur, AM, CG, UR));
      if (UR.UpdatedC)
        Cur = UR.UpdatedC;
      if (UR.InvalidatedSCCs.count(Cur))
        break;
    }
    return PA;
  }
  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
    OS << "shard-revisit<" << Level << ">";
  }

private:
  std::string Level;
  CGSCCPassManager Visit;
};

} // namespace

void registerRevisits(PassBuilder &PB) {
  PB.registerCGSCCOptimizerLateEPCallback([&PB](CGSCCPassManager &CGPM, OptimizationLevel Level) {
    if (Level != OptimizationLevel::O0) // (-O0 has no inliner's walk)
      CGPM.addPass(RevisitPass(PB, Level));
  });
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, CGSCCPassManager &CGPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (!Name.consume_front("shard-revisit<") || !Name.consume_back(">"))
          return false;
        for (OptimizationLevel Level : {OptimizationLevel::O1, OptimizationLevel::O2,
                                        OptimizationLevel::O3, OptimizationLevel::Os,
                                        OptimizationLevel::Oz})
          if (Name == levelName(Level)) {
            CGPM.addPass(RevisitPass(PB, Level));
            return true;
          }
        return false;
      });
}

} // namespace shard
