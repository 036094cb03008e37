//===- Support.cpp - what the engine's compile and link share -------------===//
//
// A fatal LLVM error (report_fatal_error) inside an engine call jumps back to the call,
// which fails with the message; elsewhere in the host it ends the process as LLVM's default
// does. The jump skips destructors: what the call had allocated is leaked.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace {

// The recovery point of the engine call running on this thread.
struct Recovery {
  std::jmp_buf Jump;
  std::string Message;
};
thread_local Recovery *Current = nullptr;

// LLVM's fatal error handler: back to the engine call, or LLVM's message and exit.
void onFatal(void *, const char *Reason, bool) {
  if (Recovery *R = Current) {
    R->Message = Reason;
    Current = nullptr;
    std::longjmp(R->Jump, 1);
  }
  std::string Msg = std::string("LLVM ERROR: ") + Reason + "\n";
  (void)!::write(2, Msg.data(), Msg.size());
}

} // namespace

void shard_engine::initialize() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    llvm::install_fatal_error_handler(onFatal, nullptr);
  });
}

bool shard_engine::runRecoverable(llvm::function_ref<void()> Fn, std::string &Fatal) {
  Recovery R;
  Recovery *Outer = Current;
  if (setjmp(R.Jump)) {
    Current = Outer;
    Fatal = R.Message;
    return false;
  }
  Current = &R;
  Fn();
  Current = Outer;
  return true;
}

shard_engine_buf shard_engine::toBuf(llvm::ArrayRef<char> Data) {
  shard_engine_buf B{static_cast<char *>(std::malloc(Data.size() ? Data.size() : 1)), Data.size()};
  if (B.data && !Data.empty())
    std::memcpy(B.data, Data.data(), Data.size());
  return B;
}

void shard_engine::setLog(char **Log, llvm::StringRef Msg) {
  if (!Msg.empty() && std::getenv("SHARD_ENGINE_VERBOSE"))
    llvm::errs() << Msg;
  if (!Log)
    return;
  *Log = nullptr;
  if (Msg.empty())
    return;
  *Log = static_cast<char *>(std::malloc(Msg.size() + 1));
  if (*Log) {
    std::memcpy(*Log, Msg.data(), Msg.size());
    (*Log)[Msg.size()] = 0;
  }
}

extern "C" void shard_engine_free(void *P) { std::free(P); }

extern "C" char *shard_engine_target_error(const char *Triple) {
  shard_engine::initialize();
  std::string Error;
#if LLVM_VERSION_MAJOR >= 21
  if (llvm::TargetRegistry::lookupTarget(llvm::Triple(Triple), Error))
#else
  if (llvm::TargetRegistry::lookupTarget(Triple, Error))
#endif
    return nullptr;
  return strdup(Error.c_str());
}
