//===- SpellingIndex.h - Fast look-up of opcode and suffix spellings ------===//
//
// The parser looks up every opcode and every dot-suffix it reads; with
// llvm::StringMap's general-purpose hashing those look-ups were a quarter of
// the parse time. Spellings are short and few (a few hundred, from the .def
// tables), so a small open-addressing table with a cheap hash is enough.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_PTX_SPELLINGINDEX_H
#define PTXJIT_LIB_PTX_SPELLINGINDEX_H

#include "llvm/ADT/StringRef.h"
#include <cassert>
#include <cstdint>
#include <cstring>

namespace ptxjit {
namespace ptx {

/// An immutable-after-construction map from spellings (which must outlive
/// it, as string literals do) to 16-bit values.
class SpellingIndex {
public:
  static constexpr uint16_t NotFound = 0xFFFF;

  /// Adds Spelling -> Value unless Spelling is already present: the first
  /// insertion wins, as the first table consulted did before.
  void insert(llvm::StringRef Spelling, uint16_t Value) {
    assert(NumEntries < Capacity / 2 && "SpellingIndex is too full");
    for (uint32_t I = hash(Spelling);; ++I) {
      Entry &E = Entries[I & (Capacity - 1)];
      if (!E.Data) {
        E = {Spelling.data(), uint32_t(Spelling.size()), Value};
        ++NumEntries;
        return;
      }
      if (E.matches(Spelling))
        return;
    }
  }

  uint16_t lookup(llvm::StringRef Spelling) const {
    for (uint32_t I = hash(Spelling);; ++I) {
      const Entry &E = Entries[I & (Capacity - 1)];
      if (!E.Data)
        return NotFound;
      if (E.matches(Spelling))
        return E.Value;
    }
  }

private:
  static constexpr uint32_t Capacity = 1024;

  struct Entry {
    const char *Data = nullptr;
    uint32_t Size = 0;
    uint16_t Value = 0;
    bool matches(llvm::StringRef S) const {
      return Size == S.size() && std::memcmp(Data, S.data(), Size) == 0;
    }
  };

  static uint32_t hash(llvm::StringRef S) {
    uint32_t H = 2166136261u; // FNV-1a
    for (char C : S)
      H = (H ^ uint8_t(C)) * 16777619u;
    return H ^ (H >> 15);
  }

  Entry Entries[Capacity];
  unsigned NumEntries = 0;
};

} // namespace ptx
} // namespace ptxjit

#endif
