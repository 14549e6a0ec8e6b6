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
  const SamplerState &S = O.Sampler;
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
  bool Layered =
      Op.Geometry == ImageGeometry::A1D || Op.Geometry == ImageGeometry::A2D;
  uint32_t Traps = 0;
  forEachLane(Mask, [&](unsigned L) {
    const ImageObject *O = Objects.get(L);
    if (!O) {
      Traps |= 1u << L;
      return;
    }
    auto Coord = [&](unsigned K) { return Coords[(K + Layered) * 32 + L]; };
    int32_t Layer = Layered ? int32_t(Coords[L]) : 0;
    TexelValue V;
    if (Op.Gather) {
      float XY[2] = {bit_cast<float>(Coord(0)), bit_cast<float>(Coord(1))};
      V = gatherTexture(*O, XY, Op.Gather - 1);
    } else if (Op.FloatCoords) {
      float XYZ[3] = {bit_cast<float>(Coord(0)), bit_cast<float>(Coord(1)),
                      bit_cast<float>(Coord(2))};
      V = sampleTexture(*O, Op.Geometry, XYZ, Layer);
    } else {
      int32_t XYZ[3] = {int32_t(Coord(0)), int32_t(Coord(1)),
                        int32_t(Coord(2))};
      V = fetchTexel(*O, Op.Geometry, XYZ, Layer);
    }
    for (unsigned K = 0; K != 4; ++K)
      Result[K * 32 + L] = V.Words[K];
  });
  return Traps;
}

/// Runs Access(Lane, Ptr) for each lane of Mask whose surface access lands
/// (Ptr null: dropped by .zero); returns the lanes that trap.
template <typename Fn>
static uint32_t forEachSurfaceAccess(uint32_t OpWord, uint32_t Mask,
                                     const uint64_t *Handles,
                                     const uint32_t *Coords, Fn &&Access) {
  abi::SurfaceOp Op = abi::SurfaceOp::decode(OpWord);
  HandleCache Objects(Handles, /*WantSurface=*/true);
  unsigned Bytes = Op.ElementBytes * Op.VectorWidth;
  uint32_t Traps = 0;
  forEachLane(Mask, [&](unsigned L) {
    const ImageObject *O = Objects.get(L);
    int32_t XYZW[4];
    for (unsigned K = 0; K != 4; ++K)
      XYZW[K] = int32_t(Coords[K * 32 + L]);
    char *Ptr;
    if (!O ||
        !locateSurfaceAccess(*O, Op.Geometry, Op.Clamp, XYZW, Bytes, Ptr)) {
      Traps |= 1u << L;
      return;
    }
    Access(L, Ptr, Op);
  });
  return Traps;
}

extern "C" uint32_t ptxjit_rt_suld(uint32_t OpWord, uint32_t Mask,
                                   const uint64_t *Handles,
                                   const uint32_t *Coords, uint64_t *Data) {
  return forEachSurfaceAccess(
      OpWord, Mask, Handles, Coords,
      [&](unsigned L, const char *Ptr, const abi::SurfaceOp &Op) {
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
      [&](unsigned L, char *Ptr, const abi::SurfaceOp &Op) {
        if (!Ptr)
          return;
        for (unsigned K = 0; K != Op.VectorWidth; ++K)
          std::memcpy(Ptr + K * Op.ElementBytes, &Data[K * 32 + L],
                      Op.ElementBytes);
      });
}

extern "C" uint32_t ptxjit_rt_txq(uint32_t Query, uint32_t IsSurface,
                                  uint32_t Mask, const uint64_t *Handles,
                                  uint32_t *Result) {
  HandleCache Objects(Handles, IsSurface != 0);
  uint32_t Traps = 0;
  forEachLane(Mask, [&](unsigned L) {
    if (const ImageObject *O = Objects.get(L))
      Result[L] = queryImage(*O, abi::ImageQuery(Query));
    else
      Traps |= 1u << L;
  });
  return Traps;
}
