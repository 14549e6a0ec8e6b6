// The second file of rdc.cu's program: a device function and a variable
// it uses from the first file, and names that clash with the first file's
// internal ones.
extern __device__ int bias;
static __device__ int helper(int x) { return 3 * x; }
__device__ int counter = 0;
__device__ int scale(int x) {
  atomicAdd(&counter, 1);
  return helper(x) + bias;
}
