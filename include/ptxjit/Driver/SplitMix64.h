//===- SplitMix64.h - The generator behind `=rand` --------------*- C++ -*-===//
//
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014; the variant in Vigna's splitmix64.c). It is
// defined bit for bit, so `rand:SEED` gives the same buffer on every platform
// and compiler, which std::uniform_*_distribution does not promise.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_SPLITMIX64_H
#define PTXJIT_DRIVER_SPLITMIX64_H

#include <cstdint>

namespace ptxjit {
namespace driver {

class SplitMix64 {
  uint64_t State;

public:
  explicit SplitMix64(uint64_t Seed) : State(Seed) {}

  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111eb;
    return Z ^ (Z >> 31);
  }
};

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_SPLITMIX64_H
