//===- BufferFile.cpp - Buffers from and to files -------------------------===//

#include "ptxjit/Driver/BufferFile.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "ptxjit/Driver/Npy.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

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

namespace {
/// Where `>PATH` writes.
struct OutputTarget {
  std::string Path; ///< a symbolic link's target, else PATH
  bool Exists = false;
  bool Regular = false;
};
} // namespace

static OutputTarget resolveOutput(StringRef Path) {
  OutputTarget T;
  T.Path = Path.str();
  // Follow links, a dangling one to where it points.
  for (unsigned Hops = 0; Hops != 40; ++Hops) {
    struct stat St;
    if (lstat(T.Path.c_str(), &St) != 0 || !S_ISLNK(St.st_mode))
      break;
    char Target[4096];
    ssize_t N = readlink(T.Path.c_str(), Target, sizeof Target - 1);
    if (N <= 0)
      break;
    StringRef To(Target, size_t(N));
    if (sys::path::is_absolute(To)) {
      T.Path = To.str();
    } else {
      SmallString<256> Joined(sys::path::parent_path(T.Path));
      sys::path::append(Joined, To);
      T.Path = std::string(Joined);
    }
  }
  struct stat St;
  if (stat(T.Path.c_str(), &St) == 0) {
    T.Exists = true;
    T.Regular = S_ISREG(St.st_mode);
  }
  return T;
}

Error ptxjit::driver::checkOutputPath(StringRef Path) {
  if (Path == "-")
    return Error::success();
  OutputTarget T = resolveOutput(Path);
  auto Fail = [&](const Twine &Why) {
    return createStringError("cannot write '" + Path + "': " + Why);
  };
  if (T.Exists) {
    if (sys::fs::is_directory(T.Path))
      return Fail("it is a directory");
    if (access(T.Path.c_str(), W_OK) != 0)
      return Fail(std::strerror(errno));
    if (!T.Regular)
      return Error::success();
  }
  // A regular file is replaced by renaming one written beside it.
  StringRef Dir = sys::path::parent_path(T.Path);
  std::string D = Dir.empty() ? "." : Dir.str();
  if (access(D.c_str(), W_OK) != 0)
    return Fail("directory '" + D + "': " + std::strerror(errno));
  return Error::success();
}

Error ptxjit::driver::writeBuffer(StringRef Path, const HostBuffer &Buf) {
  auto Write = [&](raw_ostream &OS) {
    if (hasNpyExtension(Path))
      writeNpyHeader(OS, Buf.getElementType(), Buf.getCount());
    OS << toStringRef(Buf.bytes());
    return Error::success();
  };
  OutputTarget T =
      Path == "-" ? OutputTarget{"-", true, false} : resolveOutput(Path);
  Error E = Error::success();
  if (T.Exists && !T.Regular && T.Path != "-") {
    // A FIFO or a device is written, never replaced.
    std::error_code EC;
    raw_fd_ostream OS(T.Path, EC, sys::fs::OF_None);
    if (EC) {
      E = errorCodeToError(EC);
    } else {
      cantFail(Write(OS));
      OS.close();
      if (OS.has_error()) {
        E = errorCodeToError(OS.error());
        OS.clear_error();
      }
    }
  } else {
    E = writeToOutput(T.Path, Write);
  }
  if (E)
    return createStringError("cannot write '%s': %s", Path.str().c_str(),
                             toString(std::move(E)).c_str());
  return Error::success();
}
