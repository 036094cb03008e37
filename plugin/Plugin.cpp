//===- Plugin.cpp - Registration of the Shard passes ---------------------===//
//
// Entry point for `opt -load-pass-plugin` and `clang -fpass-plugin`. Registers
// the pipeline names:
//   shard-cost                   annotate functions with predicted compile cost
//   shard-partition<shards=N>    assign global values to shards (N=0: automatic)
//   shard-split<dir=PATH>        write one module per shard and a manifest
//                                (notify=FD;quick-exit;verify: as the driver runs it;
//                                memory instead of dir=PATH: to the host of an
//                                in-process split, InProcess.cpp)
//   print<shard-plan>            print the plan
//   shard-mv-annotate<targets=T1:T2>  choose the CPU targets each function is cloned for
//   shard-mv<dispatch=ifunc|table|auto;force=T|default;trace>  clone and dispatch
//
// With -shard-mv-targets=T1,T2 (clang: -mllvm -shard-mv-targets=...), the two
// multiversioning passes also run in the default -O1..-O3 pipelines, at the start
// of the optimisation pipeline (OptimizerEarly): after inlining and
// simplification, before the loop vectoriser, so that every clone is vectorised
// and code-generated for its own target.
//
//===----------------------------------------------------------------------===//
#include "Plugin.h"
#include "cost/ShardCost.h"
#include "ir/Support.h"
#include "ir/limits.h"
#include "multiversion/MV.h"
#include "partition/ShardPartition.h"
#include "presimplify/Presimplify.h"
#include "profile/ProfileGen.h"
#include "profile/ProfileUse.h"
#include "split/Exact.h"
#include "split/ShardSplit.h"

#include "llvm/ADT/StringMap.h"
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

/// Reports a bad pipeline parameter; opt (or the in-process split) then rejects the pipeline.
bool badParam(StringRef Pass, StringRef Param, StringRef Why) {
  shard::errorStream() << Pass << ": invalid parameter '" << Param << "': " << Why << "\n";
  return false;
}

/// Calls Fn(Key, Value, Param) for each ';'-separated parameter "Key=Value" (or "Key");
/// false as soon as Fn reports a bad one.
bool forEachParam(StringRef Params,
                  function_ref<bool(StringRef Key, StringRef Value, StringRef Param)> Fn) {
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    auto [Key, Value] = Param.split('=');
    if (!Fn(Key, Value, Param))
      return false;
  }
  return true;
}

bool parseShardPartition(StringRef Params, ModulePassManager &MPM) {
  unsigned Shards = 0, Slack = shard::ShardPartitionPass::DefaultSlack;
  bool Graph = false, KeepCycle = false;
  bool OK = forEachParam(Params, [&](StringRef Key, StringRef Value, StringRef Param) {
    if (Param == "keep-cycle")
      return KeepCycle = true;
    if (Key == "shards")
      return (!Value.getAsInteger(10, Shards) && Shards <= SHARD_MAX_SHARDS) ||
             badParam("shard-partition", Param,
                      "shards must be an integer from 0 (automatic) to " +
                          std::to_string(SHARD_MAX_SHARDS));
    if (Key == "slack")
      return (!Value.getAsInteger(10, Slack) && Slack <= 1000) ||
             badParam("shard-partition", Param,
                      "slack must be an integer from 0 to 1000 (thousandths of the mean)");
    if (Key == "place")
      return ((Value == "stable" || Value == "graph") && ((Graph = Value == "graph"), true)) ||
             badParam("shard-partition", Param, "place must be stable or graph");
    return badParam("shard-partition", Param,
                    "expected shards=N, slack=N, place=P or keep-cycle");
  });
  if (OK)
    MPM.addPass(shard::ShardPartitionPass(Shards, Slack, Graph, KeepCycle));
  return OK;
}

/// Where shard-split<...> writes: dir=PATH under opt; memory in an in-process split,
/// where no file is written and the host's process must go on.
bool checkOutput(StringRef Dir, const shard::SplitOptions &Opts) {
  bool InProcess = shard::memorySink();
  if (!Opts.Memory && InProcess)
    return badParam("shard-split", Dir.empty() ? "" : "dir=" + Dir.str(),
                    "an in-process split sends its output to the host: memory, not dir=PATH");
  if (!Opts.Memory)
    return !Dir.empty() || badParam("shard-split", "", "expected dir=PATH");
  if (!Dir.empty())
    return badParam("shard-split", "dir=" + Dir.str(), "memory and dir=PATH exclude each other");
  if (Opts.NotifyFD >= 0 || Opts.QuickExit)
    return badParam("shard-split", Opts.QuickExit ? "quick-exit" : "notify",
                    "not with memory (the host hears of each shard from its sink)");
  return InProcess || badParam("shard-split", "memory",
                               "only in an in-process split (the plugin's shard_plugin_split_v2)");
}

bool parseShardSplit(StringRef Params, ModulePassManager &MPM) {
  std::string Dir;
  shard::SplitOptions Opts;
  shard::SplitLimits &Lim = Opts.Limits;
  StringMap<unsigned *> Numbers = {{"import-cost", &Lim.ImportCost},
                                   {"local-import-cost", &Lim.LocalImportCost},
                                   {"import-size", &Lim.ImportSize},
                                   {"dup-cost", &Lim.DupCost},
                                   {"import-depth", &Lim.Depth},
                                   {"chain-cost", &Lim.ChainCost},
                                   {"parts", &Opts.Parts},
                                   {"tiny-cost", &Lim.TinyCost},
                                   {"tiny-size", &Lim.TinySize},
                                   {"decl-size", &Lim.DeclSize},
                                   {"last-call-size", &Lim.LastCallSize},
                                   {"revisit", &Lim.Revisit},
                                   {"threads", &Opts.Threads},
                                   {"presimplify-depth", &Opts.PresimplifyDepth},
                                   {"part", &Opts.Part},
                                   {"hot-import-cost", &Lim.HotImportCost}};
  bool OK = forEachParam(Params, [&](StringRef Key, StringRef Value, StringRef Param) {
    if (Key == "dir" && !Value.empty()) {
      Dir = Value.str();
      return true;
    }
    if (Key == "memory" && Value.empty())
      return Opts.Memory = true;
    if (Key == "const-bytes")
      return !Value.getAsInteger(10, Lim.ConstBytes) ||
             badParam("shard-split", Param, "expected a non-negative integer");
    if (Key == "notify")
      return (!Value.getAsInteger(10, Opts.NotifyFD) && Opts.NotifyFD >= 0) ||
             badParam("shard-split", Param, "expected a file descriptor number");
    if (Key == "quick-exit" && Value.empty())
      return Opts.QuickExit = true;
    if (Key == "verify" && Value.empty())
      return Opts.Verify = true;
    if (Key == "copy-bodies" && Value.empty())
      return Opts.CopyBodies = true;
    if (Key == "sink-locals" && Value.empty())
      return Lim.SinkLocals = true;
    if (Key == "single-caller" && Value.empty())
      return Lim.SingleCaller = true;
    if ((Key == "odr-copies" || Key == "no-odr-copies") && Value.empty())
      return (Lim.OdrCopies = Key == "odr-copies"), true;
    if ((Key == "import-reached" || Key == "no-import-reached") && Value.empty())
      return (Lim.ImportReached = Key == "import-reached"), true;
    if ((Key == "read-only-locals" || Key == "no-read-only-locals") && Value.empty())
      return (Lim.ReadOnlyLocals = Key == "read-only-locals"), true;
    if ((Key == "import-callees" || Key == "no-import-callees") && Value.empty())
      return (Lim.ImportCallees = Key == "import-callees"), true;
    if ((Key == "serial-scc" || Key == "no-serial-scc") && Value.empty())
      return (Lim.SerialScc = Key == "serial-scc"), true;
    if ((Key == "closure-views" || Key == "no-closure-views") && Value.empty())
      return (Lim.ClosureViews = Key == "closure-views"), true;
    if ((Key == "serial-view" || Key == "no-serial-view") && Value.empty())
      return (Lim.SerialView = Key == "serial-view"), true;
    if ((Key == "share-locals" || Key == "no-share-locals") && Value.empty())
      return (Lim.ShareLocals = Key == "share-locals"), true;
    if ((Key == "dup-one-caller" || Key == "no-dup-one-caller") && Value.empty())
      return (Lim.DupOneCaller = Key == "dup-one-caller"), true;
    if ((Key == "exact-copies" || Key == "no-exact-copies") && Value.empty())
      return (Lim.ExactCopies = Key == "exact-copies"), true;
    if (Key == "presimplify")
      return (!Value.getAsInteger(10, Opts.Presimplify) && Opts.Presimplify <= 3) ||
             badParam("shard-split", Param, "expected an optimisation level from 0 to 3");
    auto It = Numbers.find(Key);
    if (It == Numbers.end())
      return badParam("shard-split", Param,
                      "expected dir=PATH, memory, import-cost=N, local-import-cost=N, "
                      "import-size=N, dup-cost=N, import-depth=N, chain-cost=N, tiny-cost=N, "
                      "tiny-size=N, "
                      "decl-size=N, last-call-size=N, revisit=N, hot-import-cost=N, const-bytes=N, parts=N, "
                      "part=N, notify=FD, "
                      "presimplify=L, presimplify-depth=N, threads=N, quick-exit, verify, "
                      "copy-bodies, sink-locals, single-caller, no-odr-copies, no-import-reached, "
                      "no-read-only-locals, no-dup-one-caller, no-share-locals, no-serial-scc, "
                      "closure-views, serial-view, no-import-callees or no-exact-copies");
    if (Value.getAsInteger(10, *It->second) || (Key == "import-depth" && Lim.Depth > 16) ||
        (Key == "presimplify-depth" && Opts.PresimplifyDepth > 16))
      return badParam("shard-split", Param,
                      Key.ends_with("-depth") ? "expected an integer from 0 to 16"
                                              : "expected a non-negative integer");
    return true;
  });
  if (!OK || !checkOutput(Dir, Opts))
    return false;
  if (Opts.Parts == 0 || Opts.Part >= Opts.Parts)
    return badParam("shard-split", "parts=" + std::to_string(Opts.Parts),
                    "expected parts >= 1 and part < parts");
  MPM.addPass(shard::ShardSplitPass(Dir, Opts));
  return true;
}

bool parseMVAnnotate(StringRef Params, ModulePassManager &MPM) {
  std::string Targets;
  bool OK = forEachParam(Params, [&](StringRef Key, StringRef Value, StringRef Param) {
    if (Key != "targets" || Value.empty())
      return badParam("shard-mv-annotate", Param,
                      "expected targets=T1:T2:... (x86-64-v2, x86-64-v3, x86-64-v4 or CPU names)");
    std::vector<shard::MVTarget> Ts;
    std::string Err;
    if (!shard::parseMVTargetList(Value, Ts, Err))
      return badParam("shard-mv-annotate", Param, Err);
    Targets = Value.str();
    return true;
  });
  if (OK)
    MPM.addPass(shard::MVAnnotatePass(Targets));
  return OK;
}

bool parseMVClone(StringRef Params, ModulePassManager &MPM) {
  shard::MVOptions Opts;
  bool OK = forEachParam(Params, [&](StringRef Key, StringRef Value, StringRef Param) {
    if (Key == "dispatch") {
      Opts.Dispatch = shard::parseMVDispatch(Value);
      return Opts.Dispatch.has_value() ||
             badParam("shard-mv", Param, "dispatch must be ifunc, table or auto");
    }
    if (Key == "force" && !Value.empty()) {
      std::string Err;
      if (Value != "default" && !shard::parseMVTarget(Value, Err))
        return badParam("shard-mv", Param, Err);
      Opts.Force = Value.str();
      return true;
    }
    if (Param == "trace") {
      Opts.Trace = true;
      return true;
    }
    return badParam("shard-mv", Param,
                    "expected dispatch=ifunc|table|auto, force=TARGET|default or trace");
  });
  if (OK)
    MPM.addPass(shard::MVClonePass(Opts));
  return OK;
}

/// shard-profile-use<path=P;level=L> and shard-profile-gen<path=F;level=L[;atomic]>.
bool parseProfilePass(StringRef Pass, StringRef Params, ModulePassManager &MPM) {
  bool Gen = Pass == "shard-profile-gen";
  std::string Path;
  unsigned Level = 2;
  bool Atomic = false;
  bool OK = forEachParam(Params, [&](StringRef Key, StringRef Value, StringRef Param) {
    if (Key == "path" && !Value.empty())
      return (Path = Value.str()), true;
    if (Key == "level")
      return (!Value.getAsInteger(10, Level) && Level >= 1 && Level <= 3) ||
             badParam(Pass, Param, "expected a level from 1 to 3");
    if (Gen && Key == "atomic" && Value.empty())
      return Atomic = true;
    return badParam(Pass, Param,
                    Gen ? "expected path=FILE, level=L or atomic"
                        : "expected path=FILE or level=L");
  });
  if (OK && Path.empty())
    OK = badParam(Pass, "", "expected path=FILE");
  if (OK && Gen)
    MPM.addPass(shard::ShardProfileGenPass(Path, Level, Atomic));
  else if (OK)
    MPM.addPass(shard::ShardProfileUsePass(Path, Level));
  return OK;
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
  if (matchPass(Name, "shard-mv-annotate", Params))
    return parseMVAnnotate(Params, MPM);
  if (matchPass(Name, "shard-mv", Params))
    return parseMVClone(Params, MPM);
  if (matchPass(Name, "shard-profile-use", Params))
    return parseProfilePass("shard-profile-use", Params, MPM);
  if (matchPass(Name, "shard-profile-gen", Params))
    return parseProfilePass("shard-profile-gen", Params, MPM);
  return false;
}

/// The multiversioning passes in the default pipelines, when -shard-mv-targets is given.
void addMVPasses(ModulePassManager &MPM, OptimizationLevel Level) {
  if (Level == OptimizationLevel::O0 || shard::mvTargetsOption().empty())
    return;
  MPM.addPass(shard::MVAnnotatePass(""));
  MPM.addPass(shard::MVClonePass(shard::MVOptions()));
}

} // namespace

void shard::registerPlugin(PassBuilder &PB) {
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks()) {
    PIC->addClassToPassName(shard::ShardCostPass::name(), "shard-cost");
    PIC->addClassToPassName(shard::ShardPartitionPass::name(), "shard-partition");
    PIC->addClassToPassName(shard::ShardSplitPass::name(), "shard-split");
    PIC->addClassToPassName(shard::ShardPlanPrinterPass::name(), "print<shard-plan>");
    PIC->addClassToPassName(shard::MVAnnotatePass::name(), "shard-mv-annotate");
    PIC->addClassToPassName(shard::MVClonePass::name(), "shard-mv");
    PIC->addClassToPassName(shard::ShardProfileUsePass::name(), "shard-profile-use");
    PIC->addClassToPassName(shard::ShardProfileGenPass::name(), "shard-profile-gen");
  }
  PB.registerPipelineParsingCallback(parseModulePass);
  shard::registerShardSkips(PB);
  shard::registerRevisits(PB);
  shard::registerExactCopies(PB);
  // OptimizerEarly: after the inliner and the function simplification pipeline,
  // before the loop vectoriser (LLVM 20 added the LTO phase argument).
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerEarlyEPCallback([](ModulePassManager &MPM, OptimizationLevel Level,
                                         ThinOrFullLTOPhase) { addMVPasses(MPM, Level); });
#else
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) { addMVPasses(MPM, Level); });
#endif
}

// Exported despite -fvisibility=hidden: opt looks this symbol up by name.
extern "C" __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Shard", "0.1", shard::registerPlugin};
}
