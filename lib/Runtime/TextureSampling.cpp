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
  TexelReader(const ImageResource &R, const SamplerState &S)
      : R(R), S(S), FloatResult(returnsFloat(R.Format, S.Read)) {}
  explicit TexelReader(const ImageObject &O)
      : TexelReader(O.Resource, O.Sampler) {}

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
  case ImageGeometry::Cube:
  case ImageGeometry::ACube:
    return 2; // a cube samples one 2D face
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

ImageResource ImageResource::getLevel(unsigned L) const {
  ImageResource R = *this;
  if (L == 0)
    return R;
  // Arrays are laid out before their memory exists (Data null): offsetting
  // a null pointer is undefined.
  R.Data = Data ? Data + LevelOffset[L] : nullptr;
  R.Width = std::max<uint64_t>(Width >> L, 1);
  if (Dimensions >= 2)
    R.Height = std::max<uint64_t>(Height >> L, 1);
  if (Dimensions >= 3)
    R.Depth = std::max<uint64_t>(Depth >> L, 1);
  R.RowPitch = R.Width * Format.getTexelBytes();
  R.SlicePitch = R.RowPitch * R.Height;
  R.NumLevels = 1;
  return R;
}

void runtime::selectCubeFace(const float Dir[3], unsigned &Face, float &U,
                             float &V) {
  float X = Dir[0], Y = Dir[1], Z = Dir[2];
  float AX = std::fabs(X), AY = std::fabs(Y), AZ = std::fabs(Z);
  float M, S, T;
  if (AX >= AY && AX >= AZ) {
    Face = X >= 0 ? 0 : 1;
    M = AX, S = X >= 0 ? -Z : Z, T = -Y;
  } else if (AY >= AZ) {
    Face = Y >= 0 ? 2 : 3;
    M = AY, S = X, T = Y >= 0 ? Z : -Z;
  } else {
    Face = Z >= 0 ? 4 : 5;
    M = AZ, S = Z >= 0 ? X : -X, T = -Y;
  }
  // A zero direction selects +x at its center.
  U = M > 0 ? (S / M + 1) / 2 : 0.5f;
  V = M > 0 ? (T / M + 1) / 2 : 0.5f;
}

namespace {
/// One level's lookup: where to sample and how.
struct LevelLookup {
  const SamplerState *S;
  unsigned Dims;
  float Coords[3];
  int32_t Layer;
  ImageGeometry G;
  const int32_t *Offsets; ///< texel offsets, or null
};
} // namespace

/// The texels of one level around Coords, filtered as the sampler says (or
/// point-sampled when Linear is false).
static Channels sampleLevel(const ImageResource &R, const LevelLookup &L,
                            bool Linear) {
  const SamplerState &S = *L.S;
  TexelReader Reader(R, S);
  unsigned Dims = L.Dims;
  const uint64_t Sizes[3] = {R.Width, R.Height, R.Depth};
  AxisTaps Taps[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (unsigned A = 0; A != Dims; ++A) {
    AddressMode M = effectiveMode(S, A);
    float U = texelCoordinate(L.Coords[A], Sizes[A], S, M);
    if (L.Offsets)
      U += float(L.Offsets[A]);
    if (Linear) {
      Taps[A] = linearTaps(U, Sizes[A], M);
    } else {
      int64_t I = addressIndex(int64_t(std::floor(U)), Sizes[A], M);
      Taps[A] = {I, I, 0};
    }
  }
  int64_t LayerJ = 0, LayerK = 0;
  if (L.G == ImageGeometry::Cube || L.G == ImageGeometry::ACube)
    LayerK = std::clamp<int64_t>(L.Layer, 0, int64_t(R.Depth) - 1);
  else
    applyLayer(R, L.G, L.Layer, LayerJ, LayerK);
  if (Dims < 2)
    Taps[1] = {LayerJ, LayerJ, 0};
  if (Dims < 3)
    Taps[2] = {LayerK, LayerK, 0};
  if (!Linear)
    return Reader.read(Taps[0].I0, Taps[1].I0, Taps[2].I0);

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
  return Sum;
}

/// d(s / m) for a face coordinate s over the major axis's magnitude m.
static float projectedDerivative(float S, float DS, float M, float DM) {
  return M > 0 ? (DS * M - S * DM) / (M * M) : 0;
}

float runtime::gradientLevelOfDetail(const ImageObject &O, ImageGeometry G,
                                     const float Coords[3],
                                     const LevelOfDetail &Lod) {
  const ImageResource &R = O.Resource;
  const uint64_t Sizes[3] = {R.Width, R.Height, R.Depth};
  float DX[3] = {Lod.DPdx[0], Lod.DPdx[1], Lod.DPdx[2]};
  float DY[3] = {Lod.DPdy[0], Lod.DPdy[1], Lod.DPdy[2]};
  unsigned Dims = getDimensions(G);
  float Scale[3] = {1, 1, 1};
  if (G == ImageGeometry::Cube || G == ImageGeometry::ACube) {
    // The gradients of the face coordinates u = (s / m + 1) / 2, by the
    // chain rule through the face the direction selects.
    unsigned Face;
    float U, V;
    selectCubeFace(Coords, Face, U, V);
    unsigned Major = Face / 2, SAxis = Major == 0 ? 2 : 0,
             TAxis = Major == 1 ? 2 : 1;
    float M = std::fabs(Coords[Major]);
    float SignM = Coords[Major] >= 0 ? 1.0f : -1.0f;
    for (float *D : {DX, DY}) {
      float DM = SignM * D[Major];
      // s and t are +-coordinates; the sign drops out of the length.
      float DU = projectedDerivative(Coords[SAxis], D[SAxis], M, DM) / 2;
      float DV = projectedDerivative(Coords[TAxis], D[TAxis], M, DM) / 2;
      D[0] = DU, D[1] = DV, D[2] = 0;
    }
    Scale[0] = Scale[1] = float(R.Width);
  } else if (O.Sampler.NormalizedCoords) {
    for (unsigned A = 0; A != Dims; ++A)
      Scale[A] = float(Sizes[A]);
  }
  float LenX = 0, LenY = 0;
  for (unsigned A = 0; A != Dims; ++A) {
    LenX += DX[A] * Scale[A] * DX[A] * Scale[A];
    LenY += DY[A] * Scale[A] * DY[A] * Scale[A];
  }
  float Rho = std::sqrt(std::max(LenX, LenY));
  return Rho > 0 ? std::log2(Rho) : -INFINITY;
}

TexelValue runtime::sampleTexture(const ImageObject &O, ImageGeometry G,
                                  const float Coords[3], int32_t Layer,
                                  const LevelOfDetail &Lod,
                                  const int32_t *Offsets) {
  const ImageResource &R = O.Resource;
  bool FloatResult = returnsFloat(R.Format, O.Sampler.Read);
  // Linear filtering needs float results; integers are point-sampled.
  bool Linear = O.Sampler.Filter == FilterMode::Linear && FloatResult;
  LevelLookup L{
      &O.Sampler, getDimensions(G), {Coords[0], Coords[1], Coords[2]}, Layer,
      G,          Offsets};
  SamplerState CubeSampler;
  if (G == ImageGeometry::Cube || G == ImageGeometry::ACube) {
    // A face is sampled with normalized coordinates, clamped at its edges.
    unsigned Face;
    selectCubeFace(Coords, Face, L.Coords[0], L.Coords[1]);
    L.Coords[2] = 0;
    L.Layer = (G == ImageGeometry::ACube ? std::max(Layer, 0) * 6 : 0) + Face;
    CubeSampler = O.Sampler;
    CubeSampler.NormalizedCoords = true;
    for (AddressMode &M : CubeSampler.Address)
      M = AddressMode::Clamp;
    L.S = &CubeSampler;
  }
  TexelReader Result(R, O.Sampler);
  if (R.NumLevels <= 1 || Lod.Kind == LevelOfDetail::Base)
    return Result.result(sampleLevel(R, L, Linear));

  // The level of detail: biased, clamped by the sampler, then to the levels.
  const SamplerState &S = O.Sampler;
  float Lambda = Lod.Kind == LevelOfDetail::Level
                     ? Lod.Lod
                     : gradientLevelOfDetail(O, G, Coords, Lod);
  if (std::isnan(Lambda))
    Lambda = 0;
  Lambda = std::clamp(Lambda + S.LodBias, S.MinLodClamp, S.MaxLodClamp);
  Lambda = std::clamp(Lambda, 0.0f, float(R.NumLevels - 1));
  if (S.MipFilter == FilterMode::Point || !FloatResult) {
    unsigned Level = unsigned(std::floor(Lambda + 0.5f));
    return Result.result(sampleLevel(R.getLevel(Level), L, Linear));
  }
  // Between two levels: the fraction in the same 9-bit fixed point.
  unsigned Level = unsigned(std::floor(Lambda));
  float Beta = std::floor((Lambda - float(Level)) * 256.0f + 0.5f) / 256.0f;
  Channels Lo = sampleLevel(R.getLevel(Level), L, Linear);
  if (Beta == 0 || Level + 1 >= R.NumLevels)
    return Result.result(Lo);
  Channels Hi = sampleLevel(R.getLevel(Level + 1), L, Linear);
  for (unsigned N = 0; N != 4; ++N)
    Lo.F[N] = (1.0f - Beta) * Lo.F[N] + Beta * Hi.F[N];
  return Result.result(Lo);
}

ImageObject runtime::applySamplerWord(const ImageObject &O,
                                      abi::SamplerWord W) {
  ImageObject Out = O;
  SamplerState &S = Out.Sampler;
  if (W.HasFilter)
    S.Filter = W.Linear ? FilterMode::Linear : FilterMode::Point;
  static const AddressMode Modes[] = {AddressMode::Wrap, AddressMode::Clamp,
                                      AddressMode::Mirror, AddressMode::Border};
  for (unsigned K = 0; K != 3; ++K)
    if (W.HasAddress[K])
      S.Address[K] = Modes[W.Address[K] & 3];
  if (W.HasNormalized)
    S.NormalizedCoords = W.Normalized;
  return Out;
}

TexelValue runtime::fetchTexel(const ImageObject &O, ImageGeometry G,
                               const int32_t Coords[3], int32_t Layer,
                               const int32_t *Offsets) {
  TexelReader Reader(O);
  const ImageResource &R = O.Resource;
  unsigned Dims = getDimensions(G);
  const uint64_t Sizes[3] = {R.Width, R.Height, R.Depth};
  int64_t Index[3] = {0, 0, 0};
  for (unsigned A = 0; A != Dims; ++A) {
    int64_t C = int64_t(Coords[A]) + (Offsets ? Offsets[A] : 0);
    if (R.Kind == ImageResource::Linear && (C < 0 || uint64_t(C) >= Sizes[A]))
      return TexelValue();
    Index[A] = addressIndex(C, Sizes[A], effectiveMode(O.Sampler, A));
  }
  if (Dims < 3)
    applyLayer(R, G, Layer, Index[1], Index[2]);
  return Reader.result(Reader.read(Index[0], Index[1], Index[2]));
}

TexelValue runtime::gatherTexture(const ImageObject &O, const float Coords[2],
                                  unsigned Component, const int32_t *Offsets) {
  TexelReader Reader(O);
  const ImageResource &R = O.Resource;
  const SamplerState &S = O.Sampler;
  float OX = Offsets ? float(Offsets[0]) : 0,
        OY = Offsets ? float(Offsets[1]) : 0;
  AxisTaps X = linearTaps(
      texelCoordinate(Coords[0], R.Width, S, effectiveMode(S, 0)) + OX, R.Width,
      effectiveMode(S, 0));
  AxisTaps Y = linearTaps(
      texelCoordinate(Coords[1], R.Height, S, effectiveMode(S, 1)) + OY,
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

/// A float as a half, rounded to nearest even.
static uint16_t floatToHalf(float F) {
  uint32_t X = bit_cast<uint32_t>(F);
  uint32_t Sign = X >> 16 & 0x8000;
  uint32_t Abs = X & 0x7fffffff;
  if (Abs > 0x7f800000) // NaN: keep it quiet
    return uint16_t(Sign | 0x7e00 | (Abs >> 13 & 0x3ff));
  if (Abs >= 0x477ff000) // rounds to infinity
    return uint16_t(Sign | 0x7c00);
  if (Abs < 0x38800000) { // a half subnormal or zero: Abs * 2^24, rounded
    float V = std::nearbyint(bit_cast<float>(Abs) * 16777216.0f);
    return uint16_t(Sign | uint32_t(V));
  }
  uint32_t Mant = Abs + 0xfff + (Abs >> 13 & 1); // round to nearest even
  return uint16_t(Sign | ((Mant - 0x38000000) >> 13));
}

void runtime::storeFormattedTexel(const TexelFormat &F, abi::SurfaceData D,
                                  const uint32_t Words[4], unsigned N,
                                  char *Ptr) {
  unsigned Bytes = F.ChannelBits / 8;
  // .b32 data (the one type ptxas accepts) is read as the format's kind.
  if (D == abi::SurfaceData::B)
    D = F.Kind == ChannelKind::Float    ? abi::SurfaceData::F32
        : F.Kind == ChannelKind::Signed ? abi::SurfaceData::S32
                                        : abi::SurfaceData::U32;
  for (unsigned K = 0; K != F.NumChannels; ++K) {
    uint32_t W = K < N ? Words[K] : 0;
    uint32_t Raw = W;
    if (D == abi::SurfaceData::F32 && F.Kind == ChannelKind::Float) {
      Raw = F.ChannelBits == 16 ? floatToHalf(bit_cast<float>(W)) : W;
    } else if (D == abi::SurfaceData::F32) {
      float V = bit_cast<float>(W);
      if (std::isnan(V))
        V = 0;
      bool Signed = F.Kind == ChannelKind::Signed;
      double Max = Signed ? double((uint64_t(1) << (F.ChannelBits - 1)) - 1)
                          : double((uint64_t(1) << F.ChannelBits) - 1);
      double Scaled =
          std::nearbyint(std::clamp(double(V), Signed ? -1.0 : 0.0, 1.0) * Max);
      Raw = Signed ? uint32_t(int32_t(Scaled)) : uint32_t(Scaled);
    } else if (D != abi::SurfaceData::B && F.Kind == ChannelKind::Float) {
      float V = D == abi::SurfaceData::S32 ? float(int32_t(W)) : float(W);
      Raw = F.ChannelBits == 16 ? floatToHalf(V) : bit_cast<uint32_t>(V);
    } else if (D == abi::SurfaceData::S32 && F.ChannelBits < 32) {
      int64_t Lo = F.Kind == ChannelKind::Signed
                       ? -(int64_t(1) << (F.ChannelBits - 1))
                       : 0;
      int64_t Hi = F.Kind == ChannelKind::Signed
                       ? (int64_t(1) << (F.ChannelBits - 1)) - 1
                       : (int64_t(1) << F.ChannelBits) - 1;
      Raw = uint32_t(std::clamp<int64_t>(int32_t(W), Lo, Hi));
    } else if (D == abi::SurfaceData::U32 && F.ChannelBits < 32) {
      uint32_t Hi = F.Kind == ChannelKind::Signed
                        ? (1u << (F.ChannelBits - 1)) - 1
                        : (1u << F.ChannelBits) - 1;
      Raw = std::min(W, Hi);
    }
    std::memcpy(Ptr + K * Bytes, &Raw, Bytes);
  }
}

static uint32_t channelDataType(const TexelFormat &F, ReadMode M) {
  bool Norm = M == ReadMode::NormalizedFloat;
  switch (F.Kind) {
  case ChannelKind::Float:
    return F.ChannelBits == 16 ? abi::CL_HALF_FLOAT : abi::CL_FLOAT;
  case ChannelKind::Signed:
    if (F.ChannelBits == 8)
      return Norm ? abi::CL_SNORM_INT8 : abi::CL_SIGNED_INT8;
    if (F.ChannelBits == 16)
      return Norm ? abi::CL_SNORM_INT16 : abi::CL_SIGNED_INT16;
    return abi::CL_SIGNED_INT32;
  case ChannelKind::Unsigned:
    if (F.ChannelBits == 8)
      return Norm ? abi::CL_UNORM_INT8 : abi::CL_UNSIGNED_INT8;
    if (F.ChannelBits == 16)
      return Norm ? abi::CL_UNORM_INT16 : abi::CL_UNSIGNED_INT16;
    return abi::CL_UNSIGNED_INT32;
  }
  return abi::CL_FLOAT;
}

static uint32_t addressModeValue(AddressMode M) {
  switch (M) {
  case AddressMode::Wrap:
    return abi::getAddressModeValue(abi::SamplerWord::Wrap);
  case AddressMode::Mirror:
    return abi::getAddressModeValue(abi::SamplerWord::Mirror);
  case AddressMode::Border:
    return abi::getAddressModeValue(abi::SamplerWord::Border);
  case AddressMode::Clamp:
    break;
  }
  return abi::getAddressModeValue(abi::SamplerWord::Clamp);
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
    return R.Format.NumChannels == 1   ? abi::CL_R
           : R.Format.NumChannels == 2 ? abi::CL_RG
                                       : abi::CL_RGBA;
  case ImageQuery::NormalizedCoords:
    return S.NormalizedCoords;
  case ImageQuery::ForceUnnormalizedCoords:
    return 0;
  case ImageQuery::FilterMode:
    return S.Filter == FilterMode::Linear ? abi::CL_FILTER_LINEAR
                                          : abi::CL_FILTER_NEAREST;
  case ImageQuery::AddrMode0:
  case ImageQuery::AddrMode1:
  case ImageQuery::AddrMode2:
    return addressModeValue(
        S.Address[unsigned(Q) - unsigned(ImageQuery::AddrMode0)]);
  case ImageQuery::ArraySize:
    return uint32_t(R.getLayers());
  case ImageQuery::NumMipmapLevels:
    return R.NumLevels;
  case ImageQuery::NumSamples:
    return 1;
  case ImageQuery::MemoryLayout:
    return 1; // linear (not a block-linear tiling)
  case ImageQuery::IsObject:
    return 1;
  }
  return 0;
}
