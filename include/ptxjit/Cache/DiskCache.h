//===- DiskCache.h - A directory of cached entries --------------*- C++ -*-===//
//
// Compiled kernels and the PTX of CUDA sources are kept across runs in one
// directory, one file per entry named by its key. Several processes may
// fill the directory at once: a writer writes a temporary file there and
// renames it over the entry, so a reader sees a whole entry or none. Each
// file starts with a header (magic, format version, the key again, the
// payload's size and checksum); a file that does not match is ignored, and
// the next store replaces it. The directory is kept under a size limit by
// removing the least recently used entries (a hit touches its file).
//
// The cache never fails a run: when the directory cannot be made or
// written, it warns once and the run goes on without it.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_CACHE_DISKCACHE_H
#define PTXJIT_CACHE_DISKCACHE_H

#include "ptxjit/Cache/CacheKey.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace cache {

constexpr uint64_t DefaultCacheMaxBytes = uint64_t(1) << 30;

struct DiskCacheOptions {
  std::string Dir;
  uint64_t MaxBytes = DefaultCacheMaxBytes;
};

/// "512", "64K", "200M", "1G" (binary units) as bytes.
llvm::Expected<uint64_t> parseCacheSize(llvm::StringRef Text);

/// Where the cache is and how big it may grow: Dir when given (the
/// --cache-dir option), else $PTXJIT_CACHE_DIR, else
/// $XDG_CACHE_HOME/ptx-jit, else ~/.cache/ptx-jit; the size from
/// $PTXJIT_CACHE_MAX_SIZE (a bad value warns on Warn and the default is
/// used). std::nullopt when the cache is off: Disable (--no-cache), or
/// PTXJIT_CACHE_DIR set to "" or "off".
std::optional<DiskCacheOptions>
getDiskCacheOptions(std::optional<llvm::StringRef> Dir, bool Disable,
                    llvm::raw_ostream &Warn);

class DiskCache {
public:
  /// Warnings (once each) go to Warn; null: llvm::errs().
  explicit DiskCache(DiskCacheOptions Opts, llvm::raw_ostream *Warn = nullptr);

  /// The payload stored under Key; std::nullopt if there is none, or the
  /// file is damaged, truncated or not an entry for Key. A hit makes the
  /// entry the most recently used.
  std::optional<std::string> lookup(const CacheDigest &Key);
  /// Stores Payload under Key (replacing what was there), then evicts the
  /// least recently used entries while the cache is over its size. Returns
  /// whether the entry was written.
  bool store(const CacheDigest &Key, llvm::StringRef Payload);
  /// Removes least recently used entries until the entries take at most
  /// the size limit.
  void prune();

  llvm::StringRef getDir() const { return Opts.Dir; }
  std::string getEntryPath(const CacheDigest &Key) const;
  /// Whether the cache still works (no write has failed).
  bool isUsable() const { return Usable; }

  /// The file an entry is stored in: header, then Payload.
  static std::string encodeEntry(const CacheDigest &Key,
                                 llvm::StringRef Payload);
  /// The payload of File if it is a whole entry for Key.
  static std::optional<llvm::StringRef> decodeEntry(const CacheDigest &Key,
                                                    llvm::StringRef File);

private:
  void warnOnce(const llvm::Twine &Message);

  DiskCacheOptions Opts;
  llvm::raw_ostream *Warn;
  std::atomic<bool> Usable{true};
  std::mutex WarnLock;
  bool Warned = false;
};

} // namespace cache
} // namespace ptxjit

#endif
