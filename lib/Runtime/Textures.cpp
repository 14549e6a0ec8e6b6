//===- Textures.cpp - The object table and the texture entry points -------===//
//
// The handles kernels hold name slots of one process-wide table; the entry
// points look each lane's handle up (once per run of lanes with the same
// handle, under a shared lock) and sample, load or store for the lanes of
// the mask only.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/Textures.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstring>
#include <mutex>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;
using abi::ImageGeometry;

static Error invalidObject(const Twine &Why) {
  return createStringError(std::make_error_code(std::errc::invalid_argument),
                           Why);
}

Error runtime::validateImageObject(const ImageObject &O) {
  const ImageResource &R = O.Resource;
  const TexelFormat &F = R.Format;
  if (!R.Data)
    return invalidObject("the resource has no memory");
  if (F.NumChannels != 1 && F.NumChannels != 2 && F.NumChannels != 4)
    return invalidObject(
        formatv("{0} channels (1, 2 or 4 exist)", F.NumChannels));
  bool BitsExist =
      F.Kind == ChannelKind::Float
          ? F.ChannelBits == 16 || F.ChannelBits == 32
          : F.ChannelBits == 8 || F.ChannelBits == 16 || F.ChannelBits == 32;
  if (!BitsExist)
    return invalidObject(
        formatv("{0}-bit channels of this kind do not exist", F.ChannelBits));
  if (!R.Width || !R.Height || !R.Depth)
    return invalidObject("the resource is empty");
  if (R.Dimensions < 1 || R.Dimensions > 3)
    return invalidObject("the resource has 1 to 3 dimensions");
  if (R.RowPitch < R.Width * F.getTexelBytes() ||
      (R.Height > 1 && R.SlicePitch < R.RowPitch * R.Height && R.Depth > 1))
    return invalidObject("the pitch is smaller than a row");
  if (O.IsSurface)
    return Error::success();
  if (R.NumLevels < 1 || R.NumLevels > MaxMipLevels)
    return invalidObject(formatv("{0} mipmap levels (1 to {1} exist)",
                                 R.NumLevels, MaxMipLevels));
  if (R.Cubemap &&
      (R.Dimensions != 2 || R.Width != R.Height || R.Depth % 6 != 0))
    return invalidObject("a cubemap has square faces, 6 per layer");
  const SamplerState &S = O.Sampler;
  if (R.NumLevels > 1 && !S.NormalizedCoords)
    return invalidObject("mipmapped textures need normalized coordinates");
  if (S.Read == ReadMode::NormalizedFloat && F.Kind != ChannelKind::Float &&
      F.ChannelBits == 32)
    return invalidObject("32-bit integers cannot be read as normalized floats");
  if (S.Filter == FilterMode::Linear && !returnsFloat(F, S.Read))
    return invalidObject("linear filtering needs float results");
  return Error::success();
}

ImageObjectTable &ImageObjectTable::get() {
  static ImageObjectTable Table;
  return Table;
}

// Handle: the slot's generation above, its index + 1 below.
Expected<uint64_t> ImageObjectTable::create(const ImageObject &O) {
  if (Error E = validateImageObject(O))
    return std::move(E);
  std::unique_lock<std::shared_mutex> Guard(Lock);
  uint32_t Index;
  if (!FreeSlots.empty()) {
    Index = FreeSlots.back();
    FreeSlots.pop_back();
  } else {
    Index = Slots.size();
    Slots.emplace_back();
  }
  Slot &S = Slots[Index];
  S.Live = true;
  S.Object = O;
  return uint64_t(S.Generation) << 32 | (uint64_t(Index) + 1);
}

bool ImageObjectTable::destroy(uint64_t Handle) {
  std::unique_lock<std::shared_mutex> Guard(Lock);
  uint64_t Index = (Handle & 0xffffffff) - 1;
  if (Index >= Slots.size() || !Slots[Index].Live ||
      Slots[Index].Generation != Handle >> 32)
    return false;
  Slot &S = Slots[Index];
  S.Live = false;
  // A new generation keeps the old handle invalid; a slot whose generations
  // ran out is never reused.
  if (++S.Generation != 0)
    FreeSlots.push_back(Index);
  return true;
}

std::optional<ImageObject> ImageObjectTable::lookup(uint64_t Handle) const {
  std::shared_lock<std::shared_mutex> Guard(Lock);
  uint64_t Index = (Handle & 0xffffffff) - 1;
  if (Index >= Slots.size() || !Slots[Index].Live ||
      Slots[Index].Generation != Handle >> 32)
    return std::nullopt;
  return Slots[Index].Object;
}

namespace {
/// The object of each lane's handle, looked up when the handle changes.
class HandleCache {
public:
  HandleCache(const uint64_t *Handles, bool WantSurface)
      : Handles(Handles), WantSurface(WantSurface) {}
  const ImageObject *get(unsigned Lane) {
    uint64_t H = Handles[Lane];
    if (!Looked || H != Cached) {
      Looked = true;
      Cached = H;
      Object = ImageObjectTable::get().lookup(H);
      if (Object && Object->IsSurface != WantSurface)
        Object.reset();
    }
    return Object ? &*Object : nullptr;
  }

private:
  const uint64_t *Handles;
  bool WantSurface;
  bool Looked = false;
  uint64_t Cached = 0;
  std::optional<ImageObject> Object;
};

template <typename Fn> void forEachLane(uint32_t Mask, Fn &&F) {
  for (; Mask; Mask &= Mask - 1)
    F(unsigned(llvm::countr_zero(Mask)));
}
} // namespace

extern "C" uint32_t ptxjit_rt_tex(uint32_t OpWord, uint32_t Mask,
                                  const uint64_t *Handles,
                                  const uint32_t *Coords, uint32_t *Result) {
  abi::TexOp Op = abi::TexOp::decode(OpWord);
  HandleCache Objects(Handles, /*WantSurface=*/false);
  bool Layered = Op.Geometry == ImageGeometry::A1D ||
                 Op.Geometry == ImageGeometry::A2D ||
                 Op.Geometry == ImageGeometry::ACube;
  auto Float = [&](unsigned K, unsigned L) {
    return bit_cast<float>(Coords[K * 32 + L]);
  };
  uint32_t Traps = 0;
  forEachLane(Mask, [&](unsigned L) {
    const ImageObject *O = Objects.get(L);
    if (!O) {
      Traps |= 1u << L;
      return;
    }
    // A .samplerref (or a .texref's initializer) replaces sampler settings.
    ImageObject Sampled;
    if (uint32_t Word = Coords[abi::TexSamplerArg * 32 + L]) {
      Sampled = applySamplerWord(*O, abi::SamplerWord::decode(Word));
      O = &Sampled;
    }
    int32_t Offsets[3] = {0, 0, 0};
    for (unsigned K = 0; Op.Offsets && K != 3; ++K)
      Offsets[K] = int32_t(Coords[(abi::TexOffsetArgs + K) * 32 + L]);
    const int32_t *Offs = Op.Offsets ? Offsets : nullptr;
    auto Coord = [&](unsigned K) { return Coords[(K + Layered) * 32 + L]; };
    int32_t Layer = Layered ? int32_t(Coords[L]) : 0;
    TexelValue V;
    if (Op.Gather) {
      float XY[2] = {bit_cast<float>(Coord(0)), bit_cast<float>(Coord(1))};
      V = gatherTexture(*O, XY, Op.Gather - 1, Offs);
    } else if (Op.FloatCoords) {
      float XYZ[3] = {bit_cast<float>(Coord(0)), bit_cast<float>(Coord(1)),
                      bit_cast<float>(Coord(2))};
      LevelOfDetail Lod;
      Lod.Kind = LevelOfDetail::KindTy(Op.Lod);
      if (Op.Lod == abi::TexLod::Level)
        Lod.Lod = Float(abi::TexLodArgs, L);
      for (unsigned K = 0; Op.Lod == abi::TexLod::Grad && K != 3; ++K) {
        Lod.DPdx[K] = Float(abi::TexLodArgs + K, L);
        Lod.DPdy[K] = Float(abi::TexLodArgs + 4 + K, L);
      }
      V = sampleTexture(*O, Op.Geometry, XYZ, Layer, Lod, Offs);
    } else {
      int32_t XYZ[3] = {int32_t(Coord(0)), int32_t(Coord(1)),
                        int32_t(Coord(2))};
      V = fetchTexel(*O, Op.Geometry, XYZ, Layer, Offs);
    }
    for (unsigned K = 0; K != 4; ++K)
      Result[K * 32 + L] = V.Words[K];
  });
  return Traps;
}

/// sured: Ptr's element combined with V, atomically when it is aligned.
template <typename T>
static void reduce(char *Ptr, abi::SurfaceReduction R, T V) {
  auto Combine = [&](T Old) -> T {
    switch (R) {
    case abi::SurfaceReduction::Add:
      return T(Old + V);
    case abi::SurfaceReduction::Min:
      return std::min(Old, V);
    case abi::SurfaceReduction::Max:
      return std::max(Old, V);
    case abi::SurfaceReduction::And:
      return T(Old & V);
    case abi::SurfaceReduction::Or:
      return T(Old | V);
    case abi::SurfaceReduction::None:
      break;
    }
    return V;
  };
  if (reinterpret_cast<uintptr_t>(Ptr) % sizeof(T) != 0) {
    T Old;
    std::memcpy(&Old, Ptr, sizeof(T));
    T New = Combine(Old);
    std::memcpy(Ptr, &New, sizeof(T));
    return;
  }
  T *P = reinterpret_cast<T *>(Ptr);
  T Old = __atomic_load_n(P, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(P, &Old, Combine(Old), /*weak=*/true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

static void reduceSurfaceElement(char *Ptr, const abi::SurfaceOp &Op,
                                 uint64_t V) {
  bool Signed = Op.Data == abi::SurfaceData::S32;
  if (Op.ElementBytes == 8) {
    if (Signed)
      reduce<int64_t>(Ptr, Op.Reduction, int64_t(V));
    else
      reduce<uint64_t>(Ptr, Op.Reduction, V);
  } else if (Signed) {
    reduce<int32_t>(Ptr, Op.Reduction, int32_t(V));
  } else {
    reduce<uint32_t>(Ptr, Op.Reduction, uint32_t(V));
  }
}

/// Runs Access(Lane, Ptr, Op, Object) for each lane of Mask whose surface
/// access lands (Ptr null: dropped by .zero); returns the lanes that trap.
template <typename Fn>
static uint32_t forEachSurfaceAccess(uint32_t OpWord, uint32_t Mask,
                                     const uint64_t *Handles,
                                     const uint32_t *Coords, Fn &&Access) {
  abi::SurfaceOp Op = abi::SurfaceOp::decode(OpWord);
  HandleCache Objects(Handles, /*WantSurface=*/true);
  bool Layered =
      Op.Geometry == ImageGeometry::A1D || Op.Geometry == ImageGeometry::A2D;
  uint32_t Traps = 0;
  forEachLane(Mask, [&](unsigned L) {
    const ImageObject *O = Objects.get(L);
    int32_t XYZW[4];
    for (unsigned K = 0; K != 4; ++K)
      XYZW[K] = int32_t(Coords[K * 32 + L]);
    unsigned Bytes = Op.ElementBytes * Op.VectorWidth;
    if (O && Op.Formatted) {
      // .p: x counts texels; sust.p writes a whole texel.
      unsigned TexelBytes = O->Resource.Format.getTexelBytes();
      XYZW[Layered] = int32_t(int64_t(XYZW[Layered]) * TexelBytes);
      if (Op.Reduction == abi::SurfaceReduction::None)
        Bytes = TexelBytes;
    }
    char *Ptr;
    if (!O ||
        !locateSurfaceAccess(*O, Op.Geometry, Op.Clamp, XYZW, Bytes, Ptr)) {
      Traps |= 1u << L;
      return;
    }
    Access(L, Ptr, Op, *O);
  });
  return Traps;
}

extern "C" uint32_t ptxjit_rt_suld(uint32_t OpWord, uint32_t Mask,
                                   const uint64_t *Handles,
                                   const uint32_t *Coords, uint64_t *Data) {
  return forEachSurfaceAccess(
      OpWord, Mask, Handles, Coords,
      [&](unsigned L, const char *Ptr, const abi::SurfaceOp &Op,
          const ImageObject &) {
        for (unsigned K = 0; K != Op.VectorWidth; ++K) {
          uint64_t V = 0;
          if (Ptr)
            std::memcpy(&V, Ptr + K * Op.ElementBytes, Op.ElementBytes);
          Data[K * 32 + L] = V;
        }
      });
}

extern "C" uint32_t ptxjit_rt_sust(uint32_t OpWord, uint32_t Mask,
                                   const uint64_t *Handles,
                                   const uint32_t *Coords,
                                   const uint64_t *Data) {
  return forEachSurfaceAccess(
      OpWord, Mask, Handles, Coords,
      [&](unsigned L, char *Ptr, const abi::SurfaceOp &Op,
          const ImageObject &O) {
        if (!Ptr)
          return;
        if (Op.Reduction != abi::SurfaceReduction::None)
          return reduceSurfaceElement(Ptr, Op, Data[L]);
        if (Op.Formatted) {
          uint32_t Words[4] = {0, 0, 0, 0};
          for (unsigned K = 0; K != Op.VectorWidth; ++K)
            Words[K] = uint32_t(Data[K * 32 + L]);
          return storeFormattedTexel(O.Resource.Format, Op.Data, Words,
                                     Op.VectorWidth, Ptr);
        }
        for (unsigned K = 0; K != Op.VectorWidth; ++K)
          std::memcpy(Ptr + K * Op.ElementBytes, &Data[K * 32 + L],
                      Op.ElementBytes);
      });
}

extern "C" uint32_t ptxjit_rt_txq(uint32_t Query, uint32_t IsSurface,
                                  uint32_t Mask, const uint64_t *Handles,
                                  uint32_t *Result) {
  HandleCache Objects(Handles, IsSurface != 0);
  abi::ImageQuery Q = abi::ImageQuery(Query & ~abi::ImageQueryAtLevel);
  bool AtLevel = Query & abi::ImageQueryAtLevel;
  uint32_t Traps = 0;
  forEachLane(Mask, [&](unsigned L) {
    const ImageObject *O = Objects.get(L);
    if (Q == abi::ImageQuery::IsObject)
      Result[L] = O != nullptr;
    else if (!O)
      Traps |= 1u << L;
    else if (AtLevel)
      Result[L] = Result[L] < O->Resource.NumLevels
                      ? queryImage(ImageObject{O->IsSurface,
                                               O->Resource.getLevel(Result[L]),
                                               O->Sampler},
                                   Q)
                      : 0;
    else
      Result[L] = queryImage(*O, Q);
  });
  return Traps;
}
