// The native twin of bench/kernels/fmaloop.cu for utils/bench-process.sh:
// the same 64-step fused multiply-add chain per element, one element after
// another on one thread, and the same summary of the results that
// `ptx-jit run --arg 'f32[N]>-' --print-limit 6` prints (the first and last
// three elements, each in the shortest form that reads back to its bits).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void print(float V, const char *Sep) {
  char Buf[32];
  *std::to_chars(Buf, Buf + sizeof(Buf) - 1, V).ptr = '\0';
  std::printf("%s%s", Buf, Sep);
}

int main(int argc, char **argv) {
  unsigned N =
      argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 0)) : 1u << 24;
  if (N < 6)
    return 2;
  std::vector<float> Out(N);
  for (unsigned I = 0; I != N; ++I) {
    float V = float(I) * 0x1p-24f;
    for (int K = 0; K < 64; ++K)
      V = std::fma(V, 0.9990234375f, 0.25f);
    Out[I] = V;
  }
  for (unsigned I : {0u, 1u, 2u})
    print(Out[I], ", ");
  std::printf("..., ");
  print(Out[N - 3], ", ");
  print(Out[N - 2], ", ");
  print(Out[N - 1], "\n");
  return 0;
}
