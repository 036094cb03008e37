//===- Link.cpp - the driver's link step in process -----------------------===//
//
// ld.lld -r of the shard objects (lld's ELF driver as a library), then the objcopy that
// restores the promoted symbols (LLVM's ObjCopy library, the configuration llvm-objcopy's
// --localize-symbol(s) and --redefine-sym(s) build). lld reads and writes paths only (no
// memory buffers, no file system interface), so its inputs and output go through a private
// temporary directory, removed after; lld keeps global state, so links are serialised.
//
//===----------------------------------------------------------------------===//

#include "Support.h"
#include "engine.h"

#include "lld/Common/Driver.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace llvm;
using namespace shard_engine;

namespace {

std::mutex LldLock;
bool LldBroken = false; // lld said it cannot run again (a crash inside it)

// Writes DATA to PATH.
bool writeFile(const Twine &Path, ArrayRef<char> Data, std::string &Err) {
  std::error_code EC;
  raw_fd_ostream OS(Path.str(), EC, sys::fs::OF_None);
  if (!EC) {
    OS.write(Data.data(), Data.size());
    OS.close();
    EC = OS.error();
  }
  if (EC)
    Err = "cannot write '" + Path.str() + "': " + EC.message();
  return !EC;
}

// ld.lld -r OBJS -o linked.o in a private directory; the result into OUT.
bool lldLink(const shard_engine_buf *Objs, const char *const *Names, size_t N,
             SmallVectorImpl<char> &Out, std::string &Log) {
  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("shard-engine-link", Dir)) {
    Log += "ld.lld: error: cannot create a temporary directory: " + EC.message() + "\n";
    return false;
  }
  std::vector<std::string> Paths;
  bool OK = true;
  for (size_t I = 0; I < N && OK; I++) {
    Paths.push_back((Dir + "/shard." + Twine(I) + ".o").str());
    OK = writeFile(Paths.back(), ArrayRef<char>(Objs[I].data, Objs[I].size), Log);
  }
  std::string OutPath = (Dir + "/linked.o").str();
  if (OK) {
    std::vector<const char *> Args{"ld.lld", "-r"};
    for (const std::string &P : Paths)
      Args.push_back(P.c_str());
    Args.push_back("-o");
    Args.push_back(OutPath.c_str());
    std::string Msg;
    raw_string_ostream MOS(Msg);
    std::lock_guard<std::mutex> L(LldLock);
    if (LldBroken) {
      Log += "ld.lld: error: lld crashed earlier in this process and cannot run again\n";
      OK = false;
    } else {
      lld::Result R = lld::lldMain(Args, MOS, MOS, {{lld::Gnu, &lld::elf::link}});
      LldBroken = !R.canRunAgain;
      OK = R.retCode == 0;
    }
    MOS.flush();
    // lld names its inputs by their temporary paths: give them the caller's names.
    for (size_t I = 0; I < N; I++) {
      if (!Names || !Names[I])
        continue;
      for (size_t At; (At = Msg.find(Paths[I])) != std::string::npos;)
        Msg.replace(At, Paths[I].size(), Names[I]);
    }
    Log += Msg;
  }
  if (OK) {
    auto Buf = MemoryBuffer::getFile(OutPath, false, false);
    if (Buf)
      Out.assign((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
    else
      Log += "ld.lld: error: cannot read the linked object: " + Buf.getError().message() + "\n";
    OK = bool(Buf);
  }
  for (const std::string &P : Paths)
    sys::fs::remove(P);
  sys::fs::remove(OutPath);
  sys::fs::remove(Dir);
  return OK;
}

// llvm-objcopy --localize-symbol=P --redefine-sym=P=OLD ... on IN, into OUT.
bool restoreSymbols(ArrayRef<char> In, const shard_engine_promo *Promos, size_t N,
                    SmallVectorImpl<char> &Out, std::string &Log) {
  objcopy::ConfigManager Config;
  objcopy::CommonConfig &C = Config.Common;
  auto OnError = [](Error E) { return E; };
  for (size_t I = 0; I < N; I++) {
    Expected<objcopy::NameOrPattern> P =
        objcopy::NameOrPattern::create(Promos[I].name, objcopy::MatchStyle::Literal, OnError);
    if (!P) {
      Log += "llvm-objcopy: error: " + toString(P.takeError()) + "\n";
      return false;
    }
    if (Error E = C.SymbolsToLocalize.addMatcher(std::move(*P))) {
      Log += "llvm-objcopy: error: " + toString(std::move(E)) + "\n";
      return false;
    }
    if (Promos[I].old)
      C.SymbolsToRename.insert({Promos[I].name, Promos[I].old});
  }
  Expected<std::unique_ptr<object::Binary>> Bin =
      object::createBinary(MemoryBufferRef(StringRef(In.data(), In.size()), "linked.o"));
  if (!Bin) {
    Log += "llvm-objcopy: error: " + toString(Bin.takeError()) + "\n";
    return false;
  }
  raw_svector_ostream OS(Out);
  if (Error E = objcopy::executeObjcopyOnBinary(Config, **Bin, OS)) {
    Log += "llvm-objcopy: error: " + toString(std::move(E)) + "\n";
    return false;
  }
  return true;
}

} // namespace

extern "C" int shard_engine_link(const struct shard_engine_buf *objs, const char *const *names,
                                 size_t n, const struct shard_engine_promo *promos, size_t npromos,
                                 struct shard_engine_buf *out, char **log) {
  initialize();
  *out = {nullptr, 0};
  std::string Log, Fatal;
  SmallVector<char, 0> Linked, Result;
  bool OK = false;
  if (n == 0) {
    setLog(log, "shard_engine_link: no objects\n");
    return 1;
  }
  if (!runRecoverable(
          [&] {
            ArrayRef<char> In(objs[0].data, objs[0].size);
            if (n > 1) {
              if (!lldLink(objs, names, n, Linked, Log))
                return;
              In = Linked;
            }
            OK = restoreSymbols(In, promos, npromos, Result, Log);
          },
          Fatal)) {
    Log += "fatal error: " + Fatal + "\n";
    OK = false;
  }
  if (OK)
    *out = toBuf(Result);
  setLog(log, Log);
  return OK ? 0 : 1;
}
