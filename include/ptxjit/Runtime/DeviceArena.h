//===- DeviceArena.h - The address range of device memory -------*- C++ -*-===//
//
// Device allocations (`run` buffers, cudaMalloc, module variables) come from
// one reserved range of the address space, DeviceArenaSize bytes at
// DeviceArenaBase, never from the host heap: each is a mapping of its own
// with at least a gigabyte of inaccessible address space after it, so an
// access a little or a lot past a buffer faults instead of reaching another
// buffer or the host. Generated code checks that each global or generic
// address lies in the range (one AND and compare per access; see
// IRGen/AddressChecks.cpp) and calls the runtime for the rest, which tells
// legitimate shared, local and host addresses from wild ones.
//
// The allocator also names each allocation ("buffer 2 (`f32[64]`, `--arg
// 2`)"), so that a fault report can say where an address lies relative to
// the nearest one.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_DEVICEARENA_H
#define PTXJIT_RUNTIME_DEVICEARENA_H

#include "ptxjit/ABI/DeviceRange.h"
#include <cstddef>
#include <cstdint>
#include <string>

namespace ptxjit {
namespace runtime {

/// Size zeroed bytes aligned to Align (a power of two, at most a page),
/// ending as close to an inaccessible page as Align allows. Outside the
/// arena (still fenced, and known for reports) if the range could not be
/// reserved or is full. Null if memory runs out.
void *allocateDevice(size_t Size, size_t Align);
void freeDevice(void *Data);
/// Names the allocation at Data in reports ("buffer 0 (`u32[8]`)").
void setDeviceAllocationName(const void *Data, std::string Name);

/// Host memory kernels may reach (cudaMallocHost, cudaHostRegister).
void registerHostMemory(const void *Data, size_t Size);
void unregisterHostMemory(const void *Data);
/// Whether [Address, Address + Size) lies in one device allocation or one
/// registered host range.
bool isAllocatedMemory(uint64_t Address, uint64_t Size);

/// Where Address lies: "N bytes past the end of NAME", "at offset N of
/// NAME", "N bytes before the start of NAME" for the nearest allocation, a
/// null pointer, or outside every allocation.
std::string describeDeviceAddress(uint64_t Address, uint64_t Size);

} // namespace runtime
} // namespace ptxjit

#endif
