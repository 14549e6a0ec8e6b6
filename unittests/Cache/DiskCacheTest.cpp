//===- DiskCacheTest.cpp - Entries, damage, eviction, concurrent writers --===//

#include "ptxjit/Cache/DiskCache.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <chrono>
#include <fcntl.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cache;

namespace {

/// A fresh directory, removed afterwards.
class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("ptxjit-cache-test", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  DiskCacheOptions options(uint64_t MaxBytes = DefaultCacheMaxBytes) {
    DiskCacheOptions O;
    O.Dir = std::string(Dir);
    O.MaxBytes = MaxBytes;
    return O;
  }
  static CacheDigest key(StringRef Name) {
    return CacheKeyBuilder("test").add("name", Name).final();
  }
  std::vector<std::string> files() {
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      Names.push_back(sys::path::filename(It->path()).str());
    llvm::sort(Names);
    return Names;
  }
  static void writeFile(StringRef Path, StringRef Bytes) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Bytes;
  }
  /// Sets Path's modification time to Seconds after the epoch.
  static void setTime(StringRef Path, int64_t Seconds) {
    int FD;
    ASSERT_FALSE(sys::fs::openFileForReadWrite(
        Path, FD, sys::fs::CD_OpenExisting, sys::fs::OF_None));
    sys::TimePoint<> T{std::chrono::seconds(Seconds)};
    EXPECT_FALSE(sys::fs::setLastAccessAndModificationTime(FD, T, T));
    ::close(FD);
  }

  SmallString<128> Dir;
};

TEST_F(DiskCacheTest, StoresAndFinds) {
  DiskCache C(options());
  EXPECT_FALSE(C.lookup(key("a")));
  EXPECT_TRUE(C.store(key("a"), "payload a"));
  std::optional<std::string> P = C.lookup(key("a"));
  ASSERT_TRUE(P);
  EXPECT_EQ(*P, "payload a");
  EXPECT_FALSE(C.lookup(key("b")));
  // Replacing is allowed; the new payload wins.
  EXPECT_TRUE(C.store(key("a"), "payload A"));
  EXPECT_EQ(*C.lookup(key("a")), "payload A");
  EXPECT_EQ(files(), std::vector<std::string>{toHex(key("a")) + ".entry"});
}

TEST_F(DiskCacheTest, EveryTruncationAndFlippedByteIsIgnored) {
  std::string File = DiskCache::encodeEntry(key("a"), "some payload bytes");
  ASSERT_TRUE(DiskCache::decodeEntry(key("a"), File));
  EXPECT_EQ(*DiskCache::decodeEntry(key("a"), File), "some payload bytes");
  // Another key's entry (a foreign file under this name).
  EXPECT_FALSE(DiskCache::decodeEntry(key("b"), File));
  for (size_t N = 0; N != File.size(); ++N)
    EXPECT_FALSE(
        DiskCache::decodeEntry(key("a"), StringRef(File).take_front(N)))
        << "cut at " << N;
  EXPECT_FALSE(DiskCache::decodeEntry(key("a"), File + "x"));
  for (size_t I = 0; I != File.size(); ++I) {
    // Header bytes 12-15 are reserved (zero), so not every flip there matters;
    // every other byte does.
    if (I >= 12 && I < 16)
      continue;
    std::string Damaged = File;
    Damaged[I] ^= 0x20;
    EXPECT_FALSE(DiskCache::decodeEntry(key("a"), Damaged)) << "byte " << I;
  }
}

TEST_F(DiskCacheTest, DamagedFileIsIgnoredThenRewritten) {
  DiskCache C(options());
  ASSERT_TRUE(C.store(key("a"), "payload"));
  std::string Path = C.getEntryPath(key("a"));
  // Named: a temporary in the loop's list would be gone before the loop
  // body reads it (C++17 extends only the list's own lifetime).
  std::string OtherEntry = DiskCache::encodeEntry(key("b"), "other");
  for (StringRef Junk :
       {StringRef(""), StringRef("garbage"), StringRef(OtherEntry)}) {
    writeFile(Path, Junk);
    EXPECT_FALSE(C.lookup(key("a")));
    EXPECT_TRUE(C.store(key("a"), "payload"));
    EXPECT_EQ(C.lookup(key("a")).value_or(""), "payload");
  }
  // Cut short.
  std::string Whole = DiskCache::encodeEntry(key("a"), "payload");
  writeFile(Path, StringRef(Whole).drop_back(3));
  EXPECT_FALSE(C.lookup(key("a")));
}

TEST_F(DiskCacheTest, EvictsLeastRecentlyUsed) {
  std::string Payload(1000, 'x');
  uint64_t EntrySize = DiskCache::encodeEntry(key("a"), Payload).size();
  // Room for three entries, not four.
  DiskCache C(options(3 * EntrySize));
  for (StringRef Name : {"a", "b", "c"})
    ASSERT_TRUE(C.store(key(Name), Payload));
  // Use order, oldest first: b, a, c (times long past, so that a hit, which
  // makes an entry's time now, is the newest).
  setTime(C.getEntryPath(key("b")), 1000000000);
  setTime(C.getEntryPath(key("a")), 1000000100);
  setTime(C.getEntryPath(key("c")), 1000000200);
  ASSERT_TRUE(C.store(key("d"), Payload));
  EXPECT_FALSE(C.lookup(key("b")));
  // A hit on a makes c the least recently used.
  EXPECT_TRUE(C.lookup(key("a")));
  setTime(C.getEntryPath(key("d")), 1000000300);
  ASSERT_TRUE(C.store(key("e"), Payload));
  EXPECT_FALSE(C.lookup(key("c")));
  EXPECT_TRUE(C.lookup(key("a")));
  EXPECT_TRUE(C.lookup(key("d")));
  EXPECT_TRUE(C.lookup(key("e")));
  EXPECT_EQ(files().size(), 3u);
}

TEST_F(DiskCacheTest, ConcurrentWritersLeaveWholeEntries) {
  // Threads store the same keys (with the payload the key implies) and
  // look them up while others replace them: every hit is whole and right.
  constexpr unsigned NumThreads = 8, NumKeys = 4, Rounds = 25;
  auto PayloadOf = [](unsigned K) {
    return std::string(20000 + K * 1000, char('a' + K));
  };
  std::vector<std::thread> Threads;
  std::atomic<unsigned> Wrong{0};
  for (unsigned T = 0; T != NumThreads; ++T)
    Threads.emplace_back([&, T] {
      DiskCache C(options());
      for (unsigned R = 0; R != Rounds; ++R) {
        unsigned K = (T + R) % NumKeys;
        std::string Name = "k" + std::to_string(K);
        if (!C.store(key(Name), PayloadOf(K)))
          ++Wrong;
        std::optional<std::string> P = C.lookup(key(Name));
        if (!P || *P != PayloadOf(K))
          ++Wrong;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Wrong, 0u);
  std::vector<std::string> Names = files();
  EXPECT_EQ(Names.size(), NumKeys);
  for (const std::string &N : Names)
    EXPECT_FALSE(StringRef(N).starts_with("tmp-")) << N;
}

TEST_F(DiskCacheTest, UnwritableDirectoryWarnsOnce) {
  SmallString<128> File(Dir);
  sys::path::append(File, "file");
  writeFile(File, "x");
  DiskCacheOptions O;
  O.Dir = (File + "/sub").str();
  std::string Warnings;
  raw_string_ostream OS(Warnings);
  DiskCache C(O, &OS);
  EXPECT_FALSE(C.store(key("a"), "p"));
  EXPECT_FALSE(C.store(key("b"), "p"));
  EXPECT_FALSE(C.lookup(key("a")));
  EXPECT_FALSE(C.isUsable());
  EXPECT_EQ(StringRef(Warnings).count("warning"), 1u) << Warnings;
}

TEST(CacheSizeTest, Suffixes) {
  EXPECT_EQ(cantFail(parseCacheSize("512")), 512u);
  EXPECT_EQ(cantFail(parseCacheSize("64K")), 64u << 10);
  EXPECT_EQ(cantFail(parseCacheSize("200m")), 200u << 20);
  EXPECT_EQ(cantFail(parseCacheSize("1G")), 1u << 30);
  EXPECT_EQ(cantFail(parseCacheSize("2GiB")), uint64_t(2) << 30);
  EXPECT_EQ(cantFail(parseCacheSize("3MB")), 3u << 20);
  for (StringRef Bad : {"", "G", "12X", "-1", "0", "1.5G", "99999999999999G"}) {
    Expected<uint64_t> S = parseCacheSize(Bad);
    EXPECT_FALSE(bool(S)) << Bad.str();
    consumeError(S.takeError());
  }
}

} // namespace
