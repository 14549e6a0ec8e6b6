//===- Targets.cpp - The PTX versions and targets ptx-jit knows -----------===//

#include "ptxjit/PTX/Targets.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

bool ptxjit::ptx::isNewerThanSupported(unsigned Major, unsigned Minor) {
  return Major > SupportedVersionMajor ||
         (Major == SupportedVersionMajor && Minor > SupportedVersionMinor);
}

// The architectures PTX ISA 9.0 lists for .target.
static constexpr unsigned KnownArchitectures[] = {
    10, 11, 12, 13, 20, 30, 32, 35, 37, 50,  52,  53,  60,  61,  62,
    70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};

bool ptxjit::ptx::isKnownTarget(StringRef Name) {
  static constexpr StringLiteral Options[] = {
      "texmode_unified", "texmode_independent", "map_f64_to_f32", "debug"};
  if (is_contained(Options, Name))
    return true;
  if (!Name.consume_front("sm_") && !Name.consume_front("compute_"))
    return false;
  // sm_90a, sm_100f: architecture-specific and family-specific variants.
  if (Name.ends_with("a") || Name.ends_with("f"))
    Name = Name.drop_back();
  unsigned Arch;
  if (Name.getAsInteger(10, Arch))
    return false;
  return is_contained(KnownArchitectures, Arch);
}
