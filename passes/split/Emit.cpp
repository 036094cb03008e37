//===- Emit.cpp - Shard files, the manifest, the notify protocol ----------===//
//
// Each file is written whole and closed before the driver hears of it: one
// line on the notify descriptor per file, "manifest" or the shard number,
// short enough to be written at once. The formats are docs/contract.md's. An
// in-process split (memory) hands each file's bytes to its sink instead.
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

bool writeShard(const Module &M, const Plan &P, const Layout &L, unsigned S,
                const std::vector<uint8_t> &Here, const Output &Out) {
  ClonedModule Shard(M);
  buildShard(Shard, M, P, L, S, Here);
  SmallVector<char, 0> Bitcode;
  if (Out.Sink) {
    raw_svector_ostream OS(Bitcode);
    WriteBitcodeToFile(*Shard.Mod, OS);
  } else {
    writeFile(Out.Dir + "/shard." + std::to_string(S) + ".bc",
              [&](raw_ostream &OS) { WriteBitcodeToFile(*Shard.Mod, OS); });
  }
  dropCallMarks(Shard);
  moveBodiesBack(Shard);
  // The module is whole again when the host hears of the shard.
  return !Out.Sink || Out.Sink->shard(S, StringRef(Bitcode.data(), Bitcode.size()));
}

bool writeManifest(const Module &M, const Output &Out, ArrayRef<uint64_t> Work,
                   ArrayRef<unsigned> Functions, ArrayRef<Promotion> Promoted) {
  assert(Work.size() == Functions.size() && "a work and a count per shard");
  std::string Text;
  raw_string_ostream OS(Text);
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
  for (const Promotion &Pr : Promoted) {
    OS << "promoted " << Pr.NewName << " " << Pr.OldName << "\n";
    if (Pr.Grouped)
      OS << "grouped " << Pr.NewName << "\n";
  }
  OS.flush();
  if (Out.Sink)
    return Out.Sink->manifest(Text);
  writeFile(Out.Dir + "/manifest", [&](raw_ostream &FOS) { FOS << Text; });
  return true;
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
