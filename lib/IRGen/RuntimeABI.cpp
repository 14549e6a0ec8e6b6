//===- RuntimeABI.cpp - The runtime ABI as LLVM types ---------------------===//
//
// C types become LLVM types by template: an entry point's LLVM declaration
// is derived from its C function type in RuntimeEntryPoints.def, so the two
// cannot drift apart.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/IRGen/RuntimeABI.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include <type_traits>

using namespace llvm;
using namespace ptxjit;

namespace {

/// The LLVM type of a C type of the ABI.
template <typename T> struct IRType {
  static Type *get(LLVMContext &Ctx) {
    if constexpr (std::is_void_v<T>)
      return Type::getVoidTy(Ctx);
    else if constexpr (std::is_pointer_v<T>)
      return PointerType::getUnqual(Ctx);
    else if constexpr (std::is_array_v<T>)
      return ArrayType::get(IRType<std::remove_extent_t<T>>::get(Ctx),
                            std::extent_v<T>);
    else if constexpr (std::is_same_v<T, float>)
      return Type::getFloatTy(Ctx);
    else if constexpr (std::is_same_v<T, double>)
      return Type::getDoubleTy(Ctx);
    else {
      static_assert(std::is_integral_v<T>, "no LLVM type for this C type");
      return Type::getIntNTy(Ctx, sizeof(T) * 8);
    }
  }
};

template <typename Fn> struct IRFunctionType;
template <typename R, typename... Args> struct IRFunctionType<R(Args...)> {
  static FunctionType *get(LLVMContext &Ctx) {
    return FunctionType::get(IRType<R>::get(Ctx), {IRType<Args>::get(Ctx)...},
                             /*isVarArg=*/false);
  }
};

struct EntryInfo {
  StringRef Name;
  RuntimeEffects Effects;
  FunctionType *(*GetType)(LLVMContext &);
};

const EntryInfo Entries[] = {
#define PTXJIT_RUNTIME_ENTRY(Id, Name, Effects, Type)                          \
  {#Name, RuntimeEffects::Effects, &IRFunctionType<abi::Name##_type>::get},
#include "ptxjit/ABI/RuntimeEntryPoints.def"
};

const EntryInfo &getInfo(RuntimeEntry E) {
  return Entries[static_cast<unsigned>(E)];
}

} // namespace

StructType *ptxjit::getWarpContextType(LLVMContext &Ctx) {
  constexpr StringLiteral Name = "ptxjit.WarpContext";
  if (StructType *T = StructType::getTypeByName(Ctx, Name))
    return T;
  Type *Fields[] = {
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type)                                  \
  IRType<abi::FieldType<Type>>::get(Ctx),
#include "ptxjit/ABI/WarpContextFields.def"
  };
  return StructType::create(Ctx, Fields, Name);
}

StringRef ptxjit::getRuntimeEntryName(RuntimeEntry E) {
  return getInfo(E).Name;
}

FunctionType *ptxjit::getRuntimeEntryType(LLVMContext &Ctx, RuntimeEntry E) {
  return getInfo(E).GetType(Ctx);
}

FunctionCallee ptxjit::declareRuntimeEntry(Module &M, RuntimeEntry E) {
  const EntryInfo &Info = getInfo(E);
  FunctionCallee C =
      M.getOrInsertFunction(Info.Name, Info.GetType(M.getContext()));
  if (auto *F = dyn_cast<Function>(C.getCallee());
      F && Info.Effects != RuntimeEffects::Any) {
    F->setDoesNotThrow();
    F->setWillReturn();
    F->setNoSync();
    F->setDoesNotFreeMemory();
    F->setMemoryEffects(Info.Effects == RuntimeEffects::ArgMemOnly
                            ? MemoryEffects::argMemOnly()
                            : MemoryEffects::inaccessibleOrArgMemOnly());
  }
  return C;
}
