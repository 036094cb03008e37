//===- Support.cpp - Fatal errors and target machines for the passes -----===//
#include "ir/Support.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace shard {

void fatal(StringRef Pass, const Twine &Msg) {
  report_fatal_error(Twine(Pass) + ": " + Msg, /*gen_crash_diag=*/false);
}

std::unique_ptr<TargetMachine> createTargetMachine(const Triple &TT, std::optional<Reloc::Model> RM,
                                                   std::string &Err) {
  // LLVM 21 takes the Triple itself where LLVM 19 and 20 take its string.
#if LLVM_VERSION_MAJOR >= 21
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return nullptr;
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(TT, "", "", TargetOptions(), RM));
#else
  const Target *T = TargetRegistry::lookupTarget(TT.str(), Err);
  if (!T)
    return nullptr;
  return std::unique_ptr<TargetMachine>(
      T->createTargetMachine(TT.str(), "", "", TargetOptions(), RM));
#endif
}

} // namespace shard
