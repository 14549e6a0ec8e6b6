//===- BufferFile.cpp - Buffers from and to files -------------------------===//

#include "ptxjit/Driver/BufferFile.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "ptxjit/Driver/Npy.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace ptxjit::driver;

static bool hasNpyExtension(StringRef Path) {
  return Path.ends_with_insensitive(".npy");
}

static std::string describe(const HostBuffer &Buf) {
  return (getElementTypeName(Buf.getElementType()) + "[" +
          Twine(Buf.getCount()) + "]")
      .str();
}

static std::string formatShape(ArrayRef<uint64_t> Shape) {
  std::string Result = "(";
  for (uint64_t Dim : Shape)
    Result += std::to_string(Dim) + (Shape.size() == 1 ? "," : ", ");
  if (Shape.size() > 1)
    Result.resize(Result.size() - 2);
  return Result + ")";
}

static Error readNpy(ArrayRef<uint8_t> File, HostBuffer &Buf) {
  Expected<NpyHeader> Header = parseNpyHeader(File);
  if (!Header)
    return Header.takeError();
  Expected<bool> ByteSwap = checkNpyDescr(Header->Descr, Buf.getElementType());
  if (!ByteSwap)
    return ByteSwap.takeError();
  if (Header->FortranOrder && Header->Shape.size() > 1)
    return createStringError("the .npy file is in Fortran order; save it in "
                             "C order");
  if (Header->getElementCount() != Buf.getCount())
    return createStringError(
        "the .npy file has shape %s, %llu elements, but the buffer is %s",
        formatShape(Header->Shape).c_str(),
        static_cast<unsigned long long>(Header->getElementCount()),
        describe(Buf).c_str());
  ArrayRef<uint8_t> Data = File.drop_front(Header->DataOffset);
  if (Data.size() != Buf.getSizeInBytes())
    return createStringError("the .npy file has %zu data bytes, but its "
                             "header promises %zu",
                             Data.size(), Buf.getSizeInBytes());
  std::copy(Data.begin(), Data.end(), Buf.data());
  if (*ByteSwap) {
    unsigned Size = getElementSize(Buf.getElementType());
    for (uint8_t *P = Buf.data(), *E = P + Buf.getSizeInBytes(); P != E;
         P += Size)
      std::reverse(P, P + Size);
  }
  return Error::success();
}

Error ptxjit::driver::readBufferFile(StringRef Path, HostBuffer &Buf) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!File)
    return createStringError(File.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             File.getError().message().c_str());
  ArrayRef<uint8_t> Bytes = arrayRefFromStringRef((*File)->getBuffer());
  if (hasNpyExtension(Path) || hasNpyMagic(Bytes)) {
    if (Error E = readNpy(Bytes, Buf))
      return createStringError("'%s': %s", Path.str().c_str(),
                               toString(std::move(E)).c_str());
    return Error::success();
  }
  if (Bytes.size() != Buf.getSizeInBytes())
    return createStringError("'%s' has %zu bytes, but %s needs exactly %zu "
                             "bytes of raw data",
                             Path.str().c_str(), Bytes.size(),
                             describe(Buf).c_str(), Buf.getSizeInBytes());
  std::copy(Bytes.begin(), Bytes.end(), Buf.data());
  return Error::success();
}

Error ptxjit::driver::writeBuffer(StringRef Path, const HostBuffer &Buf) {
  Error E = writeToOutput(Path, [&](raw_ostream &OS) {
    if (hasNpyExtension(Path))
      writeNpyHeader(OS, Buf.getElementType(), Buf.getCount());
    OS << toStringRef(Buf.bytes());
    return Error::success();
  });
  if (E)
    return createStringError("cannot write '%s': %s", Path.str().c_str(),
                             toString(std::move(E)).c_str());
  return Error::success();
}
