//===- Link.cpp - the driver's link step in process -----------------------===//
//
// ld.lld -r of the shard objects (lld's ELF driver as a library), then the objcopy that
// restores the promoted symbols (LLVM's ObjCopy library, the configuration llvm-objcopy's
// --localize-symbol(s) and --redefine-sym(s) build). lld reads and writes paths only (no
// memory buffers, no file system interface): its inputs are memory files and its output a
// pipe, named by /proc/self/fd paths, or where the system has none files in a private
// temporary directory, removed after. lld keeps global state, so links are serialised.
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
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

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

// Writes all of DATA to descriptor FD.
bool writeAll(int FD, ArrayRef<char> Data) {
  for (size_t Done = 0; Done < Data.size();) {
    ssize_t W = ::write(FD, Data.data() + Done, Data.size() - Done);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    Done += size_t(W);
  }
  return true;
}

// The paths lld reads the objects from and writes the linked object to. In memory where
// the system allows: each object a memory file (memfd), named by its /proc/self/fd path, and
// the output a pipe that a thread drains (lld buffers an output that is not a regular file
// in memory and writes it at the end). Otherwise files in a private temporary directory.
class LinkFiles {
public:
  std::vector<std::string> Paths;
  std::string OutPath;

  ~LinkFiles() {
    for (int FD : FDs)
      ::close(FD);
    if (Pipe[1] >= 0)
      ::close(Pipe[1]);
    if (Drain.joinable())
      Drain.join();
    if (Pipe[0] >= 0)
      ::close(Pipe[0]);
    if (!Dir.empty()) {
      for (const std::string &P : Paths)
        sys::fs::remove(P);
      sys::fs::remove(OutPath);
      sys::fs::remove(Dir);
    }
  }

  // Puts the N objects where lld reads them; false with LOG told why.
  bool create(const shard_engine_buf *Objs, size_t N, std::string &Log) {
    if (inMemory(Objs, N))
      return true;
    undoMemory();
    if (std::error_code EC = sys::fs::createUniqueDirectory("shard-engine-link", Dir)) {
      Log += "ld.lld: error: cannot create a temporary directory: " + EC.message() + "\n";
      return false;
    }
    for (size_t I = 0; I < N; I++) {
      Paths.push_back((Dir + "/shard." + Twine(I) + ".o").str());
      if (!writeFile(Paths.back(), ArrayRef<char>(Objs[I].data, Objs[I].size), Log))
        return false;
    }
    OutPath = (Dir + "/linked.o").str();
    return true;
  }

  // After lld: the linked object into OUT; false with LOG told why.
  bool take(SmallVectorImpl<char> &Out, std::string &Log) {
    if (Dir.empty()) {
      ::close(Pipe[1]); // the drain ends when lld has closed its end too
      Pipe[1] = -1;
      Drain.join();
      Out.assign(Drained.begin(), Drained.end());
      return true;
    }
    auto Buf = MemoryBuffer::getFile(OutPath, false, false);
    if (!Buf) {
      Log += "ld.lld: error: cannot read the linked object: " + Buf.getError().message() + "\n";
      return false;
    }
    Out.assign((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
    return true;
  }

private:
  SmallString<128> Dir; // empty: in memory
  std::vector<int> FDs;
  int Pipe[2] = {-1, -1};
  std::thread Drain;
  std::vector<char> Drained;

  static std::string fdPath(int FD) { return "/proc/self/fd/" + std::to_string(FD); }

  bool inMemory(const shard_engine_buf *Objs, size_t N) {
    if (::access("/proc/self/fd", X_OK) != 0)
      return false;
    for (size_t I = 0; I < N; I++) {
      int FD = ::memfd_create("shard-engine-object", MFD_CLOEXEC);
      if (FD < 0)
        return false;
      FDs.push_back(FD);
      if (!writeAll(FD, ArrayRef<char>(Objs[I].data, Objs[I].size)))
        return false;
      Paths.push_back(fdPath(FD));
    }
    if (::pipe2(Pipe, O_CLOEXEC) != 0)
      return false;
    OutPath = fdPath(Pipe[1]);
    int In = Pipe[0];
    Drain = std::thread([this, In] {
      char Chunk[1 << 16];
      for (ssize_t R; (R = ::read(In, Chunk, sizeof Chunk)) != 0;)
        if (R > 0)
          Drained.insert(Drained.end(), Chunk, Chunk + R);
        else if (errno != EINTR)
          break;
    });
    return true;
  }

  void undoMemory() {
    for (int FD : FDs)
      ::close(FD);
    FDs.clear();
    Paths.clear();
    for (int &FD : Pipe)
      if (FD >= 0)
        ::close(FD), FD = -1;
  }
};

// ld.lld -r OBJS -o OUT, the objects and the output in memory where possible (LinkFiles).
bool lldLink(const shard_engine_buf *Objs, const char *const *Names, size_t N,
             SmallVectorImpl<char> &Out, std::string &Log) {
  LinkFiles Files;
  if (!Files.create(Objs, N, Log))
    return false;
  std::vector<const char *> Args{"ld.lld", "-r"};
  for (const std::string &P : Files.Paths)
    Args.push_back(P.c_str());
  Args.push_back("-o");
  Args.push_back(Files.OutPath.c_str());
  std::string Msg;
  raw_string_ostream MOS(Msg);
  bool OK;
  {
    std::lock_guard<std::mutex> L(LldLock);
    if (LldBroken) {
      Log += "ld.lld: error: lld crashed earlier in this process and cannot run again\n";
      return false;
    }
    lld::Result R = lld::lldMain(Args, MOS, MOS, {{lld::Gnu, &lld::elf::link}});
    LldBroken = !R.canRunAgain;
    OK = R.retCode == 0;
  }
  MOS.flush();
  // lld names its inputs by their paths: give them the caller's names (longest path first:
  // /proc/self/fd/1 is a prefix of /proc/self/fd/12).
  std::vector<size_t> Order;
  for (size_t I = 0; I < N; I++)
    if (Names && Names[I])
      Order.push_back(I);
  llvm::sort(Order, [&](size_t A, size_t B) {
    return Files.Paths[A].size() > Files.Paths[B].size();
  });
  for (size_t I : Order)
    for (size_t At; (At = Msg.find(Files.Paths[I])) != std::string::npos;)
      Msg.replace(At, Files.Paths[I].size(), Names[I]);
  Log += Msg;
  return OK && Files.take(Out, Log);
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
