//===- Checking.h - The checking mode's memory map and reports --*- C++ -*-===//
//
// `ptx-jit run --check` and PTXJIT_CHECK: kernels compiled for checking
// (IRGenOptions::CheckKinds) call the runtime before each access and at
// each barrier (CheckABI.h). A CheckSession, one per device context, knows
// the memory kernels may reach (allocations, with a shadow byte per byte
// saying whether it was written, for initcheck) and collects the reports,
// deduplicated per kernel, PTX line and kind, in compute-sanitizer's format
// (docs/CHECKING.md). A checked launch hands the runtime a LaunchCheck.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_CHECKING_H
#define PTXJIT_RUNTIME_CHECKING_H

#include "ptxjit/ABI/CheckABI.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
struct KernelLayout;
namespace runtime {

/// "memcheck,racecheck,...", or "all" or "" for all of them, as CheckKind
/// bits; "none" is 0.
llvm::Expected<unsigned> parseCheckKinds(llvm::StringRef Spec);
/// The kinds PTXJIT_CHECK names (0 when unset); a bad value is reported on
/// stderr once and checks everything.
unsigned getCheckKindsFromEnvironment();

class CheckSession {
public:
  /// Reports go to OS as they are found.
  CheckSession(unsigned Kinds, llvm::raw_ostream &OS);
  ~CheckSession();
  CheckSession(const CheckSession &) = delete;
  CheckSession &operator=(const CheckSession &) = delete;

  unsigned kinds() const { return Kinds; }

  /// Memory kernels may reach. Written: every byte counts as written
  /// (initcheck), e.g. buffers the host filled.
  void addAllocation(const void *Base, uint64_t Size, llvm::StringRef Name,
                     bool Written);
  /// Later accesses to the allocation at Base are use of freed memory.
  void freeAllocation(const void *Base);
  /// The host wrote [Ptr, Ptr + Size) (a copy or a set).
  void markWritten(const void *Ptr, uint64_t Size);

  uint64_t numErrors() const;
  /// "========= ERROR SUMMARY: N errors".
  void printSummary();

  // For the runtime's checks.

  struct Region {
    uintptr_t Base = 0;
    uint64_t Size = 0;
    std::string Name;
    /// One byte per byte, nonzero once written; null: all written.
    std::unique_ptr<uint8_t[]> Written;
    bool Freed = false;
  };
  /// How many allocations were freed so far (read atomically).
  const uint64_t *freesAddress() const { return &Frees; }
  uint64_t frees() const { return __atomic_load_n(&Frees, __ATOMIC_ACQUIRE); }
  /// The live allocation holding Addr, else a freed one, else null. Regions
  /// are never destroyed while the session lives.
  const Region *find(uintptr_t Addr) const;
  /// Whether Addr is within Slack bytes of an allocation, live or freed.
  bool isNear(uintptr_t Addr, uint64_t Slack) const;
  /// "is 4 bytes after the end of allocation 0x... of 256 bytes (NAME)".
  std::string describe(uintptr_t Addr, unsigned Size) const;
  /// Prints Text and counts an error unless Key was reported before.
  void report(const std::string &Key, const std::string &Text);
  bool wasReported(const std::string &Key) const;

private:
  unsigned Kinds;
  llvm::raw_ostream &OS;
  mutable std::shared_mutex MapLock; ///< guards the two maps and Regions
  std::map<uintptr_t, Region *> Live, Freed;
  std::vector<std::unique_ptr<Region>> Regions;
  uint64_t Frees = 0;
  mutable std::mutex ReportLock; ///< guards the members below
  llvm::StringSet<> Reported;
  uint64_t Errors = 0;
};

/// What a checked launch gives the runtime (LaunchConfig::Check).
struct LaunchCheck {
  CheckSession *Session = nullptr;
  unsigned Kinds = 0;
  std::string KernelName;
  /// The PTX file, for "file:line".
  std::string File;
  /// The compiled kernel's layout: its CUDA source lines (.loc), if any.
  const KernelLayout *Layout = nullptr;
};

} // namespace runtime
} // namespace ptxjit

#endif
