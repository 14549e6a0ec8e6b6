//===- DriverTexRef.cpp - libcuda.so.1: texture and surface references ----===//
//
// The deprecated driver API that binds a module's .texref to memory
// (cuModuleGetTexRef, cuTexRefSetAddress, cuTexRefSetAddress2D,
// cuTexRefSetFormat/FilterMode/AddressMode/Flags) and finds its .surfref
// (cuModuleGetSurfRef). The memory bound must lie in one device
// allocation. A .texref's storage holds a texture object's handle
// (TextureRefs.h): each call that changes the reference builds a new object
// from its settings and writes the handle there, so kernels launched after
// it sample the new binding. References bind to arrays too
// (cuTexRefSetArray, cuTexRefSetMipmappedArray, cuSurfRefSetArray), which
// then give the format.
//
//===----------------------------------------------------------------------===//

#include "DriverAPI.h"
#include "DriverTextures.h"
#include "ImageArrays.h"
#include "ptxjit/Device/Module.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Runtime/Textures.h"
#include "llvm/ADT/DenseMap.h"
#include <cstring>
#include <memory>
#include <mutex>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

namespace {

struct ArrayDescriptor {
  size_t Width, Height;
  unsigned Format, NumChannels;
};

/// One module .texref or .surfref and the settings the calls gave it.
struct Reference {
  void *Storage = nullptr; ///< the variable's 8 bytes: the handle
  bool IsSurface = false;
  enum MemoryKind { None, Linear, Pitch2D, Array } Memory = None;
  char *Data = nullptr;
  uint64_t Bytes = 0;                        ///< Linear
  uint64_t Width = 0, Height = 0, Pitch = 0; ///< Pitch2D
  ImageResource ArrayResource;               ///< Array
  unsigned Format = FormatFloat, NumChannels = 1;
  SamplerState Sampler;
  unsigned Flags = 0;
  uint64_t Handle = 0;
};

/// The references handed out, one per variable, for the process.
struct References {
  std::mutex Lock;
  DenseMap<void *, std::unique_ptr<Reference>> ByStorage;
  static References &get() {
    static References R;
    return R;
  }
};

} // namespace

struct CUtexref_st : Reference {};
typedef CUtexref_st *CUtexref;
typedef CUtexref_st *CUsurfref;
typedef void *CUarray;
typedef void *CUmipmappedArray;

/// Builds the texture object of R's settings and stores its handle in the
/// variable (0, unbound, when R has no memory or the object is invalid).
static CUresult rebind(Reference &R) {
  if (R.Handle)
    ImageObjectTable::get().destroy(R.Handle);
  R.Handle = 0;
  std::memset(R.Storage, 0, sizeof R.Handle);
  if (R.Memory == Reference::None)
    return CUDA_SUCCESS;
  ImageObject O;
  O.IsSurface = R.IsSurface;
  ImageResource &Res = O.Resource;
  std::optional<TexelFormat> F = toTexelFormat(R.Format, R.NumChannels);
  if (!F)
    return CUDA_ERROR_INVALID_VALUE;
  Res.Format = *F;
  Res.Data = R.Data;
  uint64_t TexelBytes = Res.Format.getTexelBytes();
  if (R.Memory == Reference::Array) {
    Res = R.ArrayResource;
  } else if (R.Memory == Reference::Linear) {
    Res.Kind = ImageResource::Linear;
    Res.Width = R.Bytes / TexelBytes;
    Res.RowPitch = Res.Width * TexelBytes;
  } else {
    Res.Kind = ImageResource::Pitch2D;
    Res.Dimensions = 2;
    Res.Width = R.Width;
    Res.Height = R.Height;
    Res.RowPitch = R.Pitch;
  }
  if (R.Memory != Reference::Array)
    Res.SlicePitch = Res.RowPitch * Res.Height;
  O.Sampler = R.Sampler;
  O.Sampler.NormalizedCoords = R.Flags & FlagNormalizedCoordinates;
  O.Sampler.Read = getReadMode(Res.Format, R.Flags);
  Expected<uint64_t> H = ImageObjectTable::get().create(O);
  if (!H) {
    consumeError(H.takeError());
    return CUDA_ERROR_INVALID_VALUE;
  }
  R.Handle = *H;
  std::memcpy(R.Storage, &R.Handle, sizeof R.Handle);
  return CUDA_SUCCESS;
}

static CUresult getReference(CUtexref *Out, CUmodule Module, const char *Name,
                             ptx::OpaqueKind Kind) {
  if (!Out || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Module)
    return CUDA_ERROR_INVALID_HANDLE;
  const ptx::VariableDecl *V = Module->getPTX().findGlobal(Name);
  if (!V || V->Opaque != Kind)
    return CUDA_ERROR_NOT_FOUND;
  Expected<device::Allocation> A = Module->getGlobal(Name);
  if (!A)
    return cuda::driver::toResult(A.takeError());
  References &Refs = References::get();
  std::lock_guard<std::mutex> Guard(Refs.Lock);
  std::unique_ptr<Reference> &Slot = Refs.ByStorage[A->Base];
  if (!Slot) {
    Slot = std::make_unique<CUtexref_st>();
    Slot->Storage = A->Base;
    Slot->IsSurface = Kind == ptx::OpaqueKind::SurfRef;
  }
  *Out = static_cast<CUtexref>(Slot.get());
  return CUDA_SUCCESS;
}

/// Whether [Ptr, Ptr + Bytes) lies in one device allocation of the current
/// context: the memory a texture reference may be bound to (the runtime
/// library's toResource checks its resources the same way).
static bool isDeviceMemory(CUdeviceptr Ptr, uint64_t Bytes) {
  device::Context *C = cuda::RuntimeState::get().peekContext();
  return C &&
         isDeviceRange(*C, reinterpret_cast<void *>(uintptr_t(Ptr)), Bytes);
}

/// Runs F on a texture reference (not a surface's) and rebinds it.
template <typename Fn> static CUresult update(CUtexref T, Fn &&F) {
  if (!T || T->IsSurface)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> Guard(References::get().Lock);
  if (CUresult R = F(*T))
    return R;
  return rebind(*T);
}

PTXJIT_CUDA_API CUresult cuModuleGetTexRef(CUtexref *TexRef, CUmodule Module,
                                           const char *Name) {
  return getReference(TexRef, Module, Name, ptx::OpaqueKind::TexRef);
}

PTXJIT_CUDA_API CUresult cuModuleGetSurfRef(CUsurfref *SurfRef, CUmodule Module,
                                            const char *Name) {
  return getReference(SurfRef, Module, Name, ptx::OpaqueKind::SurfRef);
}

PTXJIT_CUDA_API CUresult cuTexRefSetAddress_v2(size_t *ByteOffset, CUtexref T,
                                               CUdeviceptr Ptr, size_t Bytes) {
  // The memory is used where it starts: no alignment offset.
  if (ByteOffset)
    *ByteOffset = 0;
  if (Ptr && !isDeviceMemory(Ptr, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  return update(T, [&](Reference &R) -> CUresult {
    R.Memory = Ptr ? Reference::Linear : Reference::None;
    R.Data = reinterpret_cast<char *>(uintptr_t(Ptr));
    R.Bytes = Bytes;
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuTexRefSetAddress2D_v3(CUtexref T,
                                                 const ArrayDescriptor *Desc,
                                                 CUdeviceptr Ptr,
                                                 size_t Pitch) {
  if (!Desc)
    return CUDA_ERROR_INVALID_VALUE;
  return update(T, [&](Reference &R) -> CUresult {
    std::optional<TexelFormat> F =
        toTexelFormat(Desc->Format, Desc->NumChannels);
    if (!F || Pitch < Desc->Width * F->getTexelBytes())
      return CUDA_ERROR_INVALID_VALUE;
    uint64_t Bytes = Desc->Height ? uint64_t(Pitch) * (Desc->Height - 1) +
                                        Desc->Width * F->getTexelBytes()
                                  : 0;
    if (Ptr && !isDeviceMemory(Ptr, Bytes))
      return CUDA_ERROR_INVALID_VALUE;
    R.Memory = Ptr ? Reference::Pitch2D : Reference::None;
    R.Data = reinterpret_cast<char *>(uintptr_t(Ptr));
    R.Width = Desc->Width;
    R.Height = Desc->Height;
    R.Pitch = Pitch;
    R.Format = Desc->Format;
    R.NumChannels = Desc->NumChannels;
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuTexRefSetFormat(CUtexref T, unsigned Format,
                                           int NumPackedComponents) {
  return update(T, [&](Reference &R) -> CUresult {
    if (!toTexelFormat(Format, unsigned(NumPackedComponents)))
      return CUDA_ERROR_INVALID_VALUE;
    R.Format = Format;
    R.NumChannels = unsigned(NumPackedComponents);
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuTexRefSetFilterMode(CUtexref T, unsigned Mode) {
  return update(T, [&](Reference &R) -> CUresult {
    if (Mode > 1)
      return CUDA_ERROR_INVALID_VALUE;
    R.Sampler.Filter = Mode ? FilterMode::Linear : FilterMode::Point;
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuTexRefSetAddressMode(CUtexref T, int Dim,
                                                unsigned Mode) {
  return update(T, [&](Reference &R) -> CUresult {
    // CU_TR_ADDRESS_MODE_WRAP, CLAMP, MIRROR, BORDER: the runtime's order.
    if (Dim < 0 || Dim > 2 || Mode > 3)
      return CUDA_ERROR_INVALID_VALUE;
    R.Sampler.Address[Dim] = AddressMode(Mode);
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuTexRefSetFlags(CUtexref T, unsigned Flags) {
  return update(T, [&](Reference &R) -> CUresult {
    // sRGB conversion is not implemented (as for texture objects).
    if (Flags & FlagSRGB)
      return CUDA_ERROR_NOT_SUPPORTED;
    R.Flags = Flags;
    return CUDA_SUCCESS;
  });
}

/// Binds R to the memory of array resource Res, in the array's format.
static void bindArray(Reference &R, const ImageResource &Res) {
  R.Memory = Reference::Array;
  R.ArrayResource = Res;
  R.Data = Res.Data;
  R.Format = toArrayFormat(Res.Format);
  R.NumChannels = Res.Format.NumChannels;
}

PTXJIT_CUDA_API CUresult cuTexRefSetArray(CUtexref T, CUarray Array,
                                          unsigned Flags) {
  // CU_TRSA_OVERRIDE_FORMAT is the only flag, and it is required.
  if (Flags != 1)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<ImageArray *> A = lookupImageArray(Array);
  if (!A)
    return cuda::driver::toResult(A.takeError());
  return update(T, [&](Reference &R) -> CUresult {
    bindArray(R, (*A)->Resource);
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuTexRefSetMipmappedArray(CUtexref T,
                                                   CUmipmappedArray Array,
                                                   unsigned Flags) {
  if (Flags != 1)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<MipmappedImageArray *> M = lookupMipmappedImageArray(Array);
  if (!M)
    return cuda::driver::toResult(M.takeError());
  return update(T, [&](Reference &R) -> CUresult {
    bindArray(R, (*M)->Resource);
    return CUDA_SUCCESS;
  });
}

PTXJIT_CUDA_API CUresult cuSurfRefSetArray(CUsurfref S, CUarray Array,
                                           unsigned Flags) {
  if (!S || !S->IsSurface || Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<ImageArray *> A = lookupImageArray(Array);
  if (!A)
    return cuda::driver::toResult(A.takeError());
  if (!((*A)->Flags & ArraySurfaceLoadStore))
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> Guard(References::get().Lock);
  bindArray(*S, (*A)->Resource);
  return rebind(*S);
}
