//===- Compile.cpp - clang's shard compile in process ---------------------===//
//
// `clang ARGV -c -x ir IN -o OUT` on a bitcode buffer: clang's driver builds the cc1
// arguments, CompilerInvocation parses them, and the IR path of clang's CodeGenAction
// (verify, target override, embedding, clang::emitBackendOutput) runs with the object
// written into memory.
//
//===----------------------------------------------------------------------===//

#include "Support.h"
#include "engine.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/BackendUtil.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>
#include <shared_mutex>

using namespace llvm;
using namespace shard_engine;

namespace {

// The -mllvm options in force in this process (cl::opt values are global) and the lock that
// keeps them from changing under a compile.
std::shared_mutex LLVMArgsLock;
bool LLVMArgsApplied = false;
std::vector<std::string> AppliedLLVMArgs;

// Applies ARGS (-mllvm) once per process; fails when a compile asks for others.
bool applyLLVMArgs(const std::vector<std::string> &Args, std::string &Err) {
  {
    std::shared_lock<std::shared_mutex> L(LLVMArgsLock);
    if (Args == AppliedLLVMArgs && (LLVMArgsApplied || Args.empty()))
      return true;
  }
  std::unique_lock<std::shared_mutex> L(LLVMArgsLock);
  if (LLVMArgsApplied || Args.empty()) {
    if (Args == AppliedLLVMArgs)
      return true;
    Err = "-mllvm options are process-global: this process already runs with '" +
          join(AppliedLLVMArgs, " ") + "', this compile asks for '" + join(Args, " ") +
          "' (use the process executor)";
    return false;
  }
  std::vector<const char *> Argv{"clang (LLVM option parsing)"};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (!cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &OS)) {
    Err = "bad -mllvm option: " + Msg;
    return false;
  }
  LLVMArgsApplied = true;
  AppliedLLVMArgs = Args;
  return true;
}

// Collects the LLVM diagnostics of the compile as clang reports them (errors fail it).
struct CollectingHandler : DiagnosticHandler {
  clang::DiagnosticsEngine &Diags;
  explicit CollectingHandler(clang::DiagnosticsEngine &D) : Diags(D) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Remark || DI.getSeverity() == DS_Note)
      return true;
    std::string Msg;
    raw_string_ostream OS(Msg);
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    unsigned ID =
        Diags.getCustomDiagID(DI.getSeverity() == DS_Error ? clang::DiagnosticsEngine::Error
                                                           : clang::DiagnosticsEngine::Warning,
                              "%0");
    Diags.Report(ID) << Msg;
    return true;
  }
};

// The cc1 arguments (after -cc1) that clang's driver gives ARGV, or none with the error in
// DIAGS.
bool cc1Args(ArrayRef<const char *> Argv, clang::DiagnosticsEngine &Diags,
             std::vector<std::string> &Out) {
  clang::driver::Driver D(Argv[0], sys::getDefaultTargetTriple(), Diags);
  D.setCheckInputsExist(false);
  std::unique_ptr<clang::driver::Compilation> C(D.BuildCompilation(Argv));
  if (!C || Diags.hasErrorOccurred())
    return false;
  const clang::driver::JobList &Jobs = C->getJobs();
  if (Jobs.size() != 1 || Jobs.begin()->getArguments().empty() ||
      StringRef(Jobs.begin()->getArguments()[0]) != "-cc1") {
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                       "the shard compile is not one clang -cc1 job"));
    return false;
  }
  for (const char *A : drop_begin(Jobs.begin()->getArguments()))
    Out.push_back(A);
  return true;
}

// Runs the host's PIPELINE on M with a target machine from CI's options.
bool runPipeline(clang::CompilerInstance &CI, Module &M, StringRef Pipeline) {
  clang::DiagnosticsEngine &Diags = CI.getDiagnostics();
  auto Fail = [&](const Twine &Msg) {
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << Msg.str();
    return false;
  };
  const clang::TargetOptions &TO = CI.getTargetOpts();
  std::string Err;
#if LLVM_VERSION_MAJOR >= 22
  const Target *T = TargetRegistry::lookupTarget(Triple(TO.Triple), Err);
#else
  const Target *T = TargetRegistry::lookupTarget(TO.Triple, Err);
#endif
  if (!T)
    return Fail(Err);
  const clang::CodeGenOptions &CG = CI.getCodeGenOpts();
  auto OL = CG.OptimizationLevel == 0   ? CodeGenOptLevel::None
            : CG.OptimizationLevel == 1 ? CodeGenOptLevel::Less
            : CG.OptimizationLevel == 2 ? CodeGenOptLevel::Default
                                        : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
#if LLVM_VERSION_MAJOR >= 21
      Triple(TO.Triple),
#else
      TO.Triple,
#endif
      TO.CPU, join(TO.Features, ","), llvm::TargetOptions(), CG.RelocationModel, std::nullopt, OL));
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Pipeline))
    return Fail("bad pipeline '" + Pipeline + "': " + toString(std::move(E)));
  MPM.run(M, MAM);
  return true;
}

// Whether M (named NAME) passes the verifier, as clang checks an IR input (or, AFTER_HOOK,
// as the host's hook left it); else the error into DIAGS.
bool verify(const Module &M, clang::DiagnosticsEngine &Diags, bool AfterHook, StringRef Name) {
  std::string VerifierErr;
  raw_string_ostream VOS(VerifierErr);
  if (!verifyModule(M, &VOS))
    return true;
  const auto Error = clang::DiagnosticsEngine::Error;
  if (AfterHook)
    Diags.Report(Diags.getCustomDiagID(Error, "the host's module hook left '%0' broken: %1"))
        << Name << VerifierErr;
  else
    Diags.Report(Diags.getCustomDiagID(Error, "invalid LLVM IR input: %0")) << VerifierErr;
  return false;
}

// The compile itself, its diagnostics into DIAGS; true when the object is in OBJ.
bool compile(const shard_engine_compile_opts &O, StringRef BC, clang::DiagnosticsEngine &Diags,
             SmallVectorImpl<char> &Obj, std::string &Log) {
  std::vector<const char *> Argv(O.argv, O.argv + O.argc);
  std::vector<std::string> Args;
  if (!cc1Args(Argv, Diags, Args))
    return false;
  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*Inv, CArgs, Diags, Argv[0]))
    return false;
  // The driver gives cc1 -disable-free (a process that exits next leaks on purpose: the
  // backend buries its target machine); a host compiles again and again, so free it all.
  Inv->getFrontendOpts().DisableFree = false;
  Inv->getCodeGenOpts().DisableFree = false;
  if (Inv->getFrontendOpts().Inputs.size() != 1 ||
      Inv->getFrontendOpts().Inputs[0].getKind().getLanguage() != clang::Language::LLVM_IR ||
      Inv->getFrontendOpts().ProgramAction != clang::frontend::EmitObj) {
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                       "the shard compile must be one -c -x ir input"));
    return false;
  }
  std::string InName = Inv->getFrontendOpts().Inputs[0].getFile().str();
  std::string Err;
  if (!applyLLVMArgs(Inv->getFrontendOpts().LLVMArgs, Err)) {
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << Err;
    return false;
  }
  std::shared_lock<std::shared_mutex> ArgsHeld(LLVMArgsLock);

#if LLVM_VERSION_MAJOR >= 21
  clang::CompilerInstance CI(Inv);
#else
  clang::CompilerInstance CI;
  CI.setInvocation(Inv);
#endif
#if LLVM_VERSION_MAJOR >= 21
  CI.setDiagnostics(IntrusiveRefCntPtr<clang::DiagnosticsEngine>(&Diags));
#else
  CI.setDiagnostics(&Diags);
#endif
  if (!CI.createTarget())
    return false;
  // -fpass-plugin (the shard skips, presimplify/Presimplify.h): as cc1 does before its
  // action; LLVM 22's backend registers the plugins the instance loaded, LLVM 19's loads
  // them itself.
  CI.LoadRequestedPlugins();
  if (Diags.hasErrorOccurred())
    return false;
  clang::CodeGenOptions &CG = CI.getCodeGenOpts();

  LLVMContext Ctx;
  Ctx.setDiagnosticHandler(std::make_unique<CollectingHandler>(Diags));
  std::unique_ptr<MemoryBuffer> Buf = MemoryBuffer::getMemBuffer(BC, InName, false);
  SMDiagnostic SMErr;
  std::unique_ptr<Module> M = parseIR(Buf->getMemBufferRef(), SMErr, Ctx);
  if (!M) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    SMErr.print(nullptr, OS, false);
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << Msg;
    return false;
  }
  if (!O.trusted && !verify(*M, Diags, false, InName))
    return false;
  const clang::TargetOptions &TO = CI.getTargetOpts();
#if LLVM_VERSION_MAJOR >= 21
  const std::string &ModuleTriple = M->getTargetTriple().str();
#else
  const std::string &ModuleTriple = M->getTargetTriple();
#endif
  if (ModuleTriple != TO.Triple) {
    Diags.Report(clang::SourceLocation(), clang::diag::warn_fe_override_module) << TO.Triple;
#if LLVM_VERSION_MAJOR >= 21
    M->setTargetTriple(Triple(TO.Triple));
#else
    M->setTargetTriple(TO.Triple);
#endif
  }
#if LLVM_VERSION_MAJOR >= 21
  clang::EmbedObject(M.get(), CG, CI.getVirtualFileSystem(), Diags);
#else
  clang::EmbedObject(M.get(), CG, Diags);
#endif
  clang::EmbedBitcode(M.get(), CG, Buf->getMemBufferRef());
  Ctx.setDiscardValueNames(false);
  Ctx.setDefaultTargetCPU(TO.CPU);
  Ctx.setDefaultTargetFeatures(join(TO.Features, ","));
  if (Diags.hasErrorOccurred())
    return false;

  if (O.hook && O.hook(wrap(M.get()), O.user)) {
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                       "the host's module hook failed on '%0'"))
        << InName;
    return false;
  }
  if (O.hook && !verify(*M, Diags, true, InName))
    return false;
  if (O.pipeline) {
    if (*O.pipeline && !runPipeline(CI, *M, O.pipeline))
      return false;
    CG.DisableLLVMPasses = 1;
  }
  auto OS = std::make_unique<raw_svector_ostream>(Obj);
#if LLVM_VERSION_MAJOR >= 21
  clang::emitBackendOutput(CI, CG, CI.getTarget().getDataLayoutString(), M.get(),
                           clang::Backend_EmitObj, CI.getVirtualFileSystemPtr(), std::move(OS));
#else
  clang::EmitBackendOutput(Diags, CI.getHeaderSearchOpts(), CG, TO, CI.getLangOpts(),
                           CI.getTarget().getDataLayoutString(), M.get(), clang::Backend_EmitObj,
                           vfs::getRealFileSystem(), std::move(OS));
#endif
  return !Diags.hasErrorOccurred();
}

} // namespace

extern "C" int shard_engine_compile(const struct shard_engine_compile_opts *o, const char *bc,
                                    size_t size, struct shard_engine_buf *obj, char **log) {
  initialize();
  *obj = {nullptr, 0};
  std::string Log;
  raw_string_ostream LOS(Log);
  clang::DiagnosticOptions DOpts;
#if LLVM_VERSION_MAJOR >= 21
  auto *Printer = new clang::TextDiagnosticPrinter(LOS, DOpts);
  IntrusiveRefCntPtr<clang::DiagnosticsEngine> DiagsP(
      new clang::DiagnosticsEngine(new clang::DiagnosticIDs(), DOpts, Printer));
#else
  IntrusiveRefCntPtr<clang::DiagnosticOptions> DOptsP(new clang::DiagnosticOptions());
  auto *Printer = new clang::TextDiagnosticPrinter(LOS, DOptsP.get());
  IntrusiveRefCntPtr<clang::DiagnosticsEngine> DiagsP(
      new clang::DiagnosticsEngine(new clang::DiagnosticIDs(), DOptsP, Printer));
#endif
  clang::DiagnosticsEngine &Diags = *DiagsP;
  if (o->argc < 1) {
    setLog(log, "shard_engine_compile: empty argv");
    return 1;
  }
  Printer->setPrefix("clang");
  SmallVector<char, 0> Obj;
  bool OK = false;
  std::string Fatal;
  if (!runRecoverable([&] { OK = compile(*o, StringRef(bc, size), Diags, Obj, Log); }, Fatal)) {
    LOS << "clang: fatal error: " << Fatal << "\n";
    OK = false;
  }
  LOS.flush();
  if (OK && Diags.hasErrorOccurred())
    OK = false;
  if (!OK && Log.empty())
    Log = "clang: error: the shard compile failed\n";
  if (OK)
    *obj = toBuf(Obj);
  setLog(log, Log);
  return OK ? 0 : 1;
}
