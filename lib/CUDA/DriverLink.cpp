//===- DriverLink.cpp - cuLink*: linking device code at run time ----------===//
//
// The JIT linker of the driver API. Inputs are PTX (as text or inside fat
// binaries); each is parsed and verified when added, as the driver compiles
// PTX when it is added, and cuLinkComplete links them at the PTX level
// (PTX/Linker.h). The "cubin" it hands back is the linked PTX, which
// cuModuleLoadData loads. Error and info logs go to the buffers the
// CU_JIT_*_LOG_BUFFER options name.
//
//===----------------------------------------------------------------------===//

#include "DeviceImage.h"
#include "DriverAPI.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/Support/MemoryBuffer.h"
#include <chrono>
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

namespace {

// CUjit_option values (cuda.h).
enum : int {
  CU_JIT_WALL_TIME = 2,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

// CUjitInputType values.
enum : int {
  CU_JIT_INPUT_CUBIN = 0,
  CU_JIT_INPUT_PTX = 1,
  CU_JIT_INPUT_FATBINARY = 2,
  CU_JIT_INPUT_OBJECT = 3,
  CU_JIT_INPUT_LIBRARY = 4,
  CU_JIT_INPUT_NVVM = 5,
};

/// A log buffer the program gave, and the option slot that receives how
/// much of it was filled.
struct LogBuffer {
  char *Data = nullptr;
  unsigned Size = 0;
  void **FilledSlot = nullptr;
  std::string Text;

  void append(StringRef Message) {
    Text += Message;
    if (!Text.empty() && Text.back() != '\n')
      Text += '\n';
    if (!Data || !Size)
      return;
    size_t N = std::min<size_t>(Text.size(), Size - 1);
    std::memcpy(Data, Text.data(), N);
    Data[N] = 0;
    if (FilledSlot)
      *FilledSlot = reinterpret_cast<void *>(uintptr_t(N + 1));
  }
};

} // namespace

struct CUlinkState_st {
  LogBuffer ErrorLog, InfoLog;
  void **WallTimeSlot = nullptr;
  double Milliseconds = 0;
  std::vector<std::unique_ptr<ptx::Module>> Modules;
  std::vector<std::string> Names;
  std::string Linked; ///< cuLinkComplete's result, NUL-terminated
};
typedef CUlinkState_st *CUlinkState;

/// Reads the log options; values are in the pointers themselves, as the
/// driver API passes them.
static void readOptions(CUlinkState State, unsigned NumOptions,
                        const int *Options, void **Values) {
  if (!Options || !Values)
    return;
  for (unsigned I = 0; I != NumOptions; ++I) {
    int Option = Options[I];
    LogBuffer &Log = Option == CU_JIT_ERROR_LOG_BUFFER ||
                             Option == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
                         ? State->ErrorLog
                         : State->InfoLog;
    switch (Option) {
    case CU_JIT_ERROR_LOG_BUFFER:
    case CU_JIT_INFO_LOG_BUFFER:
      Log.Data = static_cast<char *>(Values[I]);
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
    case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
      Log.Size = unsigned(reinterpret_cast<uintptr_t>(Values[I]));
      Log.FilledSlot = &Values[I];
      break;
    case CU_JIT_WALL_TIME:
      State->WallTimeSlot = &Values[I];
      break;
    default:
      break; // optimisation levels, targets, caches: nothing to do
    }
  }
  if (State->ErrorLog.Data && State->ErrorLog.Size)
    State->ErrorLog.Data[0] = 0;
  if (State->InfoLog.Data && State->InfoLog.Size)
    State->InfoLog.Data[0] = 0;
}

/// The error's CUresult; its message goes to the error log.
static CUresult fail(CUlinkState State, Error E) {
  auto [Code, Message] = device::takeError(std::move(E));
  State->ErrorLog.append("error: " + Message);
  return toResult(Code);
}

PTXJIT_CUDA_API CUresult cuLinkCreate_v2(unsigned NumOptions, int *Options,
                                         void **OptionValues,
                                         CUlinkState *StateOut) {
  if (!StateOut || (NumOptions && (!Options || !OptionValues)))
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  auto State = std::make_unique<CUlinkState_st>();
  readOptions(State.get(), NumOptions, Options, OptionValues);
  *StateOut = State.release();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuLinkCreate(unsigned NumOptions, int *Options,
                                      void **OptionValues,
                                      CUlinkState *StateOut) {
  return cuLinkCreate_v2(NumOptions, Options, OptionValues, StateOut);
}

/// The PTX text of one input.
static Expected<std::string> getInputPTX(int Type, const void *Data,
                                         size_t Size) {
  switch (Type) {
  case CU_JIT_INPUT_PTX: {
    // The size may or may not count a terminating NUL.
    StringRef Text(static_cast<const char *>(Data), Size);
    return Text.take_until([](char C) { return C == 0; }).str();
  }
  case CU_JIT_INPUT_FATBINARY:
    return getImagePTX(Data);
  case CU_JIT_INPUT_CUBIN:
    return device::makeDeviceError(
        device::ErrorCode::NoKernelImageForDevice,
        "a cubin is machine code; ptx-jit links PTX (give the PTX, or a fat "
        "binary with PTX in it)");
  case CU_JIT_INPUT_OBJECT:
  case CU_JIT_INPUT_LIBRARY:
  case CU_JIT_INPUT_NVVM:
    return device::makeDeviceError(
        device::ErrorCode::NotSupported,
        "ptx-jit links PTX and fat binaries; host objects, libraries and "
        "NVVM IR are not supported");
  default:
    return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                   "unknown CUjitInputType " + Twine(Type));
  }
}

PTXJIT_CUDA_API CUresult cuLinkAddData_v2(CUlinkState State, int Type,
                                          void *Data, size_t Size,
                                          const char *Name, unsigned NumOptions,
                                          int *Options, void **OptionValues) {
  if (!State)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!Data || !Size)
    return CUDA_ERROR_INVALID_VALUE;
  auto Start = std::chrono::steady_clock::now();
  Expected<std::string> Text = getInputPTX(Type, Data, Size);
  if (!Text)
    return fail(State, Text.takeError());
  std::string InputName =
      Name && *Name ? Name : "input " + std::to_string(State->Names.size() + 1);
  Expected<std::unique_ptr<ptx::Module>> M =
      parseLinkInput({InputName, std::move(*Text)});
  if (!M)
    return fail(State, M.takeError());
  State->Modules.push_back(std::move(*M));
  State->Names.push_back(std::move(InputName));
  State->Milliseconds += std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - Start)
                             .count();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuLinkAddData(CUlinkState State, int Type, void *Data,
                                       size_t Size, const char *Name,
                                       unsigned NumOptions, int *Options,
                                       void **OptionValues) {
  return cuLinkAddData_v2(State, Type, Data, Size, Name, NumOptions, Options,
                          OptionValues);
}

PTXJIT_CUDA_API CUresult cuLinkAddFile_v2(CUlinkState State, int Type,
                                          const char *Path, unsigned NumOptions,
                                          int *Options, void **OptionValues) {
  if (!State)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!Path)
    return CUDA_ERROR_INVALID_VALUE;
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/true);
  if (!File) {
    State->ErrorLog.append("error: cannot read '" + std::string(Path) +
                           "': " + File.getError().message());
    return CUDA_ERROR_FILE_NOT_FOUND;
  }
  StringRef Bytes = (*File)->getBuffer();
  return cuLinkAddData_v2(State, Type, const_cast<char *>(Bytes.data()),
                          Bytes.size(), Path, NumOptions, Options,
                          OptionValues);
}

PTXJIT_CUDA_API CUresult cuLinkAddFile(CUlinkState State, int Type,
                                       const char *Path, unsigned NumOptions,
                                       int *Options, void **OptionValues) {
  return cuLinkAddFile_v2(State, Type, Path, NumOptions, Options, OptionValues);
}

PTXJIT_CUDA_API CUresult cuLinkComplete(CUlinkState State, void **CubinOut,
                                        size_t *SizeOut) {
  if (!State)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!CubinOut || !SizeOut)
    return CUDA_ERROR_INVALID_VALUE;
  auto Start = std::chrono::steady_clock::now();
  Expected<std::string> Linked = linkParsedPTX(State->Modules, State->Names);
  if (!Linked)
    return fail(State, Linked.takeError());
  State->Linked = std::move(*Linked);
  State->Milliseconds += std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - Start)
                             .count();
  if (State->WallTimeSlot) {
    float Ms = float(State->Milliseconds);
    std::memcpy(State->WallTimeSlot, &Ms, sizeof(Ms));
  }
  State->InfoLog.append("info: linked " +
                        std::to_string(State->Modules.size()) +
                        " PTX module(s) with ptx-jit");
  *CubinOut = State->Linked.data();
  *SizeOut = State->Linked.size() + 1; // with the NUL
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuLinkDestroy(CUlinkState State) {
  if (!State)
    return CUDA_ERROR_INVALID_HANDLE;
  delete State;
  return CUDA_SUCCESS;
}
