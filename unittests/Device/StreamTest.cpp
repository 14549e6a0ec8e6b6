//===- StreamTest.cpp - In-order queues of device work --------------------===//

#include "ptxjit/Device/Context.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace llvm;
using namespace ptxjit::device;

namespace {

std::unique_ptr<Context> makeContext() {
  Expected<std::unique_ptr<Context>> C = Context::create();
  if (!C) {
    ADD_FAILURE() << toString(C.takeError());
    return nullptr;
  }
  return std::move(*C);
}

TEST(StreamTest, WorkRunsInOrderWithTickets) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<Stream &> S = C->createStream(StreamKind::NonBlocking);
  ASSERT_TRUE(!!S);
  std::vector<int> Order;
  std::atomic<bool> Release{false};
  uint64_t First = C->enqueue(&*S, [&] {
    while (!Release)
      std::this_thread::yield();
    Order.push_back(1);
    return Error::success();
  });
  uint64_t Second = C->enqueue(&*S, [&] {
    Order.push_back(2);
    return Error::success();
  });
  EXPECT_EQ(First, 1u);
  EXPECT_EQ(Second, 2u);
  // The first task holds the stream: nothing has completed.
  EXPECT_FALSE(S->isComplete(First));
  EXPECT_FALSE(S->isIdle());
  Release = true;
  S->waitFor(Second);
  EXPECT_TRUE(S->isIdle());
  EXPECT_EQ(Order, (std::vector<int>{1, 2}));
}

TEST(StreamTest, SynchronizeReturnsFailuresOnce) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<Stream &> S = C->createStream();
  ASSERT_TRUE(!!S);
  bool RanAfter = false;
  C->enqueue(&*S,
             [] { return makeDeviceError(ErrorCode::InvalidValue, "first"); });
  C->enqueue(&*S, [&] {
    RanAfter = true;
    return Error::success();
  });
  auto [Code, Message] = takeError(S->synchronize());
  EXPECT_EQ(Code, ErrorCode::InvalidValue);
  EXPECT_EQ(Message, "first");
  // Not sticky: later work runs, and the failure was reported once.
  EXPECT_TRUE(RanAfter);
  EXPECT_FALSE(S->synchronize());
  EXPECT_FALSE(C->hasStickyError());
}

TEST(StreamTest, StreamWaitsForAnotherStreamsTicket) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<Stream &> A = C->createStream(StreamKind::NonBlocking);
  Expected<Stream &> B = C->createStream(StreamKind::NonBlocking);
  ASSERT_TRUE(A && B);
  std::atomic<int> Value{0};
  uint64_t Ticket = C->enqueue(&*A, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Value = 1;
    return Error::success();
  });
  C->enqueueWait(&*B, *A, Ticket);
  int Seen = -1;
  C->enqueue(&*B, [&] {
    Seen = Value;
    return Error::success();
  });
  EXPECT_FALSE(B->synchronize());
  EXPECT_EQ(Seen, 1);
}

TEST(StreamTest, DestroyingAStreamFinishesItsWork) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<Stream &> S = C->createStream();
  ASSERT_TRUE(!!S);
  std::atomic<int> Count{0};
  for (int I = 0; I != 100; ++I)
    C->enqueue(&*S, [&] {
      ++Count;
      return Error::success();
    });
  EXPECT_FALSE(C->destroyStream(*S));
  EXPECT_EQ(Count, 100);
}

} // namespace
