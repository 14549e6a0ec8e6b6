//===- DeviceHeaders.cpp - ptx-jit's embedded CUDA device headers ---------===//

#include "DeviceHeaders.h"

using namespace llvm;
using namespace ptxjit::cudasource;

static const EmbeddedFile Headers[] = {
#include "DeviceHeaders.inc"
};

ArrayRef<EmbeddedFile> ptxjit::cudasource::getDeviceHeaders() {
  return Headers;
}
