# Sourced by utils/bench-jit.sh and utils/bench-cache.sh: calls the caller's
# run function (name ptx kernel args...) once per benchmark kernel, with
# small sizes, as both measure compiling, not running.
K=bench/kernels
run vector_add $K/vector_add.ptx vector_add -g 64 -b 256 \
  --arg 'f32[16384]' --arg 'f32[16384]' --arg 'f32[16384]' --arg 16384
run saxpy $K/saxpy.ptx saxpy -g 64 -b 256 --arg 16384 --arg 2.0 \
  --arg 'f32[16384]' --arg 'f32[16384]'
run stencil5 $K/stencil5.ptx stencil5 -g 8,32 -b 32,8 --arg 256 --arg 256 \
  --arg 0.5 --arg 0.125 --arg 'f32[65536]=rand:1' --arg 'f32[65536]'
run sgemm_naive $K/sgemm_naive.ptx sgemm_naive -g 8,32 -b 32,8 --arg 256 \
  --arg 256 --arg 256 --arg 'f32[65536]=rand:1' --arg 'f32[65536]=rand:2' \
  --arg 'f32[65536]'
run sgemm_tiled16 $K/sgemm_tiled.ptx sgemm_tiled16 -g 16,16 -b 16,16 \
  --arg 256 --arg 256 --arg 256 --arg 'f32[65536]=rand:1' \
  --arg 'f32[65536]=rand:2' --arg 'f32[65536]'
run reduce_smem $K/reduce.ptx reduce_smem -g 64 -b 256 \
  --arg 'f32[16384]=rand:1' --arg 'f32[64]' --arg 16384
run reduce_shfl $K/reduce.ptx reduce_shfl -g 64 -b 256 \
  --arg 'f32[16384]=rand:1' --arg 'f32[64]' --arg 16384
run histogram_smem $K/histogram.ptx histogram_smem -g 64 -b 256 \
  --arg 'u8[16384]=rand:1' --arg 16384 --arg 'u32[256]'
