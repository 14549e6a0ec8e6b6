//===- KernelArguments.cpp - Binding --arg SPECs to a kernel --------------===//

#include "ptxjit/Driver/KernelArguments.h"
#include "ptxjit/Driver/BufferFile.h"
#include "ptxjit/Driver/BufferPrinter.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "ptxjit/Runtime/Textures.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::driver;

static Error checkCount(ArrayRef<ParamDesc> Params,
                        ArrayRef<std::string> Specs) {
  if (Specs.size() == Params.size())
    return Error::success();
  std::string Counts = "the kernel has " + std::to_string(Params.size()) +
                       " parameter" + (Params.size() == 1 ? "" : "s") +
                       " but " + std::to_string(Specs.size()) + " --arg " +
                       (Specs.size() == 1 ? "was" : "were") + " given";
  if (Specs.size() < Params.size())
    return createStringError("missing --arg for parameter '%s': %s",
                             Params[Specs.size()].Name.c_str(), Counts.c_str());
  return createStringError("--arg '%s' has no parameter to bind to: %s",
                           Specs[Params.size()].c_str(), Counts.c_str());
}

/// The texture or surface object of an image SPEC over Buf's texels. The
/// object lives as long as the process (one run of ptx-jit).
static Expected<uint64_t> createImage(const ArgSpec &Spec, HostBuffer &Buf) {
  using namespace ptxjit::runtime;
  const ImageSpec &Img = Spec.Img;
  ImageObject O;
  O.IsSurface = Img.IsSurface;
  ImageResource &R = O.Resource;
  StringRef Type = getElementTypeName(Spec.Buf.Type);
  R.Format.NumChannels = Img.Channels;
  R.Format.ChannelBits = unsigned(getElementSize(Spec.Buf.Type) * 8);
  R.Format.Kind = Type.starts_with("f")   ? ChannelKind::Float
                  : Type.starts_with("s") ? ChannelKind::Signed
                                          : ChannelKind::Unsigned;
  R.Data = static_cast<char *>(static_cast<void *>(Buf.data()));
  R.Dimensions = Img.Dimensions;
  R.Layered = Img.Layered;
  R.Cubemap = Img.Cubemap;
  R.Width = Img.Extent[0];
  R.Height = Img.Extent[1];
  R.Depth = Img.Extent[2];
  // The layers are rows of a 1D array and slices of a 2D one; a cubemap's
  // faces are slices, six a layer (ImageResource).
  if (Img.Cubemap) {
    R.Height = Img.Extent[0];
    R.Depth = 6 * (Img.Layered ? Img.Extent[1] : 1);
  }
  R.RowPitch = R.Width * R.Format.getTexelBytes();
  R.SlicePitch = R.RowPitch * R.Height;
  for (AddressMode &M : O.Sampler.Address)
    M = AddressMode(Img.Address);
  O.Sampler.Filter = Img.LinearFilter ? FilterMode::Linear : FilterMode::Point;
  O.Sampler.Read =
      Img.NormalizedRead ? ReadMode::NormalizedFloat : ReadMode::ElementType;
  O.Sampler.NormalizedCoords = Img.NormalizedCoords;
  return ImageObjectTable::get().create(O);
}

static Expected<BoundArgument> bindArgument(const ParamDesc &Param,
                                            StringRef Spec, uint64_t Index) {
  BoundArgument Arg;
  Arg.Param = Param;
  Expected<ArgSpec> Parsed = parseArgSpec(Spec);
  if (!Parsed)
    return createStringError("parameter '%s': --arg '%s': %s",
                             Param.Name.c_str(), Spec.str().c_str(),
                             toString(Parsed.takeError()).c_str());
  Arg.Spec = std::move(*Parsed);

  if (!Arg.Spec.isBuffer() && !Arg.Spec.isImage()) {
    Expected<std::vector<uint8_t>> Value = encodeScalar(Arg.Spec, Param);
    if (!Value)
      return Value.takeError();
    Arg.Value = std::move(*Value);
    return Arg;
  }

  if (Error E = checkBufferParam(Param))
    return std::move(E);
  // An output that cannot be written fails before the kernel runs.
  if (Arg.Spec.Buf.Output.Kind == BufferOutput::File)
    if (Error E = checkOutputPath(Arg.Spec.Buf.Output.Path))
      return createStringError("parameter '%s': --arg '%s': %s",
                               Param.Name.c_str(), Spec.str().c_str(),
                               toString(std::move(E)).c_str());
  Expected<HostBuffer> Buf = HostBuffer::create(Arg.Spec.Buf, Index);
  if (!Buf)
    return createStringError("parameter '%s': --arg '%s': %s",
                             Param.Name.c_str(), Spec.str().c_str(),
                             toString(Buf.takeError()).c_str());
  // Fault reports name the buffer as the command line gave it.
  runtime::setDeviceAllocationName(
      Buf->data(), formatv("buffer {0} (`{1}[{2}]`, `--arg {0}`, parameter "
                           "'{3}')",
                           Index, getElementTypeName(Arg.Spec.Buf.Type),
                           Arg.Spec.Buf.Count, Param.Name)
                       .str());
  Arg.Value = encodePointer(reinterpret_cast<uintptr_t>(Buf->data()));
  Arg.Buffer = std::move(*Buf);
  if (!Arg.Spec.isImage())
    return Arg;
  // A texture or surface over the buffer's texels; the handle is passed.
  Expected<uint64_t> Handle = createImage(Arg.Spec, *Arg.Buffer);
  if (!Handle)
    return createStringError("parameter '%s': --arg '%s': %s",
                             Param.Name.c_str(), Spec.str().c_str(),
                             toString(Handle.takeError()).c_str());
  Arg.Value = encodePointer(uintptr_t(*Handle));
  return Arg;
}

Expected<std::string> KernelArguments::getBindingName(StringRef Spec) {
  Expected<ArgSpec> Parsed = parseArgSpec(Spec);
  if (!Parsed)
    return createStringError("--bind '%s': %s", Spec.str().c_str(),
                             toString(Parsed.takeError()).c_str());
  if (!Parsed->isImage() || Parsed->Buf.Name.empty())
    return createStringError(
        "--bind '%s': expected a texture or surface SPEC named after the "
        "module's .texref or .surfref (NAME=tex2d:f32[W,H]...)",
        Spec.str().c_str());
  return Parsed->Buf.Name;
}

Expected<uint64_t> KernelArguments::bindReference(StringRef Spec,
                                                  bool IsSurface,
                                                  std::string &Name) {
  Expected<std::string> N = getBindingName(Spec);
  if (!N)
    return N.takeError();
  Name = *N;
  // The reference stands where a parameter would in messages.
  ParamDesc Param = ParamDesc::getInt(
      (IsSurface ? ".surfref " : ".texref ") + Name, 64, false);
  Expected<BoundArgument> Arg =
      bindArgument(Param, Spec, Arguments.size() + References.size());
  if (!Arg)
    return Arg.takeError();
  if (Arg->Spec.Img.IsSurface != IsSurface)
    return createStringError(
        "--bind '%s': '%s' is a %s, so it binds a %s (%s)", Spec.str().c_str(),
        Name.c_str(), IsSurface ? ".surfref" : ".texref",
        IsSurface ? "surface" : "texture",
        IsSurface ? "surf1d, surf2d or surf3d" : "tex1d, tex2d or tex3d");
  uint64_t Handle = 0;
  std::memcpy(&Handle, Arg->Value.data(), sizeof Handle);
  References.push_back(std::move(*Arg));
  return Handle;
}

Expected<KernelArguments> KernelArguments::create(ArrayRef<ParamDesc> Params,
                                                  ArrayRef<std::string> Specs) {
  if (Error E = checkCount(Params, Specs))
    return std::move(E);
  KernelArguments Result;
  Result.Arguments.reserve(Params.size());
  for (auto [I, Param] : enumerate(Params)) {
    Expected<BoundArgument> Arg = bindArgument(Param, Specs[I], I);
    if (!Arg)
      return Arg.takeError();
    Result.Arguments.push_back(std::move(*Arg));
  }
  return Result;
}

SmallVector<void *, 8> KernelArguments::getKernelParams() {
  SmallVector<void *, 8> Params;
  for (BoundArgument &Arg : Arguments)
    Params.push_back(Arg.Value.data());
  return Params;
}

Error KernelArguments::writeOutputs(raw_ostream &OS,
                                    uint64_t PrintLimit) const {
  Error Failures = Error::success();
  SmallVector<const BoundArgument *, 8> All;
  for (const BoundArgument &Arg : Arguments)
    All.push_back(&Arg);
  for (const BoundArgument &Arg : References)
    All.push_back(&Arg);
  for (const BoundArgument *A : All) {
    const BoundArgument &Arg = *A;
    if (!Arg.Buffer)
      continue;
    const BufferOutput &Out = Arg.Spec.Buf.Output;
    if (Out.Kind == BufferOutput::Print)
      printBuffer(OS,
                  Arg.Spec.Buf.Name.empty() ? Arg.Param.Name
                                            : StringRef(Arg.Spec.Buf.Name),
                  *Arg.Buffer, PrintLimit);
    else if (Out.Kind == BufferOutput::File)
      Failures =
          joinErrors(std::move(Failures), writeBuffer(Out.Path, *Arg.Buffer));
  }
  return Failures;
}
