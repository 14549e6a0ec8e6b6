//===- Stream.h - In-order queues of device work ----------------*- C++ -*-===//
//
// A stream runs the work given to it in order, on a host thread of its own,
// while the caller goes on; work on different streams runs concurrently.
// Each piece of work gets a ticket (its position in the stream), so that
// other streams and the host can wait for it: CUDA's events and the legacy
// default stream's implicit synchronization are built on tickets.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_STREAM_H
#define PTXJIT_DEVICE_STREAM_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace ptxjit {
namespace device {

class Context;

enum class StreamKind : uint8_t {
  /// Synchronizes with the legacy default stream (cudaStreamDefault).
  Blocking,
  /// Does not (cudaStreamNonBlocking).
  NonBlocking,
  /// The legacy default stream itself.
  LegacyDefault,
};

class Stream {
public:
  /// A task reports its failure; the stream keeps the first one for
  /// synchronize() and hands every one to the context.
  using Task = std::function<llvm::Error()>;

  Stream(Context &Ctx, StreamKind Kind, int Priority = 0);
  /// Finishes the queued work first.
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  StreamKind getKind() const { return Kind; }
  int getPriority() const { return Priority; }

  /// Queues T; returns its ticket. Tickets count from 1.
  uint64_t enqueue(Task T);
  /// The ticket of the last queued task (0 if none).
  uint64_t getLastTicket() const;
  /// True once the task with Ticket (and all before it) has run.
  bool isComplete(uint64_t Ticket) const;
  /// Blocks until the task with Ticket has run.
  void waitFor(uint64_t Ticket) const;
  /// True when no queued task is left to run (cudaStreamQuery).
  bool isIdle() const { return isComplete(getLastTicket()); }

  /// Waits for all queued work; returns the failures of work since the
  /// last synchronize(), and forgets them.
  llvm::Error synchronize();

private:
  void runQueue();

  Context &Ctx;
  StreamKind Kind;
  int Priority;
  mutable std::mutex Lock;
  mutable std::condition_variable Changed;
  std::deque<Task> Queue;
  uint64_t Enqueued = 0;
  uint64_t Completed = 0;
  bool Stopping = false;
  llvm::Error Failure = llvm::Error::success();
  std::thread Worker;
};

} // namespace device
} // namespace ptxjit

#endif
