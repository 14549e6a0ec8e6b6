//===- WarpgroupMultiply.cpp - wgmma.mma_async for one warp ---------------===//
//
// A warpgroup's four warps each own 16 rows of D and of A, and all read the
// whole of B, so each warp computes its own rows when it reaches the
// instruction: D[16 x N] = A[16 x K] * B[K x N] + D, as N/8 mma .m16n8
// tiles with mma's arithmetic and fragment plans (MatrixArithmetic.h). A
// comes from the warp's registers (mma's A layout) or, like B, from shared
// memory through a matrix descriptor (MatrixDescriptor.h). The products are
// complete when the call returns, which the ISA allows: the registers and
// shared memory an mma_async uses may not be touched until wgmma.wait_group
// says it is done.
//
//===----------------------------------------------------------------------===//

#include "MatrixArithmetic.h"
#include "ptxjit/ABI/MatrixABI.h"
#include "ptxjit/ABI/MatrixDescriptor.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>

using namespace ptxjit;
using namespace llvm;
using runtime::FragmentPlan;

namespace {

constexpr unsigned Rows = 16;
constexpr unsigned MaxN = 256, MaxK = 256;

/// A matrix in shared memory, read element by element.
class SharedMatrix {
public:
  SharedMatrix(const char *Base, uint32_t Size, uint64_t Descriptor,
               unsigned Bits, bool MNMajor)
      : Base(reinterpret_cast<const uint8_t *>(Base)), Size(Size),
        D(MatrixDescriptor::decode(Descriptor)), Bits(Bits), MNMajor(MNMajor) {}

  /// Why the descriptor cannot be used, or null.
  const char *check() const {
    if (D.BaseOffset != 0)
      return "a matrix descriptor's base offset is not 0 (a swizzle pattern "
             "that does not start at its alignment is not emulated)";
    if (MNMajor && Bits != 16)
      return "a transposed (MN-major) operand needs 16-bit elements";
    return nullptr;
  }

  /// Element (MN, K)'s bits, or false if it is outside shared memory.
  bool read(unsigned MN, unsigned K, uint64_t &V) const {
    uint64_t At = D.getBitAddress(MN, K, Bits, MNMajor);
    uint64_t Byte = At / 8, Bytes = (At % 8 + Bits + 7) / 8;
    if (Byte + Bytes > Size)
      return false;
    uint32_t Word = 0;
    std::memcpy(&Word, Base + Byte, Bytes);
    V = Word >> At % 8 & (Bits >= 32 ? ~0u : (1u << Bits) - 1);
    return true;
  }

private:
  const uint8_t *Base;
  uint32_t Size;
  MatrixDescriptor D;
  unsigned Bits;
  bool MNMajor;
};

/// The warp's operands as element bits, row-major (A: 16 x K, B: K x N),
/// and as floats with the accumulators (16 x N): a thread's buffers, on the
/// heap (fiber stacks are small, and a large thread_local array would be
/// in every thread's static TLS).
struct Workspace {
  uint32_t A[Rows * MaxK], B[MaxK * MaxN];
  float XA[Rows * MaxK], XB[MaxK * MaxN], XC[Rows * MaxN];
  int32_t IC[Rows * MaxN];
};

Workspace &getWorkspace() {
  thread_local std::unique_ptr<Workspace> W;
  if (!W)
    W = std::make_unique<Workspace>();
  return *W;
}

Error wgmmaError(uint32_t Line, const Twine &Why) {
  return createStringError(
      formatv("wgmma.mma_async (line {0}): {1}", Line, Why.str()).str());
}

/// The fragment plans of an encoded operation (its A registers and its
/// accumulators), made on first use in each thread.
struct Plans {
  FragmentPlan A, D;
  explicit Plans(const WarpgroupMultiply &Op)
      : A(getWarpgroupA(Op)), D(getWarpgroupAccumulators(Op)) {}
};

const Plans &getPlans(uint64_t Code) {
  thread_local std::unordered_map<uint64_t, std::unique_ptr<Plans>> Cache;
  std::unique_ptr<Plans> &P = Cache[Code];
  if (!P)
    P = std::make_unique<Plans>(WarpgroupMultiply::decode(Code));
  return *P;
}

/// Reads the rows of A (RowBase on) and all of B from shared memory.
Error readShared(const WarpgroupMultiply &Op, const char *Shared,
                 uint32_t SharedSize, uint64_t ADesc, uint64_t BDesc,
                 unsigned RowBase, Workspace &X, uint32_t Line) {
  auto ReadAll = [&](uint64_t Desc, MatrixElement E, bool MNMajor,
                     unsigned MNCount, unsigned MNBase, uint32_t *Out,
                     bool RowIsMN, const char *Name) -> Error {
    SharedMatrix M(Shared, SharedSize, Desc, getMatrixElementBits(E), MNMajor);
    if (const char *Why = M.check())
      return wgmmaError(Line, Twine(Name) + ": " + Why);
    for (unsigned MN = 0; MN != MNCount; ++MN)
      for (unsigned K = 0; K != Op.K; ++K) {
        uint64_t V;
        if (!M.read(MNBase + MN, K, V))
          return wgmmaError(Line, Twine(Name) + "'s element (" +
                                      Twine(MNBase + MN) + ", " + Twine(K) +
                                      ") is outside shared memory");
        (RowIsMN ? Out[MN * Op.K + K] : Out[K * Op.N + MN]) = uint32_t(V);
      }
    return Error::success();
  };
  if (Op.ADescriptor)
    if (Error E = ReadAll(ADesc, Op.A, Op.TransA, Rows, RowBase, X.A,
                          /*RowIsMN=*/true, "A"))
      return E;
  return ReadAll(BDesc, Op.B, Op.TransB, Op.N, 0, X.B, /*RowIsMN=*/false, "B");
}

void multiplyFloat(const WarpgroupMultiply &Op, const FragmentPlan &DPlan,
                   Workspace &X, void *D, bool ScaleD) {
  unsigned N = Op.N, K = Op.K;
  float *XA = X.XA, *XB = X.XB, *XC = X.XC;
  for (unsigned I = 0; I != Rows * K; ++I)
    XA[I] = runtime::decodeMatrixFloat(Op.A, X.A[I]) * (Op.NegateA ? -1 : 1);
  for (unsigned I = 0; I != K * N; ++I)
    XB[I] = runtime::decodeMatrixFloat(Op.B, X.B[I]) * (Op.NegateB ? -1 : 1);
  if (ScaleD)
    DPlan.unpack(
        D, XC, [&](uint64_t V) { return runtime::decodeMatrixFloat(Op.D, V); });
  else
    std::fill(XC, XC + Rows * N, 0.0f);
  // One 8-column tile at a time, as mma .m16n8kK computes it.
  float TB[MaxK * 8], TC[Rows * 8];
  for (unsigned J = 0; J != N; J += 8) {
    for (unsigned R = 0; R != K; ++R)
      std::memcpy(TB + R * 8, XB + R * N + J, 8 * sizeof(float));
    for (unsigned R = 0; R != Rows; ++R)
      std::memcpy(TC + R * 8, XC + R * N + J, 8 * sizeof(float));
    runtime::multiplyFloatMatrices(Op.A, Op.D, Op.D, XA, TB, TC, Rows, 8, K);
    for (unsigned R = 0; R != Rows; ++R)
      std::memcpy(XC + R * N + J, TC + R * 8, 8 * sizeof(float));
  }
  DPlan.pack(D, XC, [&](float V) {
    return uint64_t(runtime::encodeMatrixFloat(Op.D, V));
  });
}

int64_t toInteger(MatrixElement E, uint64_t V) {
  return E == ME_S8 ? int64_t(int8_t(V)) : int64_t(V);
}

void multiplyInteger(const WarpgroupMultiply &Op, const FragmentPlan &DPlan,
                     Workspace &X, void *D, bool ScaleD) {
  unsigned N = Op.N, K = Op.K;
  int32_t *XC = X.IC;
  if (ScaleD)
    DPlan.unpack(D, XC, [](uint64_t V) { return int32_t(V); });
  else
    std::fill(XC, XC + Rows * N, 0);
  for (unsigned Row = 0; Row != Rows; ++Row)
    for (unsigned Col = 0; Col != N; ++Col) {
      int64_t Sum = XC[Row * N + Col];
      for (unsigned C = 0; C != K; ++C) {
        uint64_t A = X.A[Row * K + C], B = X.B[C * N + Col];
        Sum += Op.BitAnd ? int64_t(A & B)
                         : toInteger(Op.A, A) * toInteger(Op.B, B);
      }
      if (Op.Satfinite)
        Sum = Sum > INT32_MAX ? INT32_MAX : Sum < INT32_MIN ? INT32_MIN : Sum;
      XC[Row * N + Col] = int32_t(uint32_t(uint64_t(Sum)));
    }
  DPlan.pack(D, XC, [](int32_t V) { return uint64_t(uint32_t(V)); });
}

} // namespace

extern "C" void ptxjit_rt_wgmma(void *Runtime, uint64_t Code, void *D,
                                const void *A, uint64_t ADesc, uint64_t BDesc,
                                uint32_t ScaleD, uint32_t WarpRank,
                                const char *Shared, uint32_t SharedSize,
                                uint32_t Line) {
  WarpgroupMultiply Op = WarpgroupMultiply::decode(Code);
  const Plans &P = getPlans(Code);
  Workspace &X = getWorkspace();
  if (!Op.ADescriptor)
    P.A.unpack(A, X.A, [](uint64_t V) { return uint32_t(V); });
  if (Error E = readShared(Op, Shared, SharedSize, ADesc, BDesc,
                           Rows * (WarpRank % 4), X, Line))
    return static_cast<runtime::CTAScheduler *>(Runtime)->failWarp(
        std::move(E));
  if (Op.D == ME_S32)
    return multiplyInteger(Op, P.D, X, D, ScaleD != 0);
  multiplyFloat(Op, P.D, X, D, ScaleD != 0);
}
