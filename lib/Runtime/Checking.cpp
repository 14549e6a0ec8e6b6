//===- Checking.cpp - The checking mode's memory map and reports ----------===//

#include "ptxjit/Runtime/Checking.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

Expected<unsigned> runtime::parseCheckKinds(StringRef Spec) {
  Spec = Spec.trim();
  if (Spec.empty() || Spec == "all" || Spec == "1")
    return unsigned(CheckAll);
  if (Spec == "none" || Spec == "0")
    return 0u;
  unsigned Kinds = 0;
  SmallVector<StringRef, 4> Names;
  Spec.split(Names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef N : Names) {
    N = N.trim();
    unsigned K = StringSwitch<unsigned>(N)
                     .Case("memcheck", CheckMemory)
                     .Case("racecheck", CheckRaces)
                     .Case("synccheck", CheckSync)
                     .Case("initcheck", CheckInit)
                     .Case("all", CheckAll)
                     .Default(0);
    if (!K)
      return createStringError(
          inconvertibleErrorCode(),
          "unknown check '%s' (memcheck, racecheck, synccheck, initcheck or "
          "all)",
          N.str().c_str());
    Kinds |= K;
  }
  return Kinds;
}

unsigned runtime::getCheckKindsFromEnvironment() {
  static const unsigned Kinds = [] {
    const char *V = std::getenv("PTXJIT_CHECK");
    if (!V)
      return 0u;
    Expected<unsigned> K = parseCheckKinds(V);
    if (!K) {
      errs() << "ptx-jit: PTXJIT_CHECK: " << toString(K.takeError())
             << "; checking everything\n";
      return unsigned(CheckAll);
    }
    return *K;
  }();
  return Kinds;
}

CheckSession::CheckSession(unsigned Kinds, raw_ostream &OS)
    : Kinds(Kinds), OS(OS) {}

CheckSession::~CheckSession() = default;

void CheckSession::addAllocation(const void *Base, uint64_t Size,
                                 StringRef Name, bool Written) {
  auto R = std::make_unique<Region>();
  R->Base = reinterpret_cast<uintptr_t>(Base);
  R->Size = Size;
  R->Name = Name.str();
  if (!Written && (Kinds & CheckInit)) {
    R->Written = std::make_unique<uint8_t[]>(Size ? Size : 1);
    std::memset(R->Written.get(), 0, Size ? Size : 1);
  }
  std::unique_lock<std::shared_mutex> G(MapLock);
  Freed.erase(R->Base);
  Live[R->Base] = R.get();
  Regions.push_back(std::move(R));
}

void CheckSession::freeAllocation(const void *Base) {
  std::unique_lock<std::shared_mutex> G(MapLock);
  auto It = Live.find(reinterpret_cast<uintptr_t>(Base));
  if (It == Live.end())
    return;
  It->second->Freed = true;
  // After Freed: a kernel's inline check that saw the old count before the
  // region was freed sees it change (CheckFastPath::Frees).
  __atomic_add_fetch(&Frees, 1, __ATOMIC_RELEASE);
  Freed[It->first] = It->second;
  Live.erase(It);
}

/// The region of Map whose range holds Addr.
static const CheckSession::Region *
findIn(const std::map<uintptr_t, CheckSession::Region *> &Map, uintptr_t A) {
  auto It = Map.upper_bound(A);
  if (It == Map.begin())
    return nullptr;
  --It;
  const CheckSession::Region *R = It->second;
  return A - R->Base < std::max<uint64_t>(R->Size, 1) ? R : nullptr;
}

void CheckSession::markWritten(const void *Ptr, uint64_t Size) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::shared_lock<std::shared_mutex> G(MapLock);
  const Region *R = findIn(Live, A);
  if (!R || !R->Written)
    return;
  uint64_t Off = A - R->Base;
  uint64_t N = std::min(Size, R->Size - Off);
  std::memset(R->Written.get() + Off, 1, N);
}

const CheckSession::Region *CheckSession::find(uintptr_t Addr) const {
  std::shared_lock<std::shared_mutex> G(MapLock);
  if (const Region *R = findIn(Live, Addr))
    return R;
  return findIn(Freed, Addr);
}

bool CheckSession::isNear(uintptr_t Addr, uint64_t Slack) const {
  std::shared_lock<std::shared_mutex> G(MapLock);
  for (const auto *Map : {&Live, &Freed}) {
    auto It = Map->upper_bound(Addr);
    if (It != Map->end() && It->first - Addr <= Slack)
      return true;
    if (It != Map->begin()) {
      --It;
      if (Addr - (It->first + It->second->Size) <= Slack)
        return true;
    }
  }
  return false;
}

static std::string regionText(const CheckSession::Region &R) {
  std::string S = formatv("allocation 0x{0} of {1} bytes",
                          utohexstr(R.Base, /*LowerCase=*/true), R.Size)
                      .str();
  if (!R.Name.empty())
    S += " (" + R.Name + ")";
  return S;
}

std::string CheckSession::describe(uintptr_t Addr, unsigned Size) const {
  std::shared_lock<std::shared_mutex> G(MapLock);
  if (const Region *R = findIn(Live, Addr)) {
    uint64_t Past = Addr + Size - (R->Base + R->Size);
    return formatv("reaches {0} bytes past the end of {1}", Past,
                   regionText(*R))
        .str();
  }
  if (const Region *R = findIn(Freed, Addr))
    return "is in freed " + regionText(*R);
  // The nearest live allocation on either side.
  const Region *Below = nullptr, *Above = nullptr;
  auto It = Live.upper_bound(Addr);
  if (It != Live.end())
    Above = It->second;
  if (It != Live.begin())
    Below = std::prev(It)->second;
  uint64_t DistBelow = Below ? Addr - (Below->Base + Below->Size) : ~0ull;
  uint64_t DistAbove = Above ? Above->Base - Addr : ~0ull;
  if (!Below && !Above)
    return "is out of bounds (no allocation is live)";
  if (DistBelow <= DistAbove)
    return formatv("is {0} bytes after the end of {1}", DistBelow,
                   regionText(*Below))
        .str();
  return formatv("is {0} bytes before {1}", DistAbove, regionText(*Above))
      .str();
}

bool CheckSession::wasReported(const std::string &Key) const {
  std::lock_guard<std::mutex> G(ReportLock);
  return Reported.contains(Key);
}

void CheckSession::report(const std::string &Key, const std::string &Text) {
  std::lock_guard<std::mutex> G(ReportLock);
  if (!Reported.insert(Key).second)
    return;
  ++Errors;
  OS << Text;
  OS.flush();
}

uint64_t CheckSession::numErrors() const {
  std::lock_guard<std::mutex> G(ReportLock);
  return Errors;
}

void CheckSession::printSummary() {
  std::lock_guard<std::mutex> G(ReportLock);
  OS << "========= ERROR SUMMARY: " << Errors
     << (Errors == 1 ? " error\n" : " errors\n");
  OS.flush();
}
