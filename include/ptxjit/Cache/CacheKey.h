//===- CacheKey.h - Keys of the on-disk cache -------------------*- C++ -*-===//
//
// A cache entry is named by a BLAKE3 digest of everything its contents
// depend on. Each field goes in with its name and length, so no two
// different lists of fields hash the same text. Every key also holds the
// facts of this build and machine (BuildFacts): an entry made by another
// ptx-jit, another LLVM or for another CPU is never found.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_CACHE_CACHEKEY_H
#define PTXJIT_CACHE_CACHEKEY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include <array>
#include <cstdint>
#include <string>

namespace ptxjit {
namespace cache {

/// The version of the cache's entry formats and key recipes; bump it when
/// either changes.
constexpr uint32_t CacheFormatVersion = 9;

using CacheDigest = std::array<uint8_t, 32>;

/// Lowercase hex of D (64 characters).
std::string toHex(const CacheDigest &D);

/// What every entry depends on besides its own inputs.
struct BuildFacts {
  std::string PtxJitVersion; ///< the release version
  /// Identifies the ptx-jit binary itself (its ELF build id, else its
  /// path, size and modification time), so a rebuilt ptx-jit whose code
  /// generation changed does not reuse older entries.
  std::string BuildId;
  std::string LLVMVersion;
  std::string HostCPU;
  std::string HostFeatures; ///< "+avx2,+fma,-avx512f,...", sorted
  /// This process's, computed once.
  static const BuildFacts &get();
};

class CacheKeyBuilder {
public:
  /// Purpose names what the entry is ("kernel", "cuda-ptx"): keys of
  /// different purposes never meet. Adds Facts.
  CacheKeyBuilder(llvm::StringRef Purpose,
                  const BuildFacts &Facts = BuildFacts::get());
  CacheKeyBuilder &add(llvm::StringRef Field, llvm::StringRef Value);
  CacheKeyBuilder &add(llvm::StringRef Field, uint64_t Value);
  CacheDigest final();

private:
  void addBytes(llvm::StringRef Bytes);
  llvm::BLAKE3 Hasher;
};

/// The BLAKE3 digest of Bytes (entry checksums, file contents).
CacheDigest hashBytes(llvm::StringRef Bytes);

} // namespace cache
} // namespace ptxjit

#endif
