//===- ImageObjects.h - One API's texture and surface objects ---*- C++ -*-===//
//
// The texture and surface objects one CUDA API made, and the descriptors
// each was made from, for its Get functions. The handles are the runtime's
// object table's (ptxjit/Runtime/Textures.h), which the kernels' tex and
// suld/sust look up; the runtime and the driver API each keep their own
// descriptor types here.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_IMAGEOBJECTS_H
#define PTXJIT_LIB_CUDA_IMAGEOBJECTS_H

#include "ImageArrays.h"
#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/Runtime/Textures.h"
#include "llvm/ADT/DenseMap.h"
#include <cstring>
#include <mutex>
#include <optional>

namespace ptxjit {
namespace cuda {

template <typename ResourceDesc, typename TextureDesc> class ImageObjects {
public:
  struct Descriptors {
    ResourceDesc Res;
    TextureDesc Tex; ///< zeros for a surface
    bool IsSurface;
  };

  /// Makes O, from Res and, for a texture, Tex. A surface's resource must
  /// be SurfaceArray, an array made for surface loads and stores.
  llvm::Expected<uint64_t> create(const runtime::ImageObject &O,
                                  const ResourceDesc &Res,
                                  const TextureDesc *Tex,
                                  const ImageArray *SurfaceArray) {
    if (O.IsSurface &&
        !(SurfaceArray && (SurfaceArray->Flags & ArraySurfaceLoadStore)))
      return device::makeDeviceError(
          device::ErrorCode::InvalidValue,
          "surfaces need an array made for surface loads and stores");
    llvm::Expected<uint64_t> H = runtime::ImageObjectTable::get().create(O);
    if (!H)
      return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                     llvm::toString(H.takeError()));
    std::lock_guard<std::mutex> G(Lock);
    Descriptors &D = Objects[*H];
    D.Res = Res;
    std::memset(&D.Tex, 0, sizeof D.Tex);
    if (Tex)
      D.Tex = *Tex;
    D.IsSurface = O.IsSurface;
    return *H;
  }

  /// Destroys object H; false if it is not a live object of the kind.
  bool destroy(uint64_t H, bool IsSurface) {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Objects.find(H);
    if (It == Objects.end() || It->second.IsSurface != IsSurface)
      return false;
    Objects.erase(It);
    runtime::ImageObjectTable::get().destroy(H);
    return true;
  }

  /// The descriptors of live object H of the kind.
  std::optional<Descriptors> get(uint64_t H, bool IsSurface) {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Objects.find(H);
    if (It == Objects.end() || It->second.IsSurface != IsSurface)
      return std::nullopt;
    return It->second;
  }

private:
  std::mutex Lock;
  llvm::DenseMap<uint64_t, Descriptors> Objects;
};

} // namespace cuda
} // namespace ptxjit

#endif
