//===- TextureSamplingTest.cpp - The Programming Guide's texture fetching -===//
//
// Each expected value is computed here from the CUDA Programming Guide's
// formulas (texture fetching appendix), independently of the runtime: point
// sampling reads T[floor(x)], linear filtering blends T[i] and T[i+1] at
// i = floor(x - 0.5) with alpha = frac(x - 0.5) in 9-bit fixed point.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/Textures.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <vector>

using namespace ptxjit;
using namespace ptxjit::runtime;
using ptxjit::abi::ImageGeometry;

namespace {

/// A 1D float texture of the values in Texels.
ImageObject texture1D(std::vector<float> &Texels, AddressMode M, FilterMode F,
                      bool Normalized) {
  ImageObject O;
  O.Resource.Data = reinterpret_cast<char *>(Texels.data());
  O.Resource.Width = Texels.size();
  O.Resource.RowPitch = Texels.size() * sizeof(float);
  O.Resource.SlicePitch = O.Resource.RowPitch;
  O.Sampler.Address[0] = M;
  O.Sampler.Filter = F;
  O.Sampler.NormalizedCoords = Normalized;
  return O;
}

/// Whether the table refuses to make an object of O.
bool refused(ImageObjectTable &Table, const ImageObject &O) {
  llvm::Expected<uint64_t> H = Table.create(O);
  if (H)
    return false;
  llvm::consumeError(H.takeError());
  return true;
}

float sample1D(const ImageObject &O, float X) {
  float Coords[3] = {X, 0, 0};
  return sampleTexture(O, ImageGeometry::D1, Coords, 0).getFloat(0);
}

TEST(TextureSamplingTest, PointSamplingReadsTheFloor) {
  std::vector<float> T = {10, 20, 30, 40};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  EXPECT_EQ(sample1D(O, 0.0f), 10);
  EXPECT_EQ(sample1D(O, 0.99f), 10);
  EXPECT_EQ(sample1D(O, 1.0f), 20);
  EXPECT_EQ(sample1D(O, 3.5f), 40);
  // Clamp: below 0 reads T[0], past the end T[N-1].
  EXPECT_EQ(sample1D(O, -5.0f), 10);
  EXPECT_EQ(sample1D(O, 17.0f), 40);
}

TEST(TextureSamplingTest, LinearWeightsHaveEightFractionalBits) {
  std::vector<float> T = {0, 256, 1024, 0};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Linear, false);
  // x = 1.0: x_B = 0.5, i = 0, alpha = 0.5: (1 - 0.5) * 0 + 0.5 * 256.
  EXPECT_EQ(sample1D(O, 1.0f), 128.0f);
  // alpha = frac(x_B) = 0.3 is 76.8 / 256, stored as 77 / 256.
  float X = 0.5f + 0.3f;
  float Alpha = 77.0f / 256.0f;
  EXPECT_EQ(sample1D(O, X), (1 - Alpha) * 0 + Alpha * 256);
  // 1/1024 past a texel center rounds to a weight of 0: exactly T[1].
  EXPECT_EQ(sample1D(O, 1.5f + 1.0f / 1024), 256.0f);
  // 0.999 rounds to 256 / 256: all of the second texel.
  EXPECT_EQ(sample1D(O, 1.5f + 0.999f), 1024.0f);
}

TEST(TextureSamplingTest, LinearClampAtTheEdges) {
  std::vector<float> T = {3, 5, 9};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Linear, false);
  // Before the first texel center both texels are T[0]; after the last,
  // T[N-1].
  EXPECT_EQ(sample1D(O, 0.25f), 3.0f);
  EXPECT_EQ(sample1D(O, 2.9f), 9.0f);
}

TEST(TextureSamplingTest, BorderReadsTheBorderColor) {
  std::vector<float> T = {4, 8};
  ImageObject O = texture1D(T, AddressMode::Border, FilterMode::Point, false);
  O.Sampler.BorderColor[0] = -1.5f;
  EXPECT_EQ(sample1D(O, -0.5f), -1.5f);
  EXPECT_EQ(sample1D(O, 2.0f), -1.5f);
  EXPECT_EQ(sample1D(O, 1.0f), 8.0f);
  // Linear: T[-1] is the border color, weighted (1 - alpha) = 0.5 at x = 0.5
  // - 0.5.
  O.Sampler.Filter = FilterMode::Linear;
  EXPECT_EQ(sample1D(O, 0.0f), 0.5f * -1.5f + 0.5f * 4);
}

TEST(TextureSamplingTest, WrapAndMirrorNormalizedCoordinates) {
  std::vector<float> T = {1, 2, 3, 4};
  ImageObject O = texture1D(T, AddressMode::Wrap, FilterMode::Point, true);
  // Wrap: frac(x) * N. 1.3 -> 0.3 * 4 = 1.2 -> T[1]; -0.1 -> 0.9 -> T[3].
  EXPECT_EQ(sample1D(O, 1.3f), 2.0f);
  EXPECT_EQ(sample1D(O, -0.1f), 4.0f);
  // Mirror: floor(x) odd takes 1 - frac(x): 1.1 -> 0.9 -> T[3]; 2.1 -> 0.1.
  O.Sampler.Address[0] = AddressMode::Mirror;
  EXPECT_EQ(sample1D(O, 1.1f), 4.0f);
  EXPECT_EQ(sample1D(O, 2.1f), 1.0f);
  EXPECT_EQ(sample1D(O, -0.1f), 1.0f);
  // Linear wrap at 0: x_B = -0.5 blends T[N-1] and T[0] equally.
  O.Sampler.Address[0] = AddressMode::Wrap;
  O.Sampler.Filter = FilterMode::Linear;
  EXPECT_EQ(sample1D(O, 0.0f), 0.5f * 4 + 0.5f * 1);
  // Without normalized coordinates wrap clamps.
  O.Sampler.NormalizedCoords = false;
  O.Sampler.Filter = FilterMode::Point;
  EXPECT_EQ(sample1D(O, 5.0f), 4.0f);
}

TEST(TextureSamplingTest, NormalizedCoordinatesScaleBySize) {
  std::vector<float> T = {1, 2, 3, 4, 5, 6, 7, 8};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, true);
  EXPECT_EQ(sample1D(O, 0.5f), 5.0f);   // 0.5 * 8 = 4
  EXPECT_EQ(sample1D(O, 0.124f), 1.0f); // 0.992
  EXPECT_EQ(sample1D(O, 1.0f), 8.0f);   // 8 clamps to 7
}

TEST(TextureSamplingTest, BilinearFormula) {
  // 3 x 2 texels, T[j][i].
  std::vector<float> T = {1, 2, 4, 8, 16, 32};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Linear, false);
  O.Resource.Width = 3;
  O.Resource.Height = 2;
  O.Resource.Dimensions = 2;
  O.Resource.RowPitch = 3 * sizeof(float);
  O.Resource.SlicePitch = 6 * sizeof(float);
  float X = 1.2f, Y = 0.9f;
  float Coords[3] = {X, Y, 0};
  // x_B = 0.7: i = 0, alpha = round(0.7 * 256) / 256 = 179 / 256;
  // y_B = 0.4: j = 0, beta = round(0.4 * 256) / 256 = 102 / 256.
  float A = std::round((X - 0.5f) * 256) / 256;
  float B = std::round((Y - 0.5f) * 256) / 256;
  float Want = (1 - A) * (1 - B) * T[0] + A * (1 - B) * T[1] +
               (1 - A) * B * T[3] + A * B * T[4];
  float Got = sampleTexture(O, ImageGeometry::D2, Coords, 0).getFloat(0);
  EXPECT_FLOAT_EQ(Got, Want);
  EXPECT_EQ(A, 179.0f / 256);
  EXPECT_EQ(B, 102.0f / 256);
}

TEST(TextureSamplingTest, NormalizedFloatReadMode) {
  uint8_t U[4] = {0, 1, 128, 255};
  int8_t S[4] = {-128, -127, 0, 127};
  ImageObject O;
  O.Resource.Data = reinterpret_cast<char *>(U);
  O.Resource.Format = {1, 8, ChannelKind::Unsigned};
  O.Resource.Width = 4;
  O.Resource.RowPitch = O.Resource.SlicePitch = 4;
  O.Sampler.Read = ReadMode::NormalizedFloat;
  auto At = [&](int I) {
    float Coords[3] = {I + 0.5f, 0, 0};
    return sampleTexture(O, ImageGeometry::D1, Coords, 0).getFloat(0);
  };
  EXPECT_EQ(At(0), 0.0f);
  EXPECT_EQ(At(1), 1.0f / 255);
  EXPECT_EQ(At(2), 128.0f / 255);
  EXPECT_EQ(At(3), 1.0f);
  O.Resource.Data = reinterpret_cast<char *>(S);
  O.Resource.Format.Kind = ChannelKind::Signed;
  EXPECT_EQ(At(0), -1.0f); // -128 / 127 clamps to -1
  EXPECT_EQ(At(1), -1.0f);
  EXPECT_EQ(At(2), 0.0f);
  EXPECT_EQ(At(3), 1.0f);
  // Read as elements, the channel is the integer, and missing channels
  // read (0, 0, 0, 1).
  O.Sampler.Read = ReadMode::ElementType;
  float Coords[3] = {0.5f, 0, 0};
  TexelValue V = sampleTexture(O, ImageGeometry::D1, Coords, 0);
  EXPECT_EQ(V.getInt(0), -128);
  EXPECT_EQ(V.getInt(1), 0);
  EXPECT_EQ(V.getInt(3), 1);
}

TEST(TextureSamplingTest, FetchOutsideLinearMemoryReadsZero) {
  std::vector<float> T = {7, 8};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  O.Resource.Kind = ImageResource::Linear;
  int32_t In[3] = {1, 0, 0}, Out[3] = {2, 0, 0}, Neg[3] = {-1, 0, 0};
  EXPECT_EQ(fetchTexel(O, ImageGeometry::D1, In, 0).getFloat(0), 8.0f);
  EXPECT_EQ(fetchTexel(O, ImageGeometry::D1, Out, 0).Words[0], 0u);
  EXPECT_EQ(fetchTexel(O, ImageGeometry::D1, Neg, 0).Words[0], 0u);
}

TEST(TextureSamplingTest, SurfaceBoundaryModes) {
  std::vector<float> T(4 * 3);
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  O.IsSurface = true;
  O.Resource.Width = 4;
  O.Resource.Height = 3;
  O.Resource.Dimensions = 2;
  O.Resource.RowPitch = 16;
  char *Ptr;
  int32_t InRange[4] = {12, 2, 0, 0}, PastRow[4] = {13, 2, 0, 0},
          Below[4] = {0, -1, 0, 0};
  ASSERT_TRUE(locateSurfaceAccess(
      O, ImageGeometry::D2, ptxjit::abi::SurfaceClamp::Trap, InRange, 4, Ptr));
  EXPECT_EQ(Ptr, O.Resource.Data + 2 * 16 + 12);
  EXPECT_FALSE(locateSurfaceAccess(
      O, ImageGeometry::D2, ptxjit::abi::SurfaceClamp::Trap, PastRow, 4, Ptr));
  ASSERT_TRUE(locateSurfaceAccess(
      O, ImageGeometry::D2, ptxjit::abi::SurfaceClamp::Clamp, PastRow, 4, Ptr));
  EXPECT_EQ(Ptr, O.Resource.Data + 2 * 16 + 12);
  ASSERT_TRUE(locateSurfaceAccess(
      O, ImageGeometry::D2, ptxjit::abi::SurfaceClamp::Zero, Below, 4, Ptr));
  EXPECT_EQ(Ptr, nullptr);
}

TEST(TextureSamplingTest, TableHandlesAndValidation) {
  std::vector<float> T = {1};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  ImageObjectTable &Table = ImageObjectTable::get();
  llvm::Expected<uint64_t> H = Table.create(O);
  ASSERT_TRUE(bool(H)) << llvm::toString(H.takeError());
  EXPECT_NE(*H, 0u);
  EXPECT_TRUE(Table.lookup(*H).has_value());
  EXPECT_TRUE(Table.destroy(*H));
  EXPECT_FALSE(Table.lookup(*H).has_value());
  EXPECT_FALSE(Table.destroy(*H));
  // A new object in the same slot gets a different handle.
  llvm::Expected<uint64_t> H2 = Table.create(O);
  ASSERT_TRUE(bool(H2)) << llvm::toString(H2.takeError());
  EXPECT_NE(*H2, *H);
  EXPECT_FALSE(Table.lookup(*H).has_value());
  Table.destroy(*H2);
  // Linear filtering of integers read as integers is refused.
  O.Resource.Format = {1, 32, ChannelKind::Signed};
  O.Sampler.Filter = FilterMode::Linear;
  EXPECT_TRUE(refused(Table, O));
  O.Resource.Data = nullptr;
  O.Sampler.Filter = FilterMode::Point;
  EXPECT_TRUE(refused(Table, O));
}

} // namespace

namespace {

TEST(TextureSamplingTest, CubeFacesFollowTheGuidesTable) {
  // The Programming Guide's cubemap table: face, then (s, t) over |m|.
  struct Case {
    float Dir[3];
    unsigned Face;
    float U, V;
  } Cases[] = {
      // +x: s = -z, t = -y. (2, 1, -1): s = 1/2, t = -1/2.
      {{2, 1, -1}, 0, 0.75f, 0.25f},
      // -x: s = z, t = -y. (-4, 2, 1): s = 1/4, t = -1/2.
      {{-4, 2, 1}, 1, 0.625f, 0.25f},
      // +y: s = x, t = z. (1, 2, -1): s = 1/2, t = -1/2.
      {{1, 2, -1}, 2, 0.75f, 0.25f},
      // -y: s = x, t = -z. (1, -2, -1): s = 1/2, t = 1/2.
      {{1, -2, -1}, 3, 0.75f, 0.75f},
      // +z: s = x, t = -y. (-1, 1, 2): s = -1/2, t = -1/2.
      {{-1, 1, 2}, 4, 0.25f, 0.25f},
      // -z: s = -x, t = -y. (-1, -1, -2): s = 1/2, t = 1/2.
      {{-1, -1, -2}, 5, 0.75f, 0.75f},
      // Ties go to x, then y.
      {{1, 1, 1}, 0, 0, 0},
      {{0, -1, 1}, 3, 0.5f, 0},
  };
  for (const Case &C : Cases) {
    unsigned Face;
    float U, V;
    selectCubeFace(C.Dir, Face, U, V);
    EXPECT_EQ(Face, C.Face) << C.Dir[0] << " " << C.Dir[1] << " " << C.Dir[2];
    EXPECT_EQ(U, C.U) << "face " << C.Face;
    EXPECT_EQ(V, C.V) << "face " << C.Face;
  }
}

/// A normalized 1D float texture of 8, 4, 2 and 1 texels, level L's texels
/// all 10 * (L + 1).
struct Mipmap1D {
  std::vector<float> Texels;
  ImageObject O;
  Mipmap1D(FilterMode MipFilter) {
    O.Resource.Format = TexelFormat();
    O.Resource.Width = 8;
    O.Resource.RowPitch = O.Resource.SlicePitch = 8 * sizeof(float);
    O.Resource.NumLevels = 4;
    uint64_t Offset = 0;
    for (unsigned L = 0; L != 4; ++L) {
      O.Resource.LevelOffset[L] = Offset * sizeof(float);
      for (unsigned I = 0; I != (8u >> L); ++I)
        Texels.push_back(10.0f * (L + 1));
      Offset += 8u >> L;
    }
    O.Resource.Data = reinterpret_cast<char *>(Texels.data());
    O.Sampler.NormalizedCoords = true;
    O.Sampler.MipFilter = MipFilter;
    O.Sampler.MaxLodClamp = 100;
  }
  float sample(LevelOfDetail Lod) const {
    float Coords[3] = {0.3f, 0, 0};
    return sampleTexture(O, ImageGeometry::D1, Coords, 0, Lod).getFloat(0);
  }
};

LevelOfDetail level(float L) {
  LevelOfDetail Lod;
  Lod.Kind = LevelOfDetail::Level;
  Lod.Lod = L;
  return Lod;
}

TEST(TextureSamplingTest, MipmapLevelSelection) {
  Mipmap1D Point(FilterMode::Point);
  // Point mipmap filtering takes the nearest level, clamped to the levels.
  EXPECT_EQ(Point.sample(level(0.49f)), 10);
  EXPECT_EQ(Point.sample(level(0.5f)), 20);
  EXPECT_EQ(Point.sample(level(2.2f)), 30);
  EXPECT_EQ(Point.sample(level(-3)), 10);
  EXPECT_EQ(Point.sample(level(9)), 40);
  // Plain tex reads level 0 whatever the levels.
  EXPECT_EQ(Point.sample(LevelOfDetail()), 10);
  // Bias, then the sampler's clamps.
  Point.O.Sampler.LodBias = 1;
  EXPECT_EQ(Point.sample(level(0.6f)), 30);
  Point.O.Sampler.MaxLodClamp = 1.2f;
  EXPECT_EQ(Point.sample(level(0.6f)), 20);

  // Linear: (1 - beta) * T(floor) + beta * T(floor + 1), beta in 1/256s:
  // 0.3 is 76.8 / 256, stored as 77 / 256.
  Mipmap1D Linear(FilterMode::Linear);
  float Beta = 77.0f / 256;
  EXPECT_EQ(Linear.sample(level(1.3f)), (1 - Beta) * 20 + Beta * 30);
  EXPECT_EQ(Linear.sample(level(3)), 40);
}

TEST(TextureSamplingTest, GradientsGiveTheLevelOfDetail) {
  Mipmap1D M(FilterMode::Point);
  LevelOfDetail Lod;
  Lod.Kind = LevelOfDetail::Grad;
  float Coords[3] = {0.3f, 0, 0};
  // 2 / 8 of the normalized axis is 2 level-0 texels: lambda = 1; the
  // longer of the two gradients counts.
  Lod.DPdx[0] = 2.0f / 8, Lod.DPdy[0] = -0.5f / 8;
  EXPECT_EQ(gradientLevelOfDetail(M.O, ImageGeometry::D1, Coords, Lod), 1.0f);
  EXPECT_EQ(M.sample(Lod), 20);
  Lod.DPdy[0] = -8.0f / 8;
  EXPECT_EQ(gradientLevelOfDetail(M.O, ImageGeometry::D1, Coords, Lod), 3.0f);
  // No change at all: level 0.
  Lod.DPdx[0] = Lod.DPdy[0] = 0;
  EXPECT_EQ(M.sample(Lod), 10);
}

TEST(TextureSamplingTest, FormattedSurfaceStores) {
  TexelFormat U8x4{4, 8, ChannelKind::Unsigned};
  unsigned char Bytes[4];
  // .f32 into unsigned 8-bit: clamped to [0, 1], * 255, to nearest even.
  const float F[4] = {0.5f, 1.7f, -0.2f, 0.25f};
  uint32_t Words[4];
  for (unsigned K = 0; K != 4; ++K)
    std::memcpy(&Words[K], &F[K], 4);
  storeFormattedTexel(U8x4, ptxjit::abi::SurfaceData::F32, Words, 4,
                      (char *)Bytes);
  EXPECT_EQ(Bytes[0], 128);
  EXPECT_EQ(Bytes[1], 255);
  EXPECT_EQ(Bytes[2], 0);
  EXPECT_EQ(Bytes[3], 64);
  // .s32 into signed 16-bit saturates.
  TexelFormat S16{1, 16, ChannelKind::Signed};
  int16_t H;
  uint32_t Big = uint32_t(-40000);
  storeFormattedTexel(S16, ptxjit::abi::SurfaceData::S32, &Big, 1, (char *)&H);
  EXPECT_EQ(H, -32768);
  // .b32 into a half: read as .f32, rounded to nearest even.
  TexelFormat F16{1, 16, ChannelKind::Float};
  // Halves near 1 are 1/1024 apart: 1 + 1/2048 ties to even 0x3c00,
  // 1 + 3/2048 to even 0x3c02.
  const float Ties[2] = {1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048};
  const uint16_t Want[2] = {0x3c00, 0x3c02};
  for (unsigned K = 0; K != 2; ++K) {
    uint32_t W;
    std::memcpy(&W, &Ties[K], 4);
    uint16_t Half;
    storeFormattedTexel(F16, ptxjit::abi::SurfaceData::B, &W, 1, (char *)&Half);
    EXPECT_EQ(Half, Want[K]);
  }
}

} // namespace

namespace {

float sample1DOffset(const ImageObject &O, float X, int32_t Offset) {
  float Coords[3] = {X, 0, 0};
  int32_t Offsets[3] = {Offset, 0, 0};
  return sampleTexture(O, ImageGeometry::D1, Coords, 0, LevelOfDetail(),
                       Offsets)
      .getFloat(0);
}

TEST(TextureSamplingTest, OffsetsAddTexelsBeforeTheAddressMode) {
  std::vector<float> T = {10, 20, 30, 40};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  // x = 0.5 + 2 reads T[2]; 3.5 + 7 clamps to T[3]; 1.5 - 8 clamps to T[0].
  EXPECT_EQ(sample1DOffset(O, 0.5f, 2), 30);
  EXPECT_EQ(sample1DOffset(O, 3.5f, 7), 40);
  EXPECT_EQ(sample1DOffset(O, 1.5f, -8), 10);
  // Normalized: x = 0.125 is texel coordinate 0.5; + 1 texel reads T[1]
  // (an offset counts texels, not normalized units).
  ImageObject N = texture1D(T, AddressMode::Wrap, FilterMode::Point, true);
  EXPECT_EQ(sample1DOffset(N, 0.125f, 1), 20);
  // Wrap applies to the offset texel: 3.5 + 1 is texel 4, T[0].
  EXPECT_EQ(sample1DOffset(N, 0.875f, 1), 10);
  // Linear: 1.0 + 1 blends T[1] and T[2] halfway.
  ImageObject L = texture1D(T, AddressMode::Clamp, FilterMode::Linear, false);
  EXPECT_EQ(sample1DOffset(L, 1.0f, 1), 25);
}

TEST(TextureSamplingTest, OffsetsOfIntegerFetchesAndGathers) {
  std::vector<float> T = {10, 20, 30, 40};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  int32_t Coords[3] = {1, 0, 0}, Offsets[3] = {2, 0, 0};
  EXPECT_EQ(fetchTexel(O, ImageGeometry::D1, Coords, 0, Offsets).getFloat(0),
            40);
  // A linear buffer reads zero outside, offset included.
  O.Resource.Kind = ImageResource::Linear;
  Offsets[0] = 3;
  EXPECT_EQ(fetchTexel(O, ImageGeometry::D1, Coords, 0, Offsets).getFloat(0),
            0);
  // tld4 of a 2x2 texture {1, 2; 3, 4} at (1, 1), offset (-1, 0): texel
  // coordinates (0, 1), footprint i = -1, 0 (clamped to 0, 0) and j = 0, 1.
  std::vector<float> Q = {1, 2, 3, 4};
  ImageObject G = texture1D(Q, AddressMode::Clamp, FilterMode::Point, false);
  G.Resource.Width = 2;
  G.Resource.Height = 2;
  G.Resource.Dimensions = 2;
  G.Resource.RowPitch = 2 * sizeof(float);
  G.Resource.SlicePitch = 4 * sizeof(float);
  float XY[2] = {1, 1};
  int32_t GatherOffsets[3] = {-1, 0, 0};
  TexelValue V = gatherTexture(G, XY, 0, GatherOffsets);
  // (i0, j1), (i1, j1), (i1, j0), (i0, j0) = T[1][0], T[1][0], T[0][0],
  // T[0][0].
  EXPECT_EQ(V.getFloat(0), 3);
  EXPECT_EQ(V.getFloat(1), 3);
  EXPECT_EQ(V.getFloat(2), 1);
  EXPECT_EQ(V.getFloat(3), 1);
}

TEST(TextureSamplingTest, SamplerWordReplacesOnlyItsFields) {
  std::vector<float> T = {10, 20, 30, 40};
  ImageObject O = texture1D(T, AddressMode::Clamp, FilterMode::Point, false);
  ptxjit::abi::SamplerWord W;
  W.HasFilter = W.Linear = true;
  W.HasAddress[0] = true;
  W.Address[0] = ptxjit::abi::SamplerWord::Wrap;
  W.HasNormalized = W.Normalized = true;
  ptxjit::abi::SamplerWord Back = ptxjit::abi::SamplerWord::decode(W.encode());
  EXPECT_EQ(Back.encode(), W.encode());
  EXPECT_NE(W.encode(), 0u);
  ImageObject S = applySamplerWord(O, Back);
  EXPECT_EQ(S.Sampler.Filter, FilterMode::Linear);
  EXPECT_EQ(S.Sampler.Address[0], AddressMode::Wrap);
  EXPECT_EQ(S.Sampler.Address[1], AddressMode::Clamp); // not given
  EXPECT_TRUE(S.Sampler.NormalizedCoords);
  // Normalized 0.5 is texel 2.0: halfway between T[1] and T[2].
  EXPECT_EQ(sample1D(S, 0.5f), 25);
  // An empty word changes nothing.
  ImageObject Same = applySamplerWord(O, ptxjit::abi::SamplerWord());
  EXPECT_EQ(sample1D(Same, 2.0f), 30);
}

} // namespace
