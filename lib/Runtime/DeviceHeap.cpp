//===- DeviceHeap.cpp - The heap of device malloc and free ----------------===//

#include "ptxjit/Runtime/DeviceHeap.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <iterator>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

Expected<std::unique_ptr<DeviceHeap>> DeviceHeap::create(uint64_t Size,
                                                         CheckSession *Check) {
  // Whole blocks only: a tail smaller than Alignment could never be used.
  Size = alignDown(Size, Alignment);
  void *Base = allocateDevice(Size, 4096);
  if (!Base)
    return createStringError(
        std::make_error_code(std::errc::not_enough_memory),
        "cannot reserve %llu bytes for the device heap (malloc)",
        static_cast<unsigned long long>(Size));
  setDeviceAllocationName(Base, formatv("the device heap ({0} bytes)", Size));
  return std::unique_ptr<DeviceHeap>(
      new DeviceHeap(static_cast<char *>(Base), Size, Check));
}

DeviceHeap::DeviceHeap(char *Base, uint64_t Size, CheckSession *Check)
    : Base(Base), Size(Size), Check(Check) {
  if (Size)
    FreeRanges.emplace(0, Size);
}

DeviceHeap::~DeviceHeap() {
  if (Check)
    for (const auto &B : Blocks)
      Check->freeAllocation(Base + B.first);
  freeDevice(Base);
}

void *DeviceHeap::allocate(uint64_t Bytes) {
  if (Bytes == 0 || Bytes > Size)
    return nullptr;
  uint64_t Need = alignTo(Bytes, Alignment);
  std::lock_guard<std::mutex> G(Lock);
  // First fit: the lowest free range large enough, so the lanes of a warp
  // that allocate in turn get rising addresses.
  for (auto It = FreeRanges.begin(); It != FreeRanges.end(); ++It) {
    auto [Offset, Free] = *It;
    if (Free < Need)
      continue;
    FreeRanges.erase(It);
    if (Free > Need)
      FreeRanges.emplace(Offset + Need, Free - Need);
    Blocks[Offset] = Need;
    Allocated += Need;
    // Under the heap's lock: no other thread can free the block and have
    // its address handed out again before the session knows it.
    if (Check)
      Check->addAllocation(Base + Offset, Bytes, "device malloc",
                           /*Written=*/false);
    return Base + Offset;
  }
  return nullptr;
}

bool DeviceHeap::free(void *Ptr) {
  if (!Ptr)
    return false;
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Base);
  if (P < Begin || P - Begin >= Size)
    return false;
  uint64_t Offset = P - Begin;
  std::lock_guard<std::mutex> G(Lock);
  auto B = Blocks.find(Offset);
  if (B == Blocks.end())
    return false;
  uint64_t Len = B->second;
  Blocks.erase(B);
  Allocated -= Len;
  if (Check)
    Check->freeAllocation(Ptr);
  // Merge with the free ranges on either side.
  auto Next = FreeRanges.lower_bound(Offset);
  if (Next != FreeRanges.end() && Offset + Len == Next->first) {
    Len += Next->second;
    Next = FreeRanges.erase(Next);
  }
  if (Next != FreeRanges.begin()) {
    auto Prev = std::prev(Next);
    if (Prev->first + Prev->second == Offset) {
      Prev->second += Len;
      return true;
    }
  }
  FreeRanges.emplace_hint(Next, Offset, Len);
  return true;
}

uint64_t DeviceHeap::getAllocatedBytes() const {
  std::lock_guard<std::mutex> G(Lock);
  return Allocated;
}
