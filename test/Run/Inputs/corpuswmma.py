#!/usr/bin/env python3
"""Inputs and reference results for the kernels of test/Inputs/cuda/wmma.cu
(corpus-wmma.test), written from CUDA's documented nvcuda::wmma semantics
(never from ptx-jit's output): load_matrix_sync reads an M x K, K x N or
M x N matrix whose element (r, c) is at p[r * ldm + c] (row-major) or
p[c * ldm + r] (column-major), in elements of the fragment's type (.u4/.s4
elements are nibbles and .b1 elements bits, the lowest first in each
32-bit word); mma_sync gives D = A * B + C; bmma_sync with XOR (AND) and
POPC gives D = C + sum over k of popc(a(m,k) op b(k,n)); fill_fragment sets
every element; __float_to_tf32 rounds to .tf32 to nearest, ties away from
zero (cvt.rna.tf32.f32); store_matrix_sync writes element (r, c) back the
same way. The fragments themselves are opaque, so no layout is assumed.

The accumulation order and width of a tensor-core product are not
documented, so the floating-point inputs are small integers (and halves,
quarters, and .tf32 values on a 2^-10 grid) for which every order gives
the exact sum: gen asserts that (corpuscheck.order_free) for every element
of every product. Integer products are exact, then wrap to 32 bits or, with
satf, clamp.

Where a store's addresses overlap (wmma_f16_f32 and wmma_f16_f16 store a
32 x 8 D column-major with ldm 8), the ISA does not say which element lands
last, so such a word may hold any of the elements stored there. Words no
store reaches must keep the sentinel the buffer starts with.

  corpuswmma.py gen DIR            writes the inputs into DIR
  corpuswmma.py check DIR VARIANT  checks DIR/VARIANT.KERNEL files
"""

import os
import random
import sys
from fractions import Fraction

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpuscheck import (main, AnyOf, BF16, F16, F32, F64, enc,  # noqa: E402
                         order_free, read, s32, val, write)

SENTINEL = {"u16": 0xBEEF, "u32": 0xDEADBEEF, "s32": s32(0xDEADBEEF),
            "u64": 0xDEADBEEFDEADBEEF}

# Output buffers: kernel -> (type, element count).
OUTPUTS = {"wmma_f16_f32": ("u32", 1512), "wmma_f16_f16": ("u16", 512),
           "wmma_tiled": ("u32", 32 * 48), "wmma_s8": ("s32", 256),
           "wmma_u8": ("s32", 256), "wmma_u4": ("s32", 64),
           "wmma_s4": ("s32", 64), "wmma_b1": ("s32", 128),
           "wmma_bf16": ("u32", 256), "wmma_tf32": ("u32", 256),
           "wmma_f64": ("u64", 64)}
SM80_ONLY = ("wmma_bf16", "wmma_tf32", "wmma_f64")
TILED = (32, 48, 64)  # M, N, K of wmma_tiled (2 x 3 tiles of 16 x 16)


def path(d, name):
    return os.path.join(d, name)


# --- Matrices in memory -------------------------------------------------------


def load(mem, rows, cols, row_major, ld, base=0):
    """The matrix {(r, c): element} stored at mem[base] (a list of element
    values)."""
    return {(r, c): mem[base + (r * ld + c if row_major else c * ld + r)]
            for r in range(rows) for c in range(cols)}


def nibbles(words, signed):
    out = []
    for w in words:
        for i in range(8):
            x = w >> (4 * i) & 0xF
            out.append(x - 16 if signed and x >= 8 else x)
    return out


def bits(words):
    return [w >> i & 1 for w in words for i in range(32)]


def product(A, B, C, m, n, k, fmt=None, combine=None):
    """{(i, j): C(i, j) + sum over l of A(i, l) * B(l, j)}: exact values.
    With fmt, asserts that every order of the sum gives the exact result
    in fmt (and that the result is representable there)."""
    D = {}
    for i in range(m):
        for j in range(n):
            terms = [combine(A[(i, l)], B[(l, j)]) if combine else
                     A[(i, l)] * B[(l, j)] for l in range(k)]
            total = C[(i, j)] + sum(terms)
            if fmt is not None:
                assert order_free(terms + [C[(i, j)]], fmt), (i, j)
                enc(total, fmt)
            D[(i, j)] = total
    return D


class Memory:
    """The expected contents of an output buffer: stores of one call land
    together, and a word that several of its elements reach may hold any
    of them."""

    def __init__(self, ty, count):
        self.words = [SENTINEL[ty]] * count

    def store(self, D, rows, cols, row_major, ld, base=0):
        landed = {}
        for (r, c), v in D.items():
            at = base + (r * ld + c if row_major else c * ld + r)
            landed.setdefault(at, set()).add(v)
        for at, vs in landed.items():
            self.words[at] = vs.pop() if len(vs) == 1 else AnyOf(vs)


# --- Inputs -------------------------------------------------------------------


def ints(rng, count, lo, hi):
    return [rng.randint(lo, hi) for _ in range(count)]


def tf32_round(x):
    """cvt.rna.tf32.f32 of the exact value x: 10 fraction bits, to nearest,
    ties away from zero (x is normal here)."""
    if x == 0:
        return x
    neg, a = x < 0, abs(x)
    e = 0
    while a >= 2:
        a /= 2
        e += 1
    while a < 1:
        a *= 2
        e -= 1
    q = a * 1024
    n = int(q)  # floor (q > 0)
    if q - n >= Fraction(1, 2):
        n += 1
    r = Fraction(n, 1024) * Fraction(2) ** e
    return -r if neg else r


def gen(d):
    rng = random.Random(1234)
    # .f16 A (32 x 16 row-major) and B (col-major, 32 columns of 16), and
    # C: wmma_f16_f32 and wmma_f16_f16 read parts of them.
    write(path(d, "h.a"), "u16", [enc(v, F16) for v in ints(rng, 512, -3, 3)])
    write(path(d, "h.b"), "u16", [enc(v, F16) for v in ints(rng, 512, -3, 3)])
    write(path(d, "h.c32"), "u32", [enc(v, F32) for v in ints(rng, 768, -40, 40)])
    write(path(d, "h.c16"), "u16", [enc(v, F16) for v in ints(rng, 512, -40, 40)])
    M, N, K = TILED
    write(path(d, "tiled.a"), "u16",
          [enc(v, F16) for v in ints(rng, M * K, -3, 3)])
    write(path(d, "tiled.b"), "u16",
          [enc(v, F16) for v in ints(rng, K * N, -3, 3)])
    # .s8 with C near both ends of the .s32 range, so that satf clamps some
    # sums (|A * B| <= 16 * 128 * 128 = 262144) and not others.
    write(path(d, "s8.a"), "s8", ints(rng, 256, -128, 127))
    write(path(d, "s8.b"), "s8", ints(rng, 256, -128, 127))
    c = []
    for i in range(256):
        kind = i % 4
        c.append([rng.randint(-1000, 1000),
                  (1 << 31) - 1 - rng.randint(0, 40000),
                  -(1 << 31) + rng.randint(0, 40000),
                  rng.randint(-(1 << 31), (1 << 31) - 1)][kind])
    write(path(d, "s8.c"), "s32", c)
    write(path(d, "u8.a"), "u8", ints(rng, 512, 0, 255))
    write(path(d, "u8.b"), "u8", ints(rng, 128, 0, 255))
    write(path(d, "u4.a"), "u32", [rng.getrandbits(32) for _ in range(32)])
    write(path(d, "u4.b"), "u32", [rng.getrandbits(32) for _ in range(32)])
    write(path(d, "s4.a"), "u32", [rng.getrandbits(32) for _ in range(64)])
    write(path(d, "s4.b"), "u32", [rng.getrandbits(32) for _ in range(32)])
    write(path(d, "b1.a"), "u32", [rng.getrandbits(32) for _ in range(32)])
    write(path(d, "b1.b"), "u32", [rng.getrandbits(32) for _ in range(32)])
    write(path(d, "bf16.a"), "u16", [enc(v, BF16) for v in ints(rng, 128, -8, 8)])
    write(path(d, "bf16.b"), "u16", [enc(v, BF16) for v in ints(rng, 512, -8, 8)])
    # .tf32: A holds values 1 + j/1024 (on .tf32's grid in [1, 2)) plus
    # a remainder below it: none, a quarter, a half (a tie: rna rounds it
    # away from zero, round-to-even would not for even j) or three quarters
    # of the .tf32 step; B holds small integers plus less than half a step.
    ulp = Fraction(1, 1024)
    a = []
    for _ in range(128):
        frac = rng.choice([0, Fraction(1, 4), Fraction(1, 2), Fraction(1, 2),
                           Fraction(3, 4)])
        x = (1 + rng.randrange(1024) * ulp + frac * ulp) * rng.choice([1, -1])
        a.append(enc(x, F32))
    b = []
    for _ in range(128):
        n = rng.randint(-8, 8)
        # 3/8 of the .tf32 step at n: rounds back to n.
        junk = 0 if n == 0 else rng.choice([0, Fraction(3, 8)]) * \
            Fraction(2) ** (abs(n).bit_length() - 1 - 10)
        b.append(enc(n + (junk if n > 0 else -junk), F32))
    write(path(d, "tf32.a"), "u32", a)
    write(path(d, "tf32.b"), "u32", b)
    write(path(d, "f64.a"), "u64",
          [enc(Fraction(v, 4), F64) for v in ints(rng, 32, -40, 40)])
    write(path(d, "f64.b"), "u64", [enc(v, F64) for v in ints(rng, 32, -9, 9)])
    write(path(d, "f64.c"), "u64",
          [enc(Fraction(v, 2), F64) for v in ints(rng, 64, -99, 99)])
    # The output buffers start as sentinels.
    for kernel, (ty, count) in OUTPUTS.items():
        write(path(d, kernel + ".init"), ty, [SENTINEL[ty]] * count)
    # Every product must be order-free: evaluate the models once.
    for kernel in OUTPUTS:
        MODELS[kernel](d, 90)


# --- The kernels ----------------------------------------------------------------


def f16s(d, name):
    return [val(b, F16) for b in read(path(d, name), "u16")]


def gemm_half(A, B, C, D, m, n, k, ldc, cbase, alpha, fmt, dmem, dbase):
    """gemmHalf<m, n, k>: A row-major (ld 16), B col-major (ld 16), C
    row-major at C + cbase (ld ldc) scaled by alpha, D stored col-major at
    D + dbase (ld ldc)."""
    a = load(A, m, k, True, 16)
    b = load(B, k, n, False, 16)
    c = {rc: v * alpha for rc, v in load(C, m, n, True, ldc, cbase).items()}
    for v in c.values():
        enc(v, fmt)  # c.x[i] * alpha is exact
    out = product(a, b, c, m, n, k, fmt)
    dmem.store({rc: enc(v, fmt) for rc, v in out.items()}, m, n, False, ldc,
               dbase)


def wmma_f16_f32(d, sm):
    A, B = f16s(d, "h.a"), f16s(d, "h.b")
    C = [val(b, F32) for b in read(path(d, "h.c32"), "u32")]
    D = Memory("u32", 1512)
    gemm_half(A, B, C, D, 16, 16, 16, 16, 0, 2, F32, D, 0)
    gemm_half(A, B, C, D, 32, 8, 16, 8, 256, 1, F32, D, 256)
    gemm_half(A, B, C, D, 8, 32, 16, 32, 512, Fraction(1, 2), F32, D, 512)
    return D.words


def wmma_f16_f16(d, sm):
    A, B, C = f16s(d, "h.a"), f16s(d, "h.b"), f16s(d, "h.c16")
    D = Memory("u16", 512)
    gemm_half(A, B, C, D, 16, 16, 16, 16, 0, 2, F16, D, 0)
    gemm_half(A, B, C, D, 32, 8, 16, 8, 256, 1, F16, D, 256)
    return D.words


def wmma_tiled(d, sm):
    M, N, K = TILED
    a = load(f16s(d, "tiled.a"), M, K, True, K)
    b = load(f16s(d, "tiled.b"), K, N, True, N)
    zero = {(i, j): 0 for i in range(M) for j in range(N)}
    D = Memory("u32", M * N)
    D.store({rc: enc(v, F32) for rc, v in
             product(a, b, zero, M, N, K, F32).items()}, M, N, True, N)
    return D.words


def clamp32(x):
    return max(-(1 << 31), min((1 << 31) - 1, x))


def wmma_s8(d, sm):
    a = load(read(path(d, "s8.a"), "s8"), 16, 16, True, 16)
    b = load(read(path(d, "s8.b"), "s8"), 16, 16, False, 16)
    c = load(read(path(d, "s8.c"), "s32"), 16, 16, True, 16)
    D = Memory("s32", 256)
    D.store({rc: clamp32(v) for rc, v in product(a, b, c, 16, 16, 16).items()},
            16, 16, True, 16)
    return D.words


def wmma_u8(d, sm):
    a = load(read(path(d, "u8.a"), "u8"), 32, 16, False, 32)
    b = load(read(path(d, "u8.b"), "u8"), 16, 8, True, 8)
    c = {(i, j): 7 for i in range(32) for j in range(8)}
    D = Memory("s32", 256)
    D.store({rc: s32(v) for rc, v in product(a, b, c, 32, 8, 16).items()},
            32, 8, True, 8)
    return D.words


def wmma_u4(d, sm):
    a = load(nibbles(read(path(d, "u4.a"), "u32"), False), 8, 32, True, 32)
    b = load(nibbles(read(path(d, "u4.b"), "u32"), False), 32, 8, False, 32)
    c = {(i, j): 0 for i in range(8) for j in range(8)}
    D = Memory("s32", 64)
    D.store({rc: s32(v) for rc, v in product(a, b, c, 8, 8, 32).items()},
            8, 8, True, 8)
    return D.words


def wmma_s4(d, sm):
    a = load(nibbles(read(path(d, "s4.a"), "u32"), True), 8, 32, True, 64)
    b = load(nibbles(read(path(d, "s4.b"), "u32"), True), 32, 8, False, 32)
    c = {(i, j): -3 for i in range(8) for j in range(8)}
    D = Memory("s32", 64)
    D.store({rc: clamp32(v) for rc, v in product(a, b, c, 8, 8, 32).items()},
            8, 8, False, 8)
    return D.words


def wmma_b1(d, sm):
    a = load(bits(read(path(d, "b1.a"), "u32")), 8, 128, True, 128)
    b = load(bits(read(path(d, "b1.b"), "u32")), 128, 8, False, 128)
    zero = {(i, j): 0 for i in range(8) for j in range(8)}
    D = Memory("s32", 128)
    xor = product(a, b, zero, 8, 8, 128, combine=lambda x, y: x ^ y)
    D.store(xor, 8, 8, True, 8)
    if sm >= 80:  # the AND form is sm_80's; C is the XOR result
        D.store(product(a, b, xor, 8, 8, 128, combine=lambda x, y: x & y),
                8, 8, True, 8, 64)
    return D.words


def wmma_bf16(d, sm):
    a = load([val(x, BF16) for x in read(path(d, "bf16.a"), "u16")],
             8, 16, True, 16)
    b = load([val(x, BF16) for x in read(path(d, "bf16.b"), "u16")],
             16, 32, True, 32)
    c = {(i, j): 1 for i in range(8) for j in range(32)}
    D = Memory("u32", 256)
    D.store({rc: enc(v, F32) for rc, v in
             product(a, b, c, 8, 32, 16, F32).items()}, 8, 32, True, 32)
    return D.words


def wmma_tf32(d, sm):
    a = load([tf32_round(val(x, F32)) for x in read(path(d, "tf32.a"), "u32")],
             16, 8, True, 8)
    b = load([tf32_round(val(x, F32)) for x in read(path(d, "tf32.b"), "u32")],
             8, 16, False, 8)
    c = {(i, j): 0 for i in range(16) for j in range(16)}
    D = Memory("u32", 256)
    D.store({rc: enc(v, F32) for rc, v in
             product(a, b, c, 16, 16, 8, F32).items()}, 16, 16, True, 16)
    return D.words


def wmma_f64(d, sm):
    f = [val(x, F64) for x in read(path(d, "f64.a"), "u64")]
    a = load(f, 8, 4, True, 4)
    b = load([val(x, F64) for x in read(path(d, "f64.b"), "u64")],
             4, 8, False, 4)
    c = load([val(x, F64) for x in read(path(d, "f64.c"), "u64")],
             8, 8, True, 8)
    D = Memory("u64", 64)
    D.store({rc: enc(v, F64) for rc, v in
             product(a, b, c, 8, 8, 4, F64).items()}, 8, 8, True, 8)
    return D.words


MODELS = {f.__name__: f for f in (
    wmma_f16_f32, wmma_f16_f16, wmma_tiled, wmma_s8, wmma_u8, wmma_u4,
    wmma_s4, wmma_b1, wmma_bf16, wmma_tf32, wmma_f64)}


def expected(d, sm):
    for kernel, (ty, count) in OUTPUTS.items():
        if sm < 80 and kernel in SM80_ONLY:
            continue  # not in the sm_75 build
        yield kernel, ty, MODELS[kernel](d, sm)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], __doc__, gen, expected))
