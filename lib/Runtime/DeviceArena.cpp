//===- DeviceArena.cpp - The address range of device memory ---------------===//

#include "ptxjit/Runtime/DeviceArena.h"
#include "ptxjit/Runtime/GuardedMemory.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {
struct Allocation {
  uint64_t Size = 0;
  /// The mapping that holds it (arena slots only; 0 otherwise).
  uint64_t Slot = 0, SlotSize = 0;
  std::string Name;
};

/// At least this much inaccessible address space follows each allocation.
constexpr uint64_t MinGap = uint64_t(1) << 30;
/// Transparent huge pages on x86-64.
constexpr uint64_t HugePageSize = uint64_t(2) << 20;

class Arena {
public:
  static Arena &get() {
    static Arena *A = new Arena; // outlives static destructors that free
    return *A;
  }

  void *allocate(size_t Size, size_t Align) {
    size_t Page = sysconf(_SC_PAGESIZE);
    uint64_t Body = (std::max<uint64_t>(Size, 1) + Page - 1) / Page * Page;
    uint64_t SlotSize = Body + std::max(MinGap, Body);
    std::lock_guard<std::mutex> G(Lock);
    uint64_t Slot = Reserved ? takeSlot(SlotSize) : 0;
    char *Data;
    if (Slot) {
      void *M =
          mmap(reinterpret_cast<void *>(Slot), Body, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
      if (M == MAP_FAILED) {
        Free.emplace(Slot, SlotSize);
        return nullptr;
      }
      // Large buffers in transparent huge pages where the system allows
      // them: a kernel's or the host's first touch of 64 MiB then costs 32
      // page faults instead of 16384 (most of the time of filling one).
      if (Body >= HugePageSize)
        madvise(M, Body, MADV_HUGEPAGE);
      uint64_t Offset = (Body - std::max<uint64_t>(Size, 1)) & ~(Align - 1);
      Data = static_cast<char *>(M) + Offset;
    } else {
      Data = static_cast<char *>(allocateGuarded(Size, Align));
      if (!Data)
        return nullptr;
    }
    Allocation &A = Live[reinterpret_cast<uintptr_t>(Data)];
    A.Size = Size;
    A.Slot = Slot;
    A.SlotSize = Slot ? SlotSize : 0;
    A.Name = llvm::formatv("allocation {0} ({1} bytes)", NextIndex++, Size);
    return Data;
  }

  void free(void *Data) {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Live.find(reinterpret_cast<uintptr_t>(Data));
    if (It == Live.end())
      return;
    Allocation A = std::move(It->second);
    Live.erase(It);
    if (!A.Slot) {
      freeGuarded(Data, A.Size);
      return;
    }
    // Back to reserved address space; the memory goes to the system.
    mmap(reinterpret_cast<void *>(A.Slot), A.SlotSize, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    Free.emplace(A.Slot, A.SlotSize);
  }

  void setName(const void *Data, std::string Name) {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Live.find(reinterpret_cast<uintptr_t>(Data));
    if (It != Live.end())
      It->second.Name = std::move(Name);
  }

  void registerHost(const void *Data, size_t Size) {
    std::lock_guard<std::mutex> G(Lock);
    Host[reinterpret_cast<uintptr_t>(Data)] = Size;
  }
  void unregisterHost(const void *Data) {
    std::lock_guard<std::mutex> G(Lock);
    Host.erase(reinterpret_cast<uintptr_t>(Data));
  }

  bool contains(uint64_t Address, uint64_t Size) {
    std::lock_guard<std::mutex> G(Lock);
    auto Within = [&](const auto &Map, auto SizeOf) {
      auto It = Map.upper_bound(Address);
      if (It == Map.begin())
        return false;
      --It;
      uint64_t Off = Address - It->first;
      uint64_t N = SizeOf(It->second);
      return Off < N && Size <= N - Off;
    };
    return Within(Live, [](const Allocation &A) { return A.Size; }) ||
           Within(Host, [](uint64_t N) { return N; });
  }

  std::string describe(uint64_t Address, uint64_t Size) {
    if (Address < 65536)
      return llvm::formatv("is a null pointer (offset {0})", Address);
    std::lock_guard<std::mutex> G(Lock);
    auto Next = Live.upper_bound(Address);
    if (Next != Live.begin()) {
      auto Prev = std::prev(Next);
      uint64_t Off = Address - Prev->first;
      const Allocation &A = Prev->second;
      if (Off < A.Size && Size <= A.Size - Off)
        return llvm::formatv("is at offset {0} of {1}", Off, A.Name);
      if (Off < A.Size)
        return llvm::formatv("runs {0} bytes past the end of {1}",
                             Off + Size - A.Size, A.Name);
      uint64_t Past = Off - A.Size;
      // The nearer of the allocations on either side.
      if (Next == Live.end() || Past <= Next->first - Address)
        return llvm::formatv("is {0} bytes past the end of {1}", Past, A.Name);
    }
    if (Next != Live.end())
      return llvm::formatv("is {0} bytes before the start of {1}",
                           Next->first - Address, Next->second.Name);
    return "is outside every allocation";
  }

private:
  Arena() {
    void *M = mmap(
        reinterpret_cast<void *>(DeviceArenaBase), DeviceArenaSize, PROT_NONE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1,
        0);
    if (M == reinterpret_cast<void *>(DeviceArenaBase)) {
      Reserved = true;
      // The first slot is not at the base: an address just below a buffer
      // is inaccessible too.
      Top = DeviceArenaBase + MinGap;
    } else if (M != MAP_FAILED) {
      munmap(M, DeviceArenaSize); // an older kernel ignored the flag
    }
  }

  /// A free slot of at least SlotSize bytes, or 0.
  uint64_t takeSlot(uint64_t SlotSize) {
    auto It = std::find_if(Free.begin(), Free.end(),
                           [&](const auto &F) { return F.second >= SlotSize; });
    if (It != Free.end()) {
      uint64_t Slot = It->first;
      Free.erase(It);
      return Slot;
    }
    if (DeviceArenaBase + DeviceArenaSize - Top < SlotSize)
      return 0;
    uint64_t Slot = Top;
    Top += SlotSize;
    return Slot;
  }

  std::mutex Lock;
  bool Reserved = false;
  uint64_t Top = 0;
  unsigned NextIndex = 0;
  std::map<uintptr_t, Allocation> Live;
  std::multimap<uint64_t, uint64_t> Free; ///< slot address, slot size
  std::map<uintptr_t, uint64_t> Host;
};
} // namespace

void *ptxjit::runtime::allocateDevice(size_t Size, size_t Align) {
  return Arena::get().allocate(Size, Align);
}
void ptxjit::runtime::freeDevice(void *Data) {
  if (Data)
    Arena::get().free(Data);
}
void ptxjit::runtime::setDeviceAllocationName(const void *Data,
                                              std::string Name) {
  Arena::get().setName(Data, std::move(Name));
}
void ptxjit::runtime::registerHostMemory(const void *Data, size_t Size) {
  Arena::get().registerHost(Data, Size);
}
void ptxjit::runtime::unregisterHostMemory(const void *Data) {
  Arena::get().unregisterHost(Data);
}
bool ptxjit::runtime::isAllocatedMemory(uint64_t Address, uint64_t Size) {
  return Arena::get().contains(Address, Size);
}
std::string ptxjit::runtime::describeDeviceAddress(uint64_t Address,
                                                   uint64_t Size) {
  return Arena::get().describe(Address, Size);
}
