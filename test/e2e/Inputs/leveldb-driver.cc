// A deterministic driver for LevelDB 1.20 and Snappy 1.1.4, the C++ sources that npm's leveldown@6.1.1
// ships (bench/fetch-leveldb.sh): the program of test/e2e/leveldb.test, which builds the library once with
// clang and once with shard and checks that this program prints the same with both.
//
// Snappy: round trips of generated buffers (random, text, runs, zeros, mixed; 0 bytes to 200 KB), through
// the string, raw and Source/Sink interfaces, and corrupted streams that must be rejected. LevelDB, in
// memory (NewMemEnv), with small write buffers and files so that it flushes and compacts often: puts,
// write batches, deletes, gets, forward and backward iteration, seeks, a snapshot, a full compaction,
// a reopen (log recovery), a second database with a custom comparator and no compression, and DestroyDB.
// Every byte read back goes into one FNV-1a checksum; a few result lines and the checksum are printed.
// Nothing depends on time, addresses or thread timing (LevelDB compacts in a background thread, which
// changes where the data lies, never what is read back).
//
//   clang++ -O2 -I LEVELDB -I LEVELDB/include -I SNAPPY -c leveldb-driver.cc
//   clang++ leveldb-driver.o LIBRARY.o -pthread -o driver && ./driver
#include "helpers/memenv/memenv.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"
#include "snappy-sinksource.h"
#include "snappy.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

uint64_t Checksum = 1469598103934665603ULL; // FNV-1a 64 offset basis

// Adds bytes to the checksum.
void hashBytes(const void *P, size_t N) {
  const unsigned char *B = static_cast<const unsigned char *>(P);
  for (size_t I = 0; I < N; I++) {
    Checksum ^= B[I];
    Checksum *= 1099511628211ULL;
  }
}

void hashString(const std::string &S) {
  hashBytes(S.data(), S.size());
  uint64_t N = S.size();
  hashBytes(&N, sizeof N);
}

void hashInt(uint64_t V) { hashBytes(&V, sizeof V); }

// Fixed pseudo-random generator (xorshift64*), one call per statement.
uint64_t RngState = 0x2545F4914F6CDD1DULL;
uint32_t rnd() {
  RngState ^= RngState >> 12;
  RngState ^= RngState << 25;
  RngState ^= RngState >> 27;
  return static_cast<uint32_t>((RngState * 2685821657736338717ULL) >> 32);
}
uint32_t rndBelow(uint32_t N) { return rnd() % N; }

[[noreturn]] void fail(const std::string &What) {
  std::fprintf(stderr, "leveldb-driver: %s\n", What.c_str());
  std::exit(1);
}

void check(const leveldb::Status &S, const char *What) {
  if (!S.ok())
    fail(std::string(What) + ": " + S.ToString());
}

const char *const Words[] = {"alpha", "bravo",  "charlie", "delta", "echo",   "foxtrot", "golf",
                             "hotel", "india",  "juliet",  "kilo",  "lima",   "mike",    "november",
                             "oscar", "papa",   "quebec",  "romeo", "sierra", "tango"};

// A buffer of N bytes of the given kind: 0 random, 1 text, 2 runs, 3 zeros, 4 mixed.
std::string makeBuffer(int Kind, size_t N) {
  std::string S;
  S.reserve(N);
  while (S.size() < N) {
    switch (Kind) {
    case 0:
      S.push_back(static_cast<char>(rnd() >> 24));
      break;
    case 1:
      S += Words[rndBelow(20)];
      S.push_back(rndBelow(8) ? ' ' : '\n');
      break;
    case 2: {
      size_t Len = 1 + rndBelow(300);
      char C = static_cast<char>('a' + rndBelow(4));
      S.append(Len, C);
      break;
    }
    case 3:
      S.push_back('\0');
      break;
    default: {
      int Sub = static_cast<int>(rndBelow(3));
      size_t Len = 1 + rndBelow(2000);
      S += makeBuffer(Sub, Len);
      break;
    }
    }
  }
  S.resize(N);
  return S;
}

// Snappy round trips of every kind and size, through three interfaces; corrupted streams.
void snappyRoundTrips() {
  static const size_t Sizes[] = {0, 1, 7, 100, 4096, 32768, 65535, 65536, 65537, 200000};
  static const char *const Kinds[] = {"random", "text", "runs", "zeros", "mixed"};
  for (int Kind = 0; Kind < 5; Kind++) {
    uint64_t In = 0, Out = 0;
    for (size_t Size : Sizes) {
      std::string Input = makeBuffer(Kind, Size);
      std::string Compressed;
      size_t N = snappy::Compress(Input.data(), Input.size(), &Compressed);
      if (N != Compressed.size() || N > snappy::MaxCompressedLength(Input.size()))
        fail("snappy::Compress size");
      if (!snappy::IsValidCompressedBuffer(Compressed.data(), Compressed.size()))
        fail("snappy: invalid compressed buffer");
      size_t Length = 0;
      if (!snappy::GetUncompressedLength(Compressed.data(), Compressed.size(), &Length) ||
          Length != Input.size())
        fail("snappy: uncompressed length");
      std::string Back;
      if (!snappy::Uncompress(Compressed.data(), Compressed.size(), &Back) || Back != Input)
        fail("snappy: round trip (string)");

      // Raw interface, into a buffer of exactly the right size.
      std::vector<char> Raw(snappy::MaxCompressedLength(Input.size()) + 1);
      size_t RawLength = 0;
      snappy::RawCompress(Input.data(), Input.size(), Raw.data(), &RawLength);
      if (std::string(Raw.data(), RawLength) != Compressed)
        fail("snappy: RawCompress differs from Compress");
      std::vector<char> RawBack(Input.size() + 1);
      if (!snappy::RawUncompress(Raw.data(), RawLength, RawBack.data()) ||
          std::string(RawBack.data(), Input.size()) != Input)
        fail("snappy: round trip (raw)");

      // Source/Sink interface.
      snappy::ByteArraySource Source(Input.data(), Input.size());
      std::vector<char> SinkBuffer(snappy::MaxCompressedLength(Input.size()) + 1);
      snappy::UncheckedByteArraySink Sink(SinkBuffer.data());
      size_t SinkLength = snappy::Compress(&Source, &Sink);
      if (std::string(SinkBuffer.data(), SinkLength) != Compressed)
        fail("snappy: Source/Sink compression differs");

      hashString(Compressed);
      In += Input.size();
      Out += Compressed.size();
    }
    std::printf("snappy %s: %llu -> %llu bytes\n", Kinds[Kind], static_cast<unsigned long long>(In),
                static_cast<unsigned long long>(Out));
  }

  // Corruptions: truncated streams and flipped bytes must be rejected or decode to something (never crash).
  std::string Input = makeBuffer(4, 50000);
  std::string Compressed;
  snappy::Compress(Input.data(), Input.size(), &Compressed);
  int Rejected = 0, Decoded = 0;
  for (int I = 0; I < 200; I++) {
    std::string Bad = Compressed;
    if (I % 4 == 0) {
      Bad.resize(rndBelow(static_cast<uint32_t>(Bad.size())));
    } else {
      size_t At = 4 + rndBelow(static_cast<uint32_t>(Bad.size() - 4)); // not the length: no huge outputs
      Bad[At] = static_cast<char>(Bad[At] ^ (1 + rndBelow(255)));
    }
    std::string Out;
    bool Valid = snappy::IsValidCompressedBuffer(Bad.data(), Bad.size());
    bool Ok = snappy::Uncompress(Bad.data(), Bad.size(), &Out);
    if (Valid != Ok)
      fail("snappy: IsValidCompressedBuffer disagrees with Uncompress");
    if (Ok) {
      Decoded++;
      hashString(Out);
    } else {
      Rejected++;
    }
  }
  std::printf("snappy corrupt: %d rejected, %d decoded\n", Rejected, Decoded);
}

std::string keyOf(uint32_t I) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "key%08u", I);
  return Buf;
}

std::string valueOf(uint32_t I, uint32_t Version) {
  std::string V = "v" + std::to_string(Version) + ":" + std::to_string(I) + ":";
  uint32_t Len = 10 + rndBelow(300);
  if (rndBelow(2))
    V += makeBuffer(1, Len); // compressible
  else
    V += makeBuffer(0, Len);
  return V;
}

// Checksum of a full scan, forward; also counts the entries.
uint64_t scan(leveldb::DB *Db, const leveldb::ReadOptions &Options, uint64_t *Count) {
  uint64_t Saved = Checksum;
  Checksum = 1469598103934665603ULL;
  uint64_t N = 0;
  leveldb::Iterator *It = Db->NewIterator(Options);
  for (It->SeekToFirst(); It->Valid(); It->Next()) {
    hashString(It->key().ToString());
    hashString(It->value().ToString());
    N++;
  }
  check(It->status(), "scan");
  delete It;
  uint64_t Result = Checksum;
  Checksum = Saved;
  hashInt(Result);
  *Count = N;
  return Result;
}

// Orders keys backwards (the second database's comparator).
class ReverseComparator : public leveldb::Comparator {
public:
  int Compare(const leveldb::Slice &A, const leveldb::Slice &B) const override { return -A.compare(B); }
  const char *Name() const override { return "shard.ReverseComparator"; }
  void FindShortestSeparator(std::string *, const leveldb::Slice &) const override {}
  void FindShortSuccessor(std::string *) const override {}
};

void levelDb() {
  leveldb::Env *Env = leveldb::NewMemEnv(leveldb::Env::Default());
  leveldb::Cache *Cache = leveldb::NewLRUCache(256 * 1024);
  const leveldb::FilterPolicy *Bloom = leveldb::NewBloomFilterPolicy(10);
  leveldb::Options Options;
  Options.create_if_missing = true;
  Options.error_if_exists = true;
  Options.env = Env;
  Options.write_buffer_size = 64 * 1024;
  Options.max_file_size = 128 * 1024;
  Options.block_size = 1024;
  Options.block_restart_interval = 8;
  Options.block_cache = Cache;
  Options.filter_policy = Bloom;
  Options.compression = leveldb::kSnappyCompression;
  Options.paranoid_checks = true;
  const std::string Name = "/shard-leveldb";
  leveldb::DB *Db = nullptr;
  check(leveldb::DB::Open(Options, Name, &Db), "open");

  const uint32_t N = 12000;
  leveldb::WriteOptions Write;
  for (uint32_t I = 0; I < N; I++) {
    uint32_t K = (I * 7919) % N; // every key once, in a scattered order
    check(Db->Put(Write, keyOf(K), valueOf(K, 1)), "put");
  }
  // Batches: overwrite every 5th key, delete every 11th.
  for (uint32_t Start = 0; Start < N; Start += 1000) {
    leveldb::WriteBatch Batch;
    for (uint32_t K = Start; K < Start + 1000; K++) {
      if (K % 11 == 0)
        Batch.Delete(keyOf(K));
      else if (K % 5 == 0)
        Batch.Put(keyOf(K), valueOf(K, 2));
    }
    check(Db->Write(Write, &Batch), "write batch");
  }
  for (uint32_t K = 3; K < N; K += 97)
    check(Db->Delete(Write, keyOf(K)), "delete");

  leveldb::ReadOptions Read;
  Read.verify_checksums = true;
  uint64_t Found = 0, Missing = 0;
  for (uint32_t K = 0; K < N + 500; K += 7) {
    std::string V;
    leveldb::Status S = Db->Get(Read, keyOf(K), &V);
    if (S.ok()) {
      Found++;
      hashString(V);
    } else if (S.IsNotFound()) {
      Missing++;
    } else {
      check(S, "get");
    }
  }
  std::printf("leveldb get: %llu found, %llu missing\n", static_cast<unsigned long long>(Found),
              static_cast<unsigned long long>(Missing));

  uint64_t Count = 0;
  uint64_t Before = scan(Db, Read, &Count);
  std::printf("leveldb scan: %llu entries\n", static_cast<unsigned long long>(Count));

  // Backwards from the end, and seeks.
  leveldb::Iterator *It = Db->NewIterator(Read);
  int Back = 0;
  for (It->SeekToLast(); It->Valid() && Back < 300; It->Prev(), Back++)
    hashString(It->key().ToString());
  std::string Seen;
  for (uint32_t K = 1; K < N; K += 1111) {
    It->Seek(keyOf(K));
    if (It->Valid()) {
      hashString(It->key().ToString());
      Seen += It->key().ToString().substr(3) + " ";
    }
  }
  check(It->status(), "iterator");
  delete It;
  std::printf("leveldb seek: %s\n", Seen.c_str());

  // A snapshot keeps seeing the old values.
  const leveldb::Snapshot *Snap = Db->GetSnapshot();
  for (uint32_t K = 0; K < N; K += 13)
    check(Db->Put(Write, keyOf(K), valueOf(K, 3)), "put after snapshot");
  leveldb::ReadOptions AtSnap = Read;
  AtSnap.snapshot = Snap;
  uint64_t SnapCount = 0;
  uint64_t AtSnapshot = scan(Db, AtSnap, &SnapCount);
  std::printf("leveldb snapshot: %s, %llu entries\n", AtSnapshot == Before ? "unchanged" : "CHANGED",
              static_cast<unsigned long long>(SnapCount));
  Db->ReleaseSnapshot(Snap);

  uint64_t Current = scan(Db, Read, &Count);
  Db->CompactRange(nullptr, nullptr);
  uint64_t Compacted = scan(Db, Read, &Count);
  std::printf("leveldb compaction: %s, %llu entries\n", Compacted == Current ? "same data" : "DIFFERENT",
              static_cast<unsigned long long>(Count));

  // Reopen: the log and the manifest are read back.
  delete Db;
  Options.error_if_exists = false;
  Options.create_if_missing = false;
  check(leveldb::DB::Open(Options, Name, &Db), "reopen");
  uint64_t Reopened = scan(Db, Read, &Count);
  std::printf("leveldb reopen: %s, %llu entries\n", Reopened == Current ? "same data" : "DIFFERENT",
              static_cast<unsigned long long>(Count));
  delete Db;
  check(leveldb::DestroyDB(Name, Options), "destroy");

  // A second database: reverse key order, no compression, tiny blocks.
  ReverseComparator Reverse;
  leveldb::Options Options2;
  Options2.create_if_missing = true;
  Options2.env = Env;
  Options2.comparator = &Reverse;
  Options2.compression = leveldb::kNoCompression;
  Options2.write_buffer_size = 32 * 1024;
  Options2.block_size = 256;
  check(leveldb::DB::Open(Options2, "/shard-reverse", &Db), "open reverse");
  for (uint32_t I = 0; I < 3000; I++) {
    std::string Key = keyOf(rndBelow(100000));
    check(Db->Put(Write, Key, valueOf(I, 4)), "put reverse");
  }
  It = Db->NewIterator(Read);
  It->SeekToFirst();
  std::string First = It->Valid() ? It->key().ToString() : "none";
  delete It;
  scan(Db, Read, &Count);
  std::printf("leveldb reverse: %llu entries, first %s\n", static_cast<unsigned long long>(Count),
              First.c_str());
  delete Db;
  check(leveldb::DestroyDB("/shard-reverse", Options2), "destroy reverse");

  delete Bloom;
  delete Cache;
  delete Env;
}

} // namespace

int main() {
  snappyRoundTrips();
  levelDb();
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(Checksum));
  return 0;
}
