//===- Emit.cpp - Shard files, the manifest, the notify protocol ----------===//
//
// Each file is written whole and closed before the driver hears of it: one
// line on the notify descriptor per file, "manifest" or the shard number,
// short enough to be written at once. The formats are docs/contract.md's.
//
//===----------------------------------------------------------------------===//
#include "split/Emit.h"
#include "ir/Support.h"
#include "split/Clone.h"
#include "split/Promote.h"
#include "split/ShardModule.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <unistd.h>

using namespace llvm;

namespace shard {
namespace split {

namespace {

void writeFile(const std::string &Path, function_ref<void(raw_ostream &)> Write) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    fatal("shard-split", "cannot write '" + Path + "': " + EC.message());
  Write(OS);
  OS.close();
  if (OS.has_error())
    fatal("shard-split", "cannot write '" + Path + "': " + OS.error().message());
}

} // namespace

/// From 4 parts on, part 0 only writes the manifest: it is the one that also verifies
/// the input (the driver has the others skip that), so the shards go to the rest.
unsigned writerOf(unsigned S, unsigned Parts) {
  assert(Parts >= 1 && "at least one part");
  return Parts < 4 ? S % Parts : 1 + S % (Parts - 1);
}

void writeShard(const Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here, const std::string &Dir) {
  ClonedModule Shard(M);
  buildShard(Shard, M, P, L, S, Here);
  writeFile(Dir + "/shard." + std::to_string(S) + ".bc",
            [&](raw_ostream &OS) { WriteBitcodeToFile(*Shard.Mod, OS); });
  moveBodiesBack(Shard);
}

void writeManifest(const Module &M, const std::string &Dir, ArrayRef<uint64_t> Work,
                   ArrayRef<unsigned> Functions, ArrayRef<Promotion> Promoted) {
  assert(Work.size() == Functions.size() && "a work and a count per shard");
  writeFile(Dir + "/manifest", [&](raw_ostream &OS) {
    OS << "shard-manifest 1\n";
    OS << "shards " << Work.size() << "\n";
    if (std::string T = Triple(M.getTargetTriple()).str(); !T.empty())
      OS << "triple " << T << "\n";
    OS << "reloc "
       << (M.getPICLevel() == PICLevel::NotPIC    ? "static"
           : M.getPIELevel() != PIELevel::Default ? "pie"
                                                  : "pic")
       << "\n";
    for (unsigned S = 0; S < Work.size(); ++S)
      OS << "shard " << S << " cost " << Work[S] << " functions " << Functions[S] << "\n";
    for (const Promotion &Pr : Promoted)
      OS << "promoted " << Pr.NewName << " " << Pr.OldName << "\n";
  });
}

/// The line is shorter than PIPE_BUF, so that it is written at once.
void notify(int FD, const std::string &What) {
  if (FD < 0)
    return;
  std::string Line = What + "\n";
  if (::write(FD, Line.data(), Line.size()) != (ssize_t)Line.size())
    fatal("shard-split", "cannot notify the driver on file descriptor " + std::to_string(FD) +
                             ": " + sys::StrError());
}

} // namespace split
} // namespace shard
