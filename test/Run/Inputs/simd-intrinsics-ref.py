#!/usr/bin/env python3
"""Inputs and expected outputs for the kernels of test/Inputs/cuda/simd_video.cu.

    simd-intrinsics-ref.py DIR KERNEL

writes the kernel's input buffers to DIR (raw little-endian files) and
prints the lines `ptx-jit run` prints for its outputs. The expected values
follow the CUDA Math API's definitions of the intrinsics (per byte or
half-word, exact integers), and for the fp8 conversions and half
comparisons the PTX ISA model in ptxref.py; nothing comes from ptx-jit.
"""

import os
import random
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxref as R  # noqa: E402

N = 64


def words(seed):
    rng = random.Random(seed)
    edges = [0, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F, 0x8000FFFF, 0x7FFF0001,
             0x01FF7F80, 0xFE0180FF]
    return edges + [rng.getrandbits(32) for _ in range(N - len(edges))]


def byte(v, k, signed=False):
    x = (v >> (8 * k)) & 0xFF
    return R.to_signed(x, 8) if signed else x


def half(v, k, signed=False):
    x = (v >> (16 * k)) & 0xFFFF
    return R.to_signed(x, 16) if signed else x


def per_byte(fn):
    return sum((fn(k) & 0xFF) << (8 * k) for k in range(4))


def per_half(fn):
    return sum((fn(k) & 0xFFFF) << (16 * k) for k in range(2))


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def simd_bytes(x, y, i):
    """The 12 outputs of simdBytes for one thread."""
    both = y << 32 | x
    s = 0x7531 ^ (i & 0x3333)
    return [
        per_byte(lambda k: abs(byte(x, k) - byte(y, k))),             # __vabsdiffu4
        per_byte(lambda k: byte(x, k) + byte(y, k)),                  # __vadd4
        per_byte(lambda k: byte(x, k) - byte(y, k)),                  # __vsub4
        per_byte(lambda k: 0xFF if byte(x, k) > byte(y, k) else 0),   # __vcmpgtu4
        per_byte(lambda k: max(byte(x, k, True), byte(y, k, True))),  # __vmaxs4
        per_byte(lambda k: min(byte(x, k), byte(y, k))),              # __vminu4
        per_byte(lambda k: (byte(x, k) + byte(y, k) + 1) >> 1),       # __vavgu4
        sum(abs(byte(x, k) - byte(y, k)) for k in range(4)),          # __vsadu4
        per_byte(lambda k: clamp(byte(x, k, True) + byte(y, k, True),
                                 -128, 127)),                         # __vaddss4
        per_byte(lambda k: 1 if byte(x, k, True) <= byte(y, k, True)
                 else 0),                                             # __vsetles4
        per_byte(lambda k: min(abs(byte(x, k, True)), 127)),          # __vabsss4
        per_byte(lambda k: both >> (8 * ((s >> (4 * k)) & 7))),       # __byte_perm
    ]


def simd_halves(x, y):
    """The 10 outputs of simdHalves for one thread."""
    return [
        per_half(lambda k: half(x, k) + half(y, k)),                  # __vadd2
        per_half(lambda k: half(x, k) - half(y, k)),                  # __vsub2
        per_half(lambda k: abs(half(x, k, True) - half(y, k, True))),  # __vabsdiffs2
        sum(abs(half(x, k, True) - half(y, k, True)) for k in range(2)),  # __vsads2
        per_half(lambda k: (half(x, k) + half(y, k) + 1) >> 1),       # __vavgu2
        per_half(lambda k: (half(x, k) + half(y, k)) >> 1),           # __vhaddu2
        per_half(lambda k: 0xFFFF if half(x, k) == half(y, k) else 0),  # __vcmpeq2
        per_half(lambda k: 1 if half(x, k, True) > half(y, k, True) else 0),  # __vsetgts2
        per_half(lambda k: min(half(x, k, True), half(y, k, True))),  # __vmins2
        per_half(lambda k: max(half(x, k) - half(y, k), 0)),          # __vsubus2
    ]


def write(path, fmt, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def show(name, values):
    print("%s = [%s]" % (name, ", ".join(str(v) for v in values)))


def fp8_inputs():
    """float2 pairs (no NaN: its fp8 code is not specified) and half2
    pairs, across both formats' ranges and at their edges."""
    rng = random.Random(7)
    special = ["0", "-0", "448", "464", "465", "57344", "61440", "inf", "-inf",
               "0x1p-9", "0x1p-10", "0x1.8p-10", "0x1p-17", "-1e30", "1.0625",
               "-0x1.8p-16"]
    vals = [R.parse_exact(s, R.F32) for s in special]
    while len(vals) < 2 * N:
        mag = R.Fraction(rng.randrange(1, 1 << 12), 1 << 11) * \
            R.Fraction(2) ** rng.randrange(-20, 18)
        vals.append(R.round_value(mag * rng.choice((1, -1)), R.F32, "rn"))
    halves = []
    for i in range(N):
        lo = R.cvt_float(vals[2 * i + 1], R.F32, R.F16, "rn")
        hi = R.cvt_float(vals[2 * i], R.F32, R.F16, "rn")
        halves.append(hi << 16 | lo)
    return vals, halves


def fp8_pair(hi, lo, src, fmt):
    return R.cvt_to_narrow(hi, src, fmt) << 8 | R.cvt_to_narrow(lo, src, fmt)


def fp8_back(pair, fmt):
    return R.cvt_from_narrow(pair >> 8, fmt, R.F16) << 16 | \
        R.cvt_from_narrow(pair & 0xFF, fmt, R.F16)


def half_compare_inputs():
    rng = random.Random(11)
    hs = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x0001,
          0x8001, 0x7BFF, 0x3555, 0x4000]
    a = [rng.choice(hs) | rng.choice(hs) << 16 for _ in range(N)]
    b = [a[i] if i % 7 == 0 else rng.choice(hs) | rng.choice(hs) << 16
         for i in range(N)]
    return a, b


def main():
    out_dir, kernel = sys.argv[1], sys.argv[2]
    if kernel in ("simdBytes", "simdHalves"):
        a, b = words(1), words(2)
        b = [a[i] if i % 5 == 0 else b[i] for i in range(N)]
        write(os.path.join(out_dir, "a.bin"), "I", a)
        write(os.path.join(out_dir, "b.bin"), "I", b)
        res = []
        for i in range(N):
            res += simd_bytes(a[i], b[i], i) if kernel == "simdBytes" else \
                simd_halves(a[i], b[i])
        show(kernel + "_param_2", [v & 0xFFFFFFFF for v in res])
    elif kernel == "fp8Convert":
        f, h = fp8_inputs()
        write(os.path.join(out_dir, "f.bin"), "I", f)
        write(os.path.join(out_dir, "h.bin"), "I", h)
        e4 = [fp8_pair(f[2 * i + 1], f[2 * i], R.F32, R.E4M3) for i in range(N)]
        e5 = [fp8_pair(f[2 * i + 1], f[2 * i], R.F32, R.E5M2) for i in range(N)]
        e4h = [fp8_pair(v >> 16, v & 0xFFFF, R.F16, R.E4M3) for v in h]
        show("fp8Convert_param_2", e4)
        show("fp8Convert_param_3", e5)
        show("fp8Convert_param_4", e4h)
        show("fp8Convert_param_5", [fp8_back(p, R.E4M3) for p in e4])
        show("fp8Convert_param_6", [fp8_back(p, R.E5M2) for p in e5])
    elif kernel == "halfCompare":
        a, b = half_compare_inputs()
        write(os.path.join(out_dir, "a.bin"), "I", a)
        write(os.path.join(out_dir, "b.bin"), "I", b)
        one = 0x3C00

        def cmp(x, y, op):
            return R.compare(x, y, R.F16, op)
        gt, mask, flags = [], [], []
        for x, y in zip(a, b):
            xs, ys = (x & 0xFFFF, x >> 16), (y & 0xFFFF, y >> 16)
            gt.append(sum((one if cmp(xs[k], ys[k], "gt") else 0) << (16 * k)
                          for k in range(2)))
            mask.append(sum((0xFFFF if cmp(xs[k], ys[k], "lt") else 0) << (16 * k)
                            for k in range(2)))
            flags.append(int(cmp(xs[0], ys[0], "lt")) |
                         int(cmp(xs[1], ys[1], "geu")) << 1 |
                         int(cmp(xs[0], ys[0], "eq") and cmp(xs[1], ys[1], "eq")) << 2 |
                         int(cmp(xs[0], ys[0], "neu") and cmp(xs[1], ys[1], "neu")) << 3 |
                         int(R.is_nan(xs[0], R.F16)) << 4 |
                         int(cmp(xs[1], ys[1], "ne")) << 5)
        show("halfCompare_param_2", gt)
        show("halfCompare_param_3", mask)
        show("halfCompare_param_4", flags)
    else:
        sys.exit("unknown kernel " + kernel)


if __name__ == "__main__":
    main()
