//===- ExecProgram.cpp - The `ptx-jit exec` command -----------------------===//

#include "ptxjit/Driver/ExecProgram.h"
#include "ptxjit/Runtime/Checking.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace ptxjit;

Expected<std::string> driver::findCUDALibraryDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCUDALibraryDir));
  SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Dir, "lib");
  SmallString<256> Library(Dir);
  sys::path::append(Library, "libcudart.so.13");
  if (!sys::fs::exists(Library))
    return createStringError(inconvertibleErrorCode(),
                             "ptx-jit's CUDA runtime library is not at %s; "
                             "build the 'cudart' target",
                             Library.c_str());
  return std::string(Dir);
}

/// Sets Name to Value, followed by its old value after Separator if it had
/// one.
static void prependToEnv(const char *Name, StringRef Value, char Separator) {
  std::string New = Value.str();
  if (const char *Old = std::getenv(Name); Old && *Old)
    New += Separator + std::string(Old);
  setenv(Name, New.c_str(), /*overwrite=*/1);
}

/// Runs the program as a child and waits for it: its exit status, or 1
/// when it exited 0 and the checking mode found errors, which the CUDA
/// libraries write to the descriptor PTXJIT_CHECK_ERRORS_FD names.
static Expected<int> runChecked(std::vector<char *> &Argv) {
  int Fds[2];
  if (pipe2(Fds, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "cannot create a pipe: %s", std::strerror(errno));
  // The program inherits a copy of the write end (not closed on exec).
  int Writer = dup(Fds[1]);
  close(Fds[1]);
  setenv("PTXJIT_CHECK_ERRORS_FD", std::to_string(Writer).c_str(), 1);
  pid_t Pid = fork();
  if (Pid == 0) {
    close(Fds[0]);
    execvp(Argv[0], Argv.data());
    dprintf(2, "ptx-jit: error: cannot run '%s': %s\n", Argv[0],
            std::strerror(errno));
    _exit(127);
  }
  int ForkErrno = errno;
  close(Writer);
  if (Pid < 0) {
    close(Fds[0]);
    return createStringError(
        std::error_code(ForkErrno, std::generic_category()),
        "cannot start '%s': %s", Argv[0], std::strerror(ForkErrno));
  }
  // As system() does: the terminal's interrupts are the program's to take.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGQUIT, SIG_IGN);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  // What the program wrote before it exited; a process it started and left
  // running may hold the pipe open, so this does not wait for its end.
  fcntl(Fds[0], F_SETFL, O_NONBLOCK);
  std::string Text;
  char Buf[256];
  for (ssize_t N; (N = read(Fds[0], Buf, sizeof Buf)) > 0;)
    Text.append(Buf, N);
  close(Fds[0]);
  // One line per process that used the CUDA libraries.
  uint64_t Errors = 0;
  SmallVector<StringRef, 4> Lines;
  StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines) {
    uint64_t N = 0;
    if (!L.trim().getAsInteger(10, N))
      Errors += N;
  }
  if (WIFSIGNALED(Status)) {
    int Sig = WTERMSIG(Status);
    std::signal(Sig, SIG_DFL);
    raise(Sig);
    return 128 + Sig;
  }
  int Code = WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
  return Code == 0 && Errors ? 1 : Code;
}

Expected<int> driver::execProgram(StringRef LibraryDir,
                                  ArrayRef<std::string> Args) {
  if (Args.empty())
    return createStringError(inconvertibleErrorCode(),
                             "exec needs a program to run");
  prependToEnv("LD_LIBRARY_PATH", LibraryDir, ':');
#ifdef PTXJIT_SANITIZER_RUNTIME
  // A sanitizer build (PTXJIT_SANITIZE): the CUDA libraries are instrumented
  // and the program is not, so the sanitizer runtime must be loaded before
  // anything else, and take the options ptx-jit's own binaries take.
  prependToEnv("LD_PRELOAD", PTXJIT_SANITIZER_RUNTIME, ':');
  prependToEnv("ASAN_OPTIONS", PTXJIT_ASAN_DEFAULT_OPTIONS, ':');
  prependToEnv("UBSAN_OPTIONS", PTXJIT_UBSAN_DEFAULT_OPTIONS, ':');
#endif
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  if (runtime::getCheckKindsFromEnvironment())
    return runChecked(Argv);
  execvp(Argv[0], Argv.data());
  return createStringError(std::error_code(errno, std::generic_category()),
                           "cannot run '%s': %s", Args[0].c_str(),
                           std::strerror(errno));
}
