//===- Stream.cpp - In-order queues of device work ------------------------===//

#include "ptxjit/Device/Stream.h"
#include "ptxjit/Device/Context.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

Stream::Stream(Context &Ctx, StreamKind Kind, int Priority)
    : Ctx(Ctx), Kind(Kind), Priority(Priority) {}

Stream::~Stream() {
  {
    std::lock_guard<std::mutex> G(Lock);
    Stopping = true;
  }
  Changed.notify_all();
  if (Worker.joinable())
    Worker.join();
  consumeError(std::move(Failure));
}

uint64_t Stream::enqueue(Task T) {
  std::lock_guard<std::mutex> G(Lock);
  Queue.push_back(std::move(T));
  // The thread starts with the first work: most streams of a program never
  // get any.
  if (!Worker.joinable())
    Worker = std::thread([this] { runQueue(); });
  Changed.notify_all();
  return ++Enqueued;
}

uint64_t Stream::getLastTicket() const {
  std::lock_guard<std::mutex> G(Lock);
  return Enqueued;
}

bool Stream::isComplete(uint64_t Ticket) const {
  std::lock_guard<std::mutex> G(Lock);
  return Completed >= Ticket;
}

void Stream::waitFor(uint64_t Ticket) const {
  std::unique_lock<std::mutex> L(Lock);
  Changed.wait(L, [&] { return Completed >= Ticket; });
}

Error Stream::synchronize() {
  std::unique_lock<std::mutex> L(Lock);
  Changed.wait(L, [&] { return Completed >= Enqueued; });
  Error E = std::move(Failure);
  Failure = Error::success();
  return E;
}

void Stream::runQueue() {
  std::unique_lock<std::mutex> L(Lock);
  while (true) {
    // Queued work is finished even when the stream is going away.
    Changed.wait(L, [&] { return Stopping || !Queue.empty(); });
    if (Queue.empty())
      return;
    Task T = std::move(Queue.front());
    Queue.pop_front();
    L.unlock();
    Error E = T();
    if (E)
      E = Ctx.recordAsyncError(std::move(E));
    L.lock();
    if (E) {
      if (Failure)
        consumeError(std::move(E));
      else
        Failure = std::move(E);
    }
    ++Completed;
    Changed.notify_all();
  }
}
