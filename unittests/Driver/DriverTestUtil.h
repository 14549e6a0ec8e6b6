//===- DriverTestUtil.h - Helpers for the Driver unit tests -----*- C++ -*-===//

#ifndef PTXJIT_UNITTESTS_DRIVER_DRIVERTESTUTIL_H
#define PTXJIT_UNITTESTS_DRIVER_DRIVERTESTUTIL_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <string>

namespace ptxjit {
namespace driver {

/// The message of a failed Expected, or "" if it succeeded.
template <typename T> std::string errorOf(llvm::Expected<T> &&Value) {
  if (Value)
    return "";
  return llvm::toString(Value.takeError());
}

inline std::string errorOf(llvm::Error E) {
  return llvm::toString(std::move(E));
}

/// Unwraps an Expected that the test requires to succeed.
template <typename T> T unwrap(llvm::Expected<T> Value) {
  if (!Value) {
    ADD_FAILURE() << llvm::toString(Value.takeError());
    std::abort();
  }
  return std::move(*Value);
}

/// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
  llvm::SmallString<128> Path;

public:
  TempDir() {
    std::error_code EC =
        llvm::sys::fs::createUniqueDirectory("ptxjit-driver-test", Path);
    EXPECT_FALSE(EC) << EC.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<128> Result(Path);
    llvm::sys::path::append(Result, Name);
    return std::string(Result);
  }

  /// Writes \p Bytes to the file \p Name and returns its path.
  std::string write(llvm::StringRef Name, llvm::StringRef Bytes) const {
    std::string P = path(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Bytes;
    return P;
  }
};

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_UNITTESTS_DRIVER_DRIVERTESTUTIL_H
