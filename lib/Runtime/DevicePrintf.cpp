//===- DevicePrintf.cpp - Device printf and assert ------------------------===//
//
// CUDA's printf compiles to vprintf(format, args): args points to the
// arguments packed one after another, each aligned to its size (8 for
// double, pointers and 64-bit integers, 4 for the rest). The formatter walks
// the format string, takes each argument from the buffer as its conversion
// says, and prints it with the C library's own formatting.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/DevicePrintf.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

using namespace ptxjit;

static std::mutex &outputLock() {
  static std::mutex Lock;
  return Lock;
}

namespace {
/// Reads packed arguments in order, each aligned to its own size.
class ArgReader {
public:
  explicit ArgReader(const char *Args) : Args(Args) {}
  template <typename T> T next() {
    T V{};
    if (!Args)
      return V;
    Offset = (Offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    std::memcpy(&V, Args + Offset, sizeof(T));
    Offset += sizeof(T);
    return V;
  }

private:
  const char *Args;
  size_t Offset = 0;
};
} // namespace

std::string ptxjit::formatDevicePrintf(const char *Format, const char *Args) {
  std::string Out;
  if (!Format)
    return "(null format)";
  ArgReader Reader(Args);
  char Buf[512];
  for (const char *P = Format; *P;) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    const char *Start = P++;
    while (*P && std::strchr("-+ #0", *P))
      ++P;
    while (*P >= '0' && *P <= '9')
      ++P;
    if (*P == '.') {
      ++P;
      while (*P >= '0' && *P <= '9')
        ++P;
    }
    int Longs = 0;
    bool Short = false;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'q' || *P == 'j' || *P == 'z' || *P == 't' ||
          *P == 'L')
        ++Longs;
      else
        Short = true;
      ++P;
    }
    char Conv = *P;
    if (!Conv)
      break;
    ++P;
    // The spec without its length modifiers, then the C library's own.
    std::string Spec(Start, P - Start);
    std::string Plain;
    for (char C : Spec)
      if (!std::strchr("hlLqjzt", C))
        Plain += C;
    switch (Conv) {
    case 'd':
    case 'i': {
      long long V = Longs ? Reader.next<int64_t>() : Reader.next<int32_t>();
      if (Short)
        V = static_cast<short>(V);
      Plain.insert(Plain.size() - 1, "ll");
      std::snprintf(Buf, sizeof Buf, Plain.c_str(), V);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      unsigned long long V =
          Longs ? Reader.next<uint64_t>() : Reader.next<uint32_t>();
      if (Short)
        V = static_cast<unsigned short>(V);
      Plain.insert(Plain.size() - 1, "ll");
      std::snprintf(Buf, sizeof Buf, Plain.c_str(), V);
      break;
    }
    case 'c':
      std::snprintf(Buf, sizeof Buf, Plain.c_str(),
                    static_cast<int>(Reader.next<int32_t>()));
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      std::snprintf(Buf, sizeof Buf, Plain.c_str(), Reader.next<double>());
      break;
    case 'p':
      std::snprintf(Buf, sizeof Buf, "%p",
                    reinterpret_cast<void *>(Reader.next<uint64_t>()));
      break;
    case 's': {
      const char *S = reinterpret_cast<const char *>(Reader.next<uint64_t>());
      std::snprintf(Buf, sizeof Buf, Plain.c_str(), S ? S : "(null)");
      break;
    }
    default:
      // Unknown conversions are printed as written, like the GPU does.
      std::snprintf(Buf, sizeof Buf, "%s", Spec.c_str());
      break;
    }
    Out += Buf;
  }
  return Out;
}

extern "C" int32_t ptxjit_rt_vprintf(uint64_t Format, uint64_t Args) {
  std::string Text = formatDevicePrintf(reinterpret_cast<const char *>(Format),
                                        reinterpret_cast<const char *>(Args));
  std::lock_guard<std::mutex> L(outputLock());
  std::fwrite(Text.data(), 1, Text.size(), stdout);
  return static_cast<int32_t>(Text.size());
}

extern "C" void ptxjit_rt_assertfail(uint64_t Message, uint64_t File,
                                     uint32_t Line, uint64_t Function,
                                     const uint32_t *Where) {
  // Where: ctaid.x/y/z then tid.x/y/z of the failing thread.
  auto Str = [](uint64_t P) {
    return P ? reinterpret_cast<const char *>(P) : "?";
  };
  std::lock_guard<std::mutex> L(outputLock());
  std::fflush(stdout);
  std::fprintf(stderr,
               "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion "
               "`%s` failed.\n",
               Str(File), Line, Str(Function), Where[0], Where[1], Where[2],
               Where[3], Where[4], Where[5], Str(Message));
}

void ptxjit::flushDeviceOutput() {
  std::lock_guard<std::mutex> L(outputLock());
  std::fflush(stdout);
}
