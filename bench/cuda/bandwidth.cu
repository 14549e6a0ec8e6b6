// CUDA's bandwidthTest, side by side with the host's memcpy: host-to-device
// (pageable and pinned), device-to-host and device-to-device copies of a
// 64 MiB buffer timed with events, each checked byte for byte, then the
// same bytes copied with memcpy in the same run; the ratio is the figure.
//   nvcc -cudart shared -arch=sm_80 -O2 -o bandwidth bandwidth.cu
//   ptx-jit exec ./bandwidth [MiB]
// test/CUDA/bandwidth.test runs it and checks the data, never the times.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static double memcpyGBs(void *Dst, const void *Src, size_t Bytes, int Reps) {
  std::memcpy(Dst, Src, Bytes); // fault the pages in
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < Reps; ++I)
    std::memcpy(Dst, Src, Bytes);
  std::chrono::duration<double> S = std::chrono::steady_clock::now() - Start;
  return double(Bytes) * Reps / S.count() / 1e9;
}

static double cudaGBs(void *Dst, const void *Src, size_t Bytes, int Reps,
                      cudaMemcpyKind Kind) {
  cudaMemcpy(Dst, Src, Bytes, Kind);
  cudaEvent_t Start, Stop;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  cudaEventRecord(Start);
  for (int I = 0; I < Reps; ++I)
    cudaMemcpyAsync(Dst, Src, Bytes, Kind);
  cudaEventRecord(Stop);
  cudaEventSynchronize(Stop);
  float Ms = 0;
  cudaEventElapsedTime(&Ms, Start, Stop);
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  return double(Bytes) * Reps / (Ms / 1e3) / 1e9;
}

static bool same(const unsigned char *A, const unsigned char *B, size_t N) {
  return std::memcmp(A, B, N) == 0;
}

int main(int argc, char **argv) {
  size_t Bytes = size_t(argc > 1 ? atoi(argv[1]) : 64) << 20;
  const int Reps = 10;
  std::vector<unsigned char> Pageable(Bytes), Back(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    Pageable[I] = (unsigned char)(I * 2654435761u >> 13);
  unsigned char *Pinned, *PinnedBack, *Dev, *Dev2;
  cudaMallocHost(&Pinned, Bytes);
  cudaMallocHost(&PinnedBack, Bytes);
  cudaMalloc(&Dev, Bytes);
  cudaMalloc(&Dev2, Bytes);
  std::memcpy(Pinned, Pageable.data(), Bytes);

  double HostGBs = memcpyGBs(Back.data(), Pageable.data(), Bytes, Reps);
  struct Row {
    const char *Name;
    double GBs;
    bool Right;
  } Rows[4];
  Rows[0] = {"host to device, pageable",
             cudaGBs(Dev, Pageable.data(), Bytes, Reps, cudaMemcpyHostToDevice),
             false};
  cudaMemcpy(Back.data(), Dev, Bytes, cudaMemcpyDeviceToHost);
  Rows[0].Right = same(Back.data(), Pageable.data(), Bytes);
  cudaMemset(Dev, 0, Bytes);
  Rows[1] = {"host to device, pinned",
             cudaGBs(Dev, Pinned, Bytes, Reps, cudaMemcpyHostToDevice), false};
  cudaMemcpy(Back.data(), Dev, Bytes, cudaMemcpyDeviceToHost);
  Rows[1].Right = same(Back.data(), Pageable.data(), Bytes);
  Rows[2] = {"device to host, pinned",
             cudaGBs(PinnedBack, Dev, Bytes, Reps, cudaMemcpyDeviceToHost),
             same(PinnedBack, Pageable.data(), Bytes)};
  Rows[3] = {"device to device",
             cudaGBs(Dev2, Dev, Bytes, Reps, cudaMemcpyDeviceToDevice), false};
  cudaMemcpy(Back.data(), Dev2, Bytes, cudaMemcpyDeviceToHost);
  Rows[3].Right = same(Back.data(), Pageable.data(), Bytes);

  std::printf("%zu MiB, %d copies each; host memcpy %.2f GB/s\n", Bytes >> 20,
              Reps, HostGBs);
  for (const Row &R : Rows)
    std::printf("%-26s %s %7.2f GB/s, %.2fx memcpy\n", R.Name,
                R.Right ? "right" : "WRONG", R.GBs, R.GBs / HostGBs);
  cudaError_t E = cudaGetLastError();
  std::printf("errors: %s\n", cudaGetErrorName(E));
  cudaFreeHost(Pinned);
  cudaFreeHost(PinnedBack);
  cudaFree(Dev);
  cudaFree(Dev2);
  return E != cudaSuccess;
}
