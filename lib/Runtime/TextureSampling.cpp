//===- TextureSampling.cpp - Texel fetching, filtering and addressing -----===//
//
// The texture fetching appendix of the CUDA Programming Guide, for one
// lane: coordinates are scaled (normalized coordinates), addressed (wrap,
// mirror, clamp, border), and the texels point-sampled or linearly filtered
// with 9-bit fixed-point weights. Surfaces are byte-addressed in x.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/Textures.h"
#include "llvm/ADT/bit.h"
#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;
using abi::ImageGeometry;

float TexelValue::getFloat(unsigned K) const {
  return bit_cast<float>(Words[K]);
}

bool runtime::returnsFloat(const TexelFormat &F, ReadMode M) {
  return F.Kind == ChannelKind::Float ||
         (M == ReadMode::NormalizedFloat && F.ChannelBits <= 16);
}

static float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H >> 15) << 31;
  uint32_t Exp = H >> 10 & 0x1f, Mant = H & 0x3ff;
  if (Exp == 0x1f)
    return bit_cast<float>(Sign | 0x7f800000 | Mant << 13);
  if (Exp == 0) { // zero or subnormal: Mant * 2^-24, exact in float
    float V = std::ldexp(float(Mant), -24);
    return Sign ? -V : V;
  }
  return bit_cast<float>(Sign | (Exp + 112) << 23 | Mant << 13);
}

namespace {

/// One texel's channels as the fetch returns them.
struct Channels {
  float F[4];
  uint32_t I[4];
};

/// How one lane reads the texels of an object.
class TexelReader {
public:
  explicit TexelReader(const ImageObject &O)
      : R(O.Resource), S(O.Sampler),
        FloatResult(returnsFloat(R.Format, S.Read)) {}

  /// Texel (I, J, K); an index of -1 (border) reads the border color.
  Channels read(int64_t I, int64_t J, int64_t K) const {
    Channels C;
    if (I < 0 || J < 0 || K < 0) {
      for (unsigned N = 0; N != 4; ++N) {
        C.F[N] = S.BorderColor[N];
        C.I[N] = uint32_t(int32_t(S.BorderColor[N]));
      }
      return C;
    }
    const TexelFormat &F = R.Format;
    const char *P = R.Data + uint64_t(K) * R.SlicePitch +
                    uint64_t(J) * R.RowPitch + uint64_t(I) * F.getTexelBytes();
    for (unsigned N = 0; N != 4; ++N) {
      if (N >= F.NumChannels) {
        C.F[N] = N == 3 ? 1.0f : 0.0f;
        C.I[N] = N == 3 ? 1 : 0;
        continue;
      }
      readChannel(P + N * F.ChannelBits / 8, C.F[N], C.I[N]);
    }
    return C;
  }

  TexelValue result(const Channels &C) const {
    TexelValue V;
    for (unsigned N = 0; N != 4; ++N)
      V.Words[N] = FloatResult ? bit_cast<uint32_t>(C.F[N]) : C.I[N];
    return V;
  }

  const ImageResource &R;
  const SamplerState &S;
  bool FloatResult;

private:
  void readChannel(const char *P, float &F, uint32_t &I) const {
    const TexelFormat &Fmt = R.Format;
    uint32_t Raw = 0;
    std::memcpy(&Raw, P, Fmt.ChannelBits / 8);
    if (Fmt.Kind == ChannelKind::Float) {
      F = Fmt.ChannelBits == 16 ? halfToFloat(uint16_t(Raw))
                                : bit_cast<float>(Raw);
      I = bit_cast<uint32_t>(F);
      return;
    }
    unsigned Bits = Fmt.ChannelBits;
    if (Fmt.Kind == ChannelKind::Signed) {
      int32_t V = Bits == 32 ? int32_t(Raw)
                             : int32_t(Raw << (32 - Bits)) >> (32 - Bits);
      I = uint32_t(V);
      // [-2^(n-1), 2^(n-1) - 1] maps to [-1, 1], the lowest value to -1.
      float Max = float((1u << (Bits - 1)) - 1);
      F = Bits <= 16 ? std::max(float(V) / Max, -1.0f) : float(V);
      return;
    }
    I = Raw;
    F = Bits <= 16 ? float(Raw) / float((1u << Bits) - 1) : float(Raw);
  }
};

} // namespace

/// Texel index I along an axis of N texels in mode M; -1 for the border.
static int64_t addressIndex(int64_t I, uint64_t N, AddressMode M) {
  int64_t Size = int64_t(N);
  switch (M) {
  case AddressMode::Wrap:
    return (I % Size + Size) % Size;
  case AddressMode::Mirror: {
    int64_t P = (I % (2 * Size) + 2 * Size) % (2 * Size);
    return P < Size ? P : 2 * Size - 1 - P;
  }
  case AddressMode::Border:
    return I < 0 || I >= Size ? -1 : I;
  case AddressMode::Clamp:
    break;
  }
  return std::clamp<int64_t>(I, 0, Size - 1);
}

/// Wrap and mirror exist for normalized coordinates only; unnormalized
/// coordinates clamp instead (the Programming Guide).
static AddressMode effectiveMode(const SamplerState &S, unsigned Axis) {
  AddressMode M = S.Address[Axis];
  if (!S.NormalizedCoords &&
      (M == AddressMode::Wrap || M == AddressMode::Mirror))
    return AddressMode::Clamp;
  return M;
}

/// The coordinate in texels: normalized ones wrapped or mirrored into [0, 1)
/// and scaled by N. Kept finite, so floor can become an integer.
static float texelCoordinate(float X, uint64_t N, const SamplerState &S,
                             AddressMode M) {
  if (std::isnan(X))
    X = 0;
  if (S.NormalizedCoords) {
    float Floor = std::floor(X);
    if (M == AddressMode::Wrap) {
      X = X - Floor;
    } else if (M == AddressMode::Mirror) {
      float Frac = X - Floor;
      X = std::fmod(Floor, 2.0f) == 0 ? Frac : 1.0f - Frac;
    }
    X = X * float(N);
  }
  return std::clamp(X, -1e9f, 1e9f);
}

namespace {
/// The two texels linear filtering blends along one axis, and the weight
/// of the second.
struct AxisTaps {
  int64_t I0, I1;
  float Alpha;
};
} // namespace

static AxisTaps linearTaps(float U, uint64_t N, AddressMode M) {
  float XB = U - 0.5f;
  float Floor = std::floor(XB);
  // The fraction in 9-bit fixed point, 8 bits after the point: 1.0 is
  // representable.
  float Alpha = std::floor((XB - Floor) * 256.0f + 0.5f) / 256.0f;
  int64_t I = int64_t(Floor);
  return {addressIndex(I, N, M), addressIndex(I + 1, N, M), Alpha};
}

static unsigned getDimensions(ImageGeometry G) {
  switch (G) {
  case ImageGeometry::D1:
  case ImageGeometry::A1D:
    return 1;
  case ImageGeometry::D2:
  case ImageGeometry::A2D:
    return 2;
  default:
    return 3;
  }
}

/// The row (a1d) or slice (a2d) of an array index, clamped to the layers.
static void applyLayer(const ImageResource &R, ImageGeometry G, int32_t Layer,
                       int64_t &J, int64_t &K) {
  if (G == ImageGeometry::A1D)
    J = std::clamp<int64_t>(Layer, 0, int64_t(R.Height) - 1);
  else if (G == ImageGeometry::A2D)
    K = std::clamp<int64_t>(Layer, 0, int64_t(R.Depth) - 1);
}

TexelValue runtime::sampleTexture(const ImageObject &O, ImageGeometry G,
                                  const float Coords[3], int32_t Layer) {
  TexelReader Reader(O);
  const ImageResource &R = O.Resource;
  const SamplerState &S = O.Sampler;
  unsigned Dims = getDimensions(G);
  const uint64_t Sizes[3] = {R.Width, R.Height, R.Depth};
  // Linear filtering needs float results; integers are point-sampled.
  bool Linear = S.Filter == FilterMode::Linear && Reader.FloatResult;
  AxisTaps Taps[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (unsigned A = 0; A != Dims; ++A) {
    AddressMode M = effectiveMode(S, A);
    float U = texelCoordinate(Coords[A], Sizes[A], S, M);
    if (Linear) {
      Taps[A] = linearTaps(U, Sizes[A], M);
    } else {
      int64_t I = addressIndex(int64_t(std::floor(U)), Sizes[A], M);
      Taps[A] = {I, I, 0};
    }
  }
  int64_t LayerJ = 0, LayerK = 0;
  applyLayer(R, G, Layer, LayerJ, LayerK);
  if (Dims < 2)
    Taps[1] = {LayerJ, LayerJ, 0};
  if (Dims < 3)
    Taps[2] = {LayerK, LayerK, 0};
  if (!Linear)
    return Reader.result(Reader.read(Taps[0].I0, Taps[1].I0, Taps[2].I0));

  // The sum of w * T over the texels, in the Guide's order: i fastest.
  Channels Sum = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  for (unsigned C = 0; C != (Dims >= 3 ? 2u : 1u); ++C)
    for (unsigned B = 0; B != (Dims >= 2 ? 2u : 1u); ++B)
      for (unsigned A = 0; A != 2; ++A) {
        float W = A ? Taps[0].Alpha : 1.0f - Taps[0].Alpha;
        if (Dims >= 2)
          W *= B ? Taps[1].Alpha : 1.0f - Taps[1].Alpha;
        if (Dims >= 3)
          W *= C ? Taps[2].Alpha : 1.0f - Taps[2].Alpha;
        Channels T = Reader.read(A ? Taps[0].I1 : Taps[0].I0,
                                 B ? Taps[1].I1 : Taps[1].I0,
                                 C ? Taps[2].I1 : Taps[2].I0);
        for (unsigned N = 0; N != 4; ++N)
          Sum.F[N] += W * T.F[N];
      }
  return Reader.result(Sum);
}

TexelValue runtime::fetchTexel(const ImageObject &O, ImageGeometry G,
                               const int32_t Coords[3], int32_t Layer) {
  TexelReader Reader(O);
  const ImageResource &R = O.Resource;
  unsigned Dims = getDimensions(G);
  const uint64_t Sizes[3] = {R.Width, R.Height, R.Depth};
  int64_t Index[3] = {0, 0, 0};
  for (unsigned A = 0; A != Dims; ++A) {
    if (R.Kind == ImageResource::Linear &&
        (Coords[A] < 0 || uint64_t(Coords[A]) >= Sizes[A]))
      return TexelValue();
    Index[A] = addressIndex(Coords[A], Sizes[A], effectiveMode(O.Sampler, A));
  }
  if (Dims < 3)
    applyLayer(R, G, Layer, Index[1], Index[2]);
  return Reader.result(Reader.read(Index[0], Index[1], Index[2]));
}

TexelValue runtime::gatherTexture(const ImageObject &O, const float Coords[2],
                                  unsigned Component) {
  TexelReader Reader(O);
  const ImageResource &R = O.Resource;
  const SamplerState &S = O.Sampler;
  AxisTaps X =
      linearTaps(texelCoordinate(Coords[0], R.Width, S, effectiveMode(S, 0)),
                 R.Width, effectiveMode(S, 0));
  AxisTaps Y =
      linearTaps(texelCoordinate(Coords[1], R.Height, S, effectiveMode(S, 1)),
                 R.Height, effectiveMode(S, 1));
  // Counter-clockwise from the lower left: (-,+), (+,+), (+,-), (-,-).
  const int64_t Texels[4][2] = {
      {X.I0, Y.I1}, {X.I1, Y.I1}, {X.I1, Y.I0}, {X.I0, Y.I0}};
  Channels Out;
  for (unsigned N = 0; N != 4; ++N) {
    Channels T = Reader.read(Texels[N][0], Texels[N][1], 0);
    Out.F[N] = T.F[Component & 3];
    Out.I[N] = T.I[Component & 3];
  }
  return Reader.result(Out);
}

bool runtime::locateSurfaceAccess(const ImageObject &O, ImageGeometry G,
                                  abi::SurfaceClamp Clamp,
                                  const int32_t Coords[4], unsigned Bytes,
                                  char *&Ptr) {
  const ImageResource &R = O.Resource;
  Ptr = nullptr;
  // x in bytes, then y, z; the layer first for a1d and a2d.
  int64_t Pos[3] = {0, 0, 0};
  unsigned Dims = getDimensions(G);
  bool Layered = G == ImageGeometry::A1D || G == ImageGeometry::A2D;
  for (unsigned A = 0; A != Dims; ++A)
    Pos[A] = Coords[A + Layered];
  if (Layered)
    Pos[Dims] = Coords[0];
  int64_t RowBytes = int64_t(R.Width * R.Format.getTexelBytes());
  const int64_t Limits[3] = {RowBytes - int64_t(Bytes), int64_t(R.Height) - 1,
                             int64_t(R.Depth) - 1};
  bool InRange = true;
  for (unsigned A = 0; A != 3; ++A)
    InRange &= Pos[A] >= 0 && Pos[A] <= Limits[A];
  if (!InRange) {
    if (Clamp == abi::SurfaceClamp::Trap)
      return false;
    if (Clamp == abi::SurfaceClamp::Zero || Limits[0] < 0)
      return true;
    for (unsigned A = 0; A != 3; ++A)
      Pos[A] = std::clamp<int64_t>(Pos[A], 0, Limits[A]);
  }
  Ptr = R.Data + uint64_t(Pos[2]) * R.SlicePitch +
        uint64_t(Pos[1]) * R.RowPitch + uint64_t(Pos[0]);
  return true;
}

// OpenCL's values, which PTX's txq and suq return.
enum : uint32_t {
  CL_SNORM_INT8 = 0x10D0,
  CL_SNORM_INT16 = 0x10D1,
  CL_UNORM_INT8 = 0x10D2,
  CL_UNORM_INT16 = 0x10D3,
  CL_SIGNED_INT8 = 0x10D7,
  CL_SIGNED_INT16 = 0x10D8,
  CL_SIGNED_INT32 = 0x10D9,
  CL_UNSIGNED_INT8 = 0x10DA,
  CL_UNSIGNED_INT16 = 0x10DB,
  CL_UNSIGNED_INT32 = 0x10DC,
  CL_HALF_FLOAT = 0x10DD,
  CL_FLOAT = 0x10DE,
  CL_R = 0x10B0,
  CL_RG = 0x10B2,
  CL_RGBA = 0x10B5,
  CL_ADDRESS_CLAMP_TO_EDGE = 0x1131,
  CL_ADDRESS_CLAMP = 0x1132,
  CL_ADDRESS_REPEAT = 0x1133,
  CL_ADDRESS_MIRRORED_REPEAT = 0x1134,
  CL_FILTER_NEAREST = 0x1140,
  CL_FILTER_LINEAR = 0x1141,
};

static uint32_t channelDataType(const TexelFormat &F, ReadMode M) {
  bool Norm = M == ReadMode::NormalizedFloat;
  switch (F.Kind) {
  case ChannelKind::Float:
    return F.ChannelBits == 16 ? CL_HALF_FLOAT : CL_FLOAT;
  case ChannelKind::Signed:
    if (F.ChannelBits == 8)
      return Norm ? CL_SNORM_INT8 : CL_SIGNED_INT8;
    if (F.ChannelBits == 16)
      return Norm ? CL_SNORM_INT16 : CL_SIGNED_INT16;
    return CL_SIGNED_INT32;
  case ChannelKind::Unsigned:
    if (F.ChannelBits == 8)
      return Norm ? CL_UNORM_INT8 : CL_UNSIGNED_INT8;
    if (F.ChannelBits == 16)
      return Norm ? CL_UNORM_INT16 : CL_UNSIGNED_INT16;
    return CL_UNSIGNED_INT32;
  }
  return CL_FLOAT;
}

static uint32_t addressModeValue(AddressMode M) {
  switch (M) {
  case AddressMode::Wrap:
    return CL_ADDRESS_REPEAT;
  case AddressMode::Mirror:
    return CL_ADDRESS_MIRRORED_REPEAT;
  case AddressMode::Border:
    return CL_ADDRESS_CLAMP;
  case AddressMode::Clamp:
    break;
  }
  return CL_ADDRESS_CLAMP_TO_EDGE;
}

uint32_t runtime::queryImage(const ImageObject &O, abi::ImageQuery Q) {
  using abi::ImageQuery;
  const ImageResource &R = O.Resource;
  const SamplerState &S = O.Sampler;
  switch (Q) {
  case ImageQuery::Width:
    return uint32_t(R.Width);
  case ImageQuery::Height:
    return R.Dimensions >= 2 ? uint32_t(R.Height) : 0;
  case ImageQuery::Depth:
    return R.Dimensions >= 3 ? uint32_t(R.Depth) : 0;
  case ImageQuery::ChannelDataType:
    return channelDataType(R.Format,
                           O.IsSurface ? ReadMode::ElementType : S.Read);
  case ImageQuery::ChannelOrder:
    return R.Format.NumChannels == 1   ? CL_R
           : R.Format.NumChannels == 2 ? CL_RG
                                       : CL_RGBA;
  case ImageQuery::NormalizedCoords:
    return S.NormalizedCoords;
  case ImageQuery::ForceUnnormalizedCoords:
    return 0;
  case ImageQuery::FilterMode:
    return S.Filter == FilterMode::Linear ? CL_FILTER_LINEAR
                                          : CL_FILTER_NEAREST;
  case ImageQuery::AddrMode0:
  case ImageQuery::AddrMode1:
  case ImageQuery::AddrMode2:
    return addressModeValue(
        S.Address[unsigned(Q) - unsigned(ImageQuery::AddrMode0)]);
  case ImageQuery::ArraySize:
    return uint32_t(R.getLayers());
  case ImageQuery::NumMipmapLevels:
  case ImageQuery::NumSamples:
    return 1;
  case ImageQuery::MemoryLayout:
    return 1; // linear (not a block-linear tiling)
  }
  return 0;
}
