//===- Plugin.cpp - Registration of the Shard passes ---------------------===//
//
// Entry point for `opt -load-pass-plugin` and `clang -fpass-plugin`. Registers
// the pipeline names:
//   shard-cost                   annotate functions with predicted compile cost
//   shard-partition<shards=N>    assign global values to shards (N=0: automatic)
//   shard-split<dir=PATH>        write one module per shard and a manifest
//   print<shard-plan>            print the plan
//
//===----------------------------------------------------------------------===//
#include "Shard.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

namespace {

/// Splits "name<k=v;k2=v2>" into its parameter string; false if Name is not Pass.
bool matchPass(StringRef Name, StringRef Pass, StringRef &Params) {
  if (!Name.consume_front(Pass))
    return false;
  if (Name.empty()) {
    Params = "";
    return true;
  }
  if (!Name.consume_front("<") || !Name.consume_back(">"))
    return false;
  Params = Name;
  return true;
}

/// Reports a bad pipeline parameter; opt then rejects the pipeline.
bool badParam(StringRef Pass, StringRef Param, StringRef Why) {
  errs() << Pass << ": invalid parameter '" << Param << "': " << Why << "\n";
  return false;
}

bool parseShardPartition(StringRef Params, ModulePassManager &MPM) {
  unsigned Shards = 0, Slack = shard::ShardPartitionPass::DefaultSlack;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    auto [Key, Value] = Param.split('=');
    if (Key == "shards") {
      if (Value.getAsInteger(10, Shards) || Shards > 4096)
        return badParam("shard-partition", Param,
                        "shards must be an integer from 0 (automatic) to 4096");
    } else if (Key == "slack") {
      if (Value.getAsInteger(10, Slack) || Slack > 1000)
        return badParam("shard-partition", Param,
                        "slack must be an integer from 0 to 1000 (thousandths of the mean)");
    } else {
      return badParam("shard-partition", Param, "expected shards=N or slack=N");
    }
  }
  MPM.addPass(shard::ShardPartitionPass(Shards, Slack));
  return true;
}

bool parseShardSplit(StringRef Params, ModulePassManager &MPM) {
  std::string Dir;
  shard::SplitLimits Lim;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    auto [Key, Value] = Param.split('=');
    unsigned N = 0;
    if (Key == "dir" && !Value.empty()) {
      Dir = Value.str();
      continue;
    }
    if (Key != "import-cost" && Key != "dup-cost" && Key != "import-depth" &&
        Key != "const-bytes")
      return badParam("shard-split", Param,
                      "expected dir=PATH, import-cost=N, dup-cost=N, import-depth=N or "
                      "const-bytes=N");
    if (Value.getAsInteger(10, N) || (Key == "import-depth" && N > 16))
      return badParam("shard-split", Param,
                      Key == "import-depth" ? "expected an integer from 0 to 16"
                                            : "expected a non-negative integer");
    if (Key == "import-cost")
      Lim.ImportCost = N;
    else if (Key == "dup-cost")
      Lim.DupCost = N;
    else if (Key == "import-depth")
      Lim.Depth = N;
    else
      Lim.ConstBytes = N;
  }
  if (Dir.empty())
    return badParam("shard-split", "", "expected dir=PATH");
  MPM.addPass(shard::ShardSplitPass(Dir, Lim));
  return true;
}

bool parseModulePass(StringRef Name, ModulePassManager &MPM,
                     ArrayRef<PassBuilder::PipelineElement>) {
  StringRef Params;
  if (Name == "shard-cost") {
    MPM.addPass(shard::ShardCostPass());
    return true;
  }
  if (Name == "print<shard-plan>") {
    MPM.addPass(shard::ShardPlanPrinterPass(errs()));
    return true;
  }
  if (matchPass(Name, "shard-partition", Params))
    return parseShardPartition(Params, MPM);
  if (matchPass(Name, "shard-split", Params))
    return parseShardSplit(Params, MPM);
  return false;
}

void registerCallbacks(PassBuilder &PB) {
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks()) {
    PIC->addClassToPassName(shard::ShardCostPass::name(), "shard-cost");
    PIC->addClassToPassName(shard::ShardPartitionPass::name(), "shard-partition");
    PIC->addClassToPassName(shard::ShardSplitPass::name(), "shard-split");
    PIC->addClassToPassName(shard::ShardPlanPrinterPass::name(), "print<shard-plan>");
  }
  PB.registerPipelineParsingCallback(parseModulePass);
}

} // namespace

// Exported despite -fvisibility=hidden: opt looks this symbol up by name.
extern "C" __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Shard", "0.1", registerCallbacks};
}
