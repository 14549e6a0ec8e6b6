//===- DiskCache.cpp - A directory of cached entries ----------------------===//

#include "ptxjit/Cache/DiskCache.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cache;
namespace endian = llvm::support::endian;

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg.str());
}

Expected<uint64_t> cache::parseCacheSize(StringRef Text) {
  StringRef Rest = Text.trim();
  uint64_t Number;
  if (Rest.consumeInteger(10, Number))
    return makeError("invalid cache size '" + Text +
                     "': expected a number of bytes with an optional K, M "
                     "or G suffix");
  unsigned Shift = 0;
  if (!Rest.empty()) {
    switch (toLower(Rest.front())) {
    case 'k':
      Shift = 10;
      break;
    case 'm':
      Shift = 20;
      break;
    case 'g':
      Shift = 30;
      break;
    case 't':
      Shift = 40;
      break;
    default:
      break;
    }
    if (Shift)
      Rest = Rest.drop_front();
    // "M", "MB" and "MiB" are all binary megabytes.
    if (Shift && !Rest.consume_front_insensitive("ib"))
      Rest.consume_front_insensitive("b");
  }
  if (!Rest.empty() || Number == 0)
    return makeError("invalid cache size '" + Text +
                     "': expected a positive number of bytes with an "
                     "optional K, M or G suffix");
  if (Shift && Number > (UINT64_MAX >> Shift))
    return makeError("invalid cache size '" + Text + "': too large");
  return Number << Shift;
}

std::optional<DiskCacheOptions>
cache::getDiskCacheOptions(std::optional<StringRef> Dir, bool Disable,
                           raw_ostream &Warn) {
  if (Disable)
    return std::nullopt;
  DiskCacheOptions Opts;
  if (Dir) {
    if (Dir->empty())
      return std::nullopt;
    Opts.Dir = Dir->str();
  } else if (const char *Env = std::getenv("PTXJIT_CACHE_DIR")) {
    if (!*Env || StringRef(Env) == "off")
      return std::nullopt;
    Opts.Dir = Env;
  } else {
    SmallString<128> Path;
    const char *XDG = std::getenv("XDG_CACHE_HOME");
    // The XDG specification ignores relative paths.
    if (XDG && sys::path::is_absolute(XDG))
      Path = XDG;
    else if (sys::path::home_directory(Path))
      sys::path::append(Path, ".cache");
    else
      return std::nullopt;
    sys::path::append(Path, "ptx-jit");
    Opts.Dir = std::string(Path);
  }
  if (const char *Size = std::getenv("PTXJIT_CACHE_MAX_SIZE"); Size && *Size) {
    Expected<uint64_t> Bytes = parseCacheSize(Size);
    if (Bytes)
      Opts.MaxBytes = *Bytes;
    else
      WithColor::warning(Warn, "ptx-jit")
          << "PTXJIT_CACHE_MAX_SIZE: " << toString(Bytes.takeError())
          << "; using " << (DefaultCacheMaxBytes >> 20) << "M\n";
  }
  return Opts;
}

// The header of an entry file; integers little-endian.
static constexpr char Magic[8] = {'P', 'T', 'X', 'J', 'I', 'T', 'C', '\n'};
static constexpr size_t VersionAt = 8, KeyAt = 16, SizeAt = 48, SumAt = 56,
                        HeaderSize = 88;

std::string DiskCache::encodeEntry(const CacheDigest &Key, StringRef Payload) {
  std::string File(HeaderSize, '\0');
  std::memcpy(File.data(), Magic, sizeof Magic);
  endian::write32le(File.data() + VersionAt, CacheFormatVersion);
  std::memcpy(File.data() + KeyAt, Key.data(), Key.size());
  endian::write64le(File.data() + SizeAt, Payload.size());
  CacheDigest Sum = hashBytes(Payload);
  std::memcpy(File.data() + SumAt, Sum.data(), Sum.size());
  File += Payload;
  return File;
}

std::optional<StringRef> DiskCache::decodeEntry(const CacheDigest &Key,
                                                StringRef File) {
  if (File.size() < HeaderSize ||
      std::memcmp(File.data(), Magic, sizeof Magic) ||
      endian::read32le(File.data() + VersionAt) != CacheFormatVersion ||
      std::memcmp(File.data() + KeyAt, Key.data(), Key.size()) ||
      endian::read64le(File.data() + SizeAt) != File.size() - HeaderSize)
    return std::nullopt;
  StringRef Payload = File.drop_front(HeaderSize);
  CacheDigest Sum = hashBytes(Payload);
  if (std::memcmp(File.data() + SumAt, Sum.data(), Sum.size()))
    return std::nullopt;
  return Payload;
}

DiskCache::DiskCache(DiskCacheOptions Opts, raw_ostream *Warn)
    : Opts(std::move(Opts)), Warn(Warn ? Warn : &errs()) {}

void DiskCache::warnOnce(const Twine &Message) {
  std::lock_guard<std::mutex> G(WarnLock);
  if (Warned)
    return;
  Warned = true;
  WithColor::warning(*Warn, "ptx-jit")
      << "kernel cache: " << Message << "; going on without it\n";
}

static constexpr StringRef EntrySuffix = ".entry";

std::string DiskCache::getEntryPath(const CacheDigest &Key) const {
  SmallString<128> Path(Opts.Dir);
  sys::path::append(Path, toHex(Key) + EntrySuffix);
  return std::string(Path);
}

static bool isEntryName(StringRef Name) {
  return Name.consume_back(EntrySuffix) && Name.size() == 64 &&
         all_of(Name, isHexDigit);
}

std::optional<std::string> DiskCache::lookup(const CacheDigest &Key) {
  std::string Path = getEntryPath(Key);
  // Read, not mapped: a file cut short under us must not fault.
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false,
                            /*IsVolatile=*/true);
  if (!File)
    return std::nullopt;
  std::optional<StringRef> Payload = decodeEntry(Key, (*File)->getBuffer());
  if (!Payload)
    return std::nullopt;
  // Most recently used: eviction goes by modification time. A read-only
  // cache still serves hits.
  ::utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  return Payload->str();
}

bool DiskCache::store(const CacheDigest &Key, StringRef Payload) {
  if (!Usable)
    return false;
  if (std::error_code EC = sys::fs::create_directories(Opts.Dir)) {
    Usable = false;
    warnOnce("cannot create '" + Opts.Dir + "': " + EC.message());
    return false;
  }
  SmallString<128> Model(Opts.Dir);
  sys::path::append(Model, "tmp-%%%%%%%%%%%%%%%%");
  SmallString<128> Temp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Temp)) {
    Usable = false;
    warnOnce("cannot write in '" + Opts.Dir + "': " + EC.message());
    return false;
  }
  std::string File = encodeEntry(Key, Payload);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << File;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Temp);
      Usable = false;
      warnOnce("cannot write '" + Temp + "': " + EC.message());
      return false;
    }
  }
  // Atomic: readers see the old entry or the new one, never a part.
  if (std::error_code EC = sys::fs::rename(Temp, getEntryPath(Key))) {
    sys::fs::remove(Temp);
    Usable = false;
    warnOnce("cannot rename '" + Temp + "': " + EC.message());
    return false;
  }
  prune();
  return true;
}

void DiskCache::prune() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Modified;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::directory_iterator It(Opts.Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status, /*Follow=*/false) ||
        Status.type() != sys::fs::file_type::regular_file)
      continue;
    if (isEntryName(Name)) {
      Entries.push_back(
          {It->path(), Status.getSize(), Status.getLastModificationTime()});
      Total += Status.getSize();
    } else if (Name.starts_with("tmp-") &&
               Now - Status.getLastModificationTime() >
                   std::chrono::hours(24)) {
      // Left by a writer that died; a live one renames within seconds.
      sys::fs::remove(It->path());
    }
  }
  if (Total <= Opts.MaxBytes)
    return;
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return std::tie(A.Modified, A.Path) < std::tie(B.Modified, B.Path);
  });
  for (const Entry &E : Entries) {
    if (Total <= Opts.MaxBytes)
      break;
    // Another process may have removed it first; then it is gone anyway.
    sys::fs::remove(E.Path);
    Total -= E.Size;
  }
}
