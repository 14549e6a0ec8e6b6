#!/usr/bin/env python3
"""Inputs and reference results for the kernels of
test/Inputs/cuda/mma_ldmatrix.cu (corpus-mma-ldmatrix.test): each kernel's
C++ is followed statement by statement, with ldmatrix, mma, movmatrix and
stmatrix computed by mmaref.py (the PTX ISA's fragment tables, written out
one by one) on a model of the kernel's shared memory; never from ptx-jit's
output.

The accumulation order and width of a tensor-core product are not
documented, so the floating-point operands are chosen so that every order
gives the exact sum (asserted for every element: corpuscheck.order_free).
mma_shapes feeds the same registers to products of many types, so its
words are built to be good operands of all of them at once:

  A[0..63], B[0..31] (a[0], a[1], b[0]): .f16x2 pairs, the high half +-1.0
      (A) or +-2.0 (B) and the low half a small nonzero integer: as .f16
      (m16n8k8) the sums are small integers; as .tf32 (the 13 low bits
      masked off) they are +-2^-7 or +-2^1 times (1 + j/1024), j = the low
      half's top 3 bits; as .f64's operands (a[0] & 0x3fffffff as a float,
      b[0] & 0xff) 2^-7 * (1 + lo/2^23) and 0, 64, 128 or 192 (b[0]'s low
      halves include integers with a 2^-3 or 2^-4 bit, like 9 and 19).
  A[64..127], B[32..63] (a[2], a[3], b[1]): +-2^-7 (A) and +-2^1 (B) times
      (1 + u/1024), u < 256, over 13 random low bits: .tf32 products of
      the same size as the others. B's signs lean + in columns 0-3 and -
      in 4-7 (for the .s4 view, below).
  C: c[0], c[1] are .f16x2 small integers, some with a -0.0 high half
      (as .s32 just above INT_MIN: the .s8 satfinite product clamps some);
      c[2], c[3] are integers near both ends of the .s32 range.
  Every integer view (.s8, .u8, .u4, .s4, .b1) takes the bits as they are.

  corpusmma.py gen DIR            writes the inputs into DIR
  corpusmma.py check DIR VARIANT  checks DIR/VARIANT.KERNEL files
"""

import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpuscheck import (main, BF16, F16, F32, F64, M32, R, enc,  # noqa: E402
                         order_free, read, val, write)
import mmaref  # noqa: E402

SENTINEL = {"u16": 0xBEEF, "u32": 0xDEADBEEF}
OUTPUTS = {"mma_f16_ldmatrix": ("u32", 128), "mma_bf16_trans": ("u32", 128),
           "mma_shapes": ("u32", 288), "stmatrix_x4": ("u16", 256)}
TF32_MASK = 0xFFFFE000


def path(d, name):
    return os.path.join(d, name)


# --- Exactness -------------------------------------------------------------------


def element_value(b, t):
    if t == "f16":
        return val(b, F16)
    if t == "bf16":
        return val(b, BF16)
    if t == "tf32":
        return val(b & TF32_MASK, F32)
    if t == "f32":
        return val(b, F32)
    return val(b, F64)


def assert_order_free(shape, atype, ctype, dtype, a, b, c):
    """Every element of D = A * B + C of this mma is the exact sum, in
    whatever order and width the hardware adds (with the ISA's fragment
    layouts, as mmaref reads the registers)."""
    m, n, k = mmaref.dims(shape)
    fa, fb, fc, _ = mmaref.layout_functions(shape, atype, "row", "col",
                                            ctype, dtype)
    na, nb, nc = mmaref.count_elements(shape, atype)
    A = mmaref.unpack(a, atype, na, fa)
    B = mmaref.unpack(b, atype, nb, fb)
    C = mmaref.unpack(c, ctype, nc, fc)
    fmt = {"f16": F16, "f32": F32, "f64": F64}[dtype]
    for i in range(m):
        for j in range(n):
            terms = [element_value(A[(0, i, l)], atype) *
                     element_value(B[(0, l, j)], atype) for l in range(k)]
            terms.append(element_value(C[(0, i, j)], ctype))
            assert order_free(terms, fmt), (shape, i, j)
            enc(sum(terms), fmt)


def mma(shape, atype, btype, ctype, dtype, a, b, c, **kw):
    if atype in ("f16", "bf16", "tf32", "f64"):
        assert_order_free(shape, atype, ctype, dtype, a, b, c)
    return mmaref.mma(shape, atype, btype, ctype, dtype, a, b, c, **kw)


# --- Inputs ------------------------------------------------------------------------


def halves_word(hi, lo):
    return hi << 16 | lo


def gen(d):
    rng = random.Random(4242)
    small = [v for v in range(-4, 5)]
    # mma_f16_ldmatrix: A 16 x 16 and Bt 8 x 16 (.f16); mma_bf16_trans:
    # A 16 x 16 and B 16 x 8 (.bf16).
    write(path(d, "ld.a"), "u16", [enc(rng.choice(small), F16) for _ in range(256)])
    write(path(d, "ld.bt"), "u16", [enc(rng.choice(small), F16) for _ in range(128)])
    write(path(d, "tr.a"), "u16", [enc(rng.choice(small), BF16) for _ in range(256)])
    write(path(d, "tr.b"), "u16", [enc(rng.choice(small), BF16) for _ in range(128)])

    # mma_shapes (see the docstring).
    def f16pair(hi, lo_choices):
        return halves_word(hi, enc(rng.choice(lo_choices), F16))

    def pos(lane):
        """b's signs: mostly + in columns 0-3 and - in 4-7, so that the
        .s4 view of B leans both ways and m16n8k64 reaches both limits."""
        return rng.random() < (0.85 if lane // 4 < 4 else 0.15)

    a_lo = [v for v in range(-8, 9) if v]
    b_lo = a_lo + [s * v for v in (9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 31)
                   for s in (1, -1)]

    def tf32ish(exponent, positive):
        sign = 0 if positive else 1 << 31
        return sign | exponent << 23 | rng.randrange(256) << 13 | \
            rng.getrandbits(13)

    A = [f16pair(rng.choice([0x3C00, 0xBC00]), a_lo) for _ in range(64)] + \
        [tf32ish(120, rng.random() < 0.5) for _ in range(64)]
    B = [f16pair(0x4000 if pos(l) else 0xC000, b_lo) for l in range(32)] + \
        [tf32ish(128, pos(l)) for l in range(32)]
    C = []
    for _ in range(64):  # c[0], c[1]
        hi = 0x8000 if rng.random() < 0.4 else enc(rng.randint(-64, 64), F16)
        C.append(halves_word(hi, enc(rng.randint(-64, 64), F16)))
    for _ in range(64):  # c[2], c[3]
        C.append(rng.choice([
            rng.randint(-5000, 5000),
            (1 << 31) - rng.randint(1, 3000000),
            (1 << 31) - rng.randint(1, 20000),
            (1 << 32) - (1 << 31) + rng.randint(0, 3000000),
            rng.getrandbits(32)]) & M32)
    # Aim some of c[2], c[3] (rows g + 8 of the m16n8k32 -> m16n8k64 chain)
    # so that the .satfinite m16n8k64 clamps after an m16n8k32 that does
    # not wrap: C = limit - (k32 sum) - (k64 sum) / 2.
    a = [[A[i * 32 + l] for i in range(4)] for l in range(32)]
    b = [[B[l], B[32 + l]] for l in range(32)]
    zero = [[0] * 4 for _ in range(32)]
    k32 = mmaref.mma("m16n8k32", "s8", "u8", "s32", "s32", a, b, zero)
    k64 = mmaref.mma("m16n8k64", "u4", "s4", "s32", "s32", a, b, zero)
    for l in range(32):
        for i in (2, 3):
            p = mmaref.to_int(k32[l][i], "s32")
            q = mmaref.to_int(k64[l][i], "s32")
            target = (1 << 31) - 1 if q > 0 else -(1 << 31)
            v = target - p - q // 2
            if rng.random() < 0.5 and abs(q) > 1 and -(1 << 31) <= v < 1 << 31:
                C[i * 32 + l] = v & M32
    write(path(d, "sh.a"), "u32", A)
    write(path(d, "sh.b"), "u32", B)
    write(path(d, "sh.c"), "u32", C)
    write(path(d, "st.r"), "u32", [rng.getrandbits(32) for _ in range(128)])
    for kernel, (ty, count) in OUTPUTS.items():
        write(path(d, kernel + ".init"), ty, [SENTINEL[ty]] * count)
    for kernel in OUTPUTS:  # the exactness assertions
        MODELS[kernel](d, 90)


# --- Shared memory ---------------------------------------------------------------


def shared(arrays):
    """{byte address: byte} for 16-bit arrays laid out one after another
    (each at a 16-byte aligned offset); returns (memory, base addresses)."""
    mem, bases, at = {}, [], 0
    for arr in arrays:
        bases.append(at)
        for i, h in enumerate(arr):
            mem[at + 2 * i] = h & 0xFF
            mem[at + 2 * i + 1] = h >> 8
        at += (2 * len(arr) + 15) // 16 * 16
    return mem, bases


# --- The kernels ---------------------------------------------------------------


def mma_f16_ldmatrix(d, sm):
    D = [SENTINEL["u32"]] * 128
    if sm < 80:
        return D  # the sm_75 build only stages A and B in shared memory
    A = read(path(d, "ld.a"), "u16")
    Bt = read(path(d, "ld.bt"), "u16")
    mem, (sa, sb) = shared([A, Bt])
    a = mmaref.ldmatrix(mem, [sa + 2 * ((l % 16) * 16 + (l // 16) * 8)
                              for l in range(32)], 4, False)
    b = mmaref.ldmatrix(mem, [sb + 2 * ((l % 8) * 16 + ((l // 8) % 2) * 8)
                              for l in range(32)], 2, False)
    dd = mma("m16n8k16", "f16", "f16", "f32", "f32", a, b,
             [[0] * 4 for _ in range(32)])
    for lane in range(32):
        g, t = lane // 4, lane % 4
        D[g * 8 + 2 * t], D[g * 8 + 2 * t + 1] = dd[lane][0], dd[lane][1]
        D[(g + 8) * 8 + 2 * t], D[(g + 8) * 8 + 2 * t + 1] = \
            dd[lane][2], dd[lane][3]
    # What the kernel computes, by its comment: D = A * Bt^T (16 x 8,
    # row-major). A check of the fragment bookkeeping above.
    for i in range(16):
        for j in range(8):
            want = sum(val(A[i * 16 + l], F16) * val(Bt[j * 16 + l], F16)
                       for l in range(16))
            assert val(D[i * 8 + j], F32) == want
    return D


def mma_bf16_trans(d, sm):
    D = [SENTINEL["u32"]] * 128
    if sm < 80:
        return D
    A = read(path(d, "tr.a"), "u16")
    B = read(path(d, "tr.b"), "u16")
    mem, (sa, sb) = shared([A, B])
    a = mmaref.ldmatrix(mem, [sa + 2 * ((l % 16) * 16 + (l // 16) * 8)
                              for l in range(32)], 4, False)
    b = mmaref.ldmatrix(mem, [sb + 2 * ((l % 16) * 8) for l in range(32)],
                        2, True)
    dd = mma("m16n8k16", "bf16", "bf16", "f32", "f32", a, b,
             [[0] * 4 for _ in range(32)])
    for lane in range(32):
        for i in range(4):
            D[lane * 4 + i] = dd[lane][i]
    # The kernel's intent: the D fragment of A * B (B 16 x 8 row-major).
    for lane in range(32):
        for i in range(4):
            r, c = mmaref.frag_c("m16n8k16", lane, i)
            want = sum(val(A[r * 16 + l], BF16) * val(B[l * 8 + c], BF16)
                       for l in range(16))
            assert val(D[lane * 4 + i], F32) == want
    return D


def mma_shapes(d, sm):
    Aw, Bw, Cw = (read(path(d, n), "u32") for n in ("sh.a", "sh.b", "sh.c"))
    a = [[Aw[i * 32 + l] for i in range(4)] for l in range(32)]
    b = [[Bw[l], Bw[32 + l]] for l in range(32)]
    c = [[Cw[i * 32 + l] for i in range(4)] for l in range(32)]
    D = [SENTINEL["u32"]] * 288
    lanes = range(32)

    def col(frags, *idx):
        return [[f[i] for i in idx] for f in frags]

    # m16n8k8 .f16 accumulators.
    dd = mma("m16n8k8", "f16", "f16", "f16", "f16", col(a, 0, 1), col(b, 0),
             col(c, 0, 1))
    for l in lanes:
        D[l], D[32 + l] = dd[l]
    dd = mmaref.mma("m8n8k16", "s8", "s8", "s32", "s32", col(a, 0), col(b, 0),
                    col(c, 0, 1), satfinite=True)
    for l in lanes:
        D[64 + l] = (dd[l][0] + dd[l][1]) & M32
    dd = mmaref.mma("m8n8k32", "u4", "u4", "s32", "s32", col(a, 1), col(b, 1),
                    col(c, 2, 3))
    for l in lanes:
        D[96 + l] = dd[l][0] ^ dd[l][1]
    dd = mmaref.mma("m8n8k128", "b1", "b1", "s32", "s32", col(a, 2), col(b, 0),
                    col(c, 0, 1), bitop="xor")
    for l in lanes:
        D[128 + l] = (dd[l][0] - dd[l][1]) & M32
    t = mmaref.movmatrix([a[l][3] for l in lanes])
    for l in lanes:
        D[160 + l] = t[l]
    if sm < 80:
        return D
    f = mma("m16n8k8", "tf32", "tf32", "f32", "f32",
            [[x & TF32_MASK for x in r] for r in a],
            [[x & TF32_MASK for x in r] for r in b],
            [[0] * 4 for _ in lanes])
    for l in lanes:
        s = R.f_add(R.f_add(R.f_add(f[l][0], f[l][1], F32), f[l][2], F32),
                    f[l][3], F32)  # (f0 + f1) + f2) + f3, to nearest
        D[192 + l] = s
    s = mmaref.mma("m16n8k32", "s8", "u8", "s32", "s32", a, b, c)
    s = mmaref.mma("m16n8k64", "u4", "s4", "s32", "s32", a, b, s,
                   satfinite=True)
    s = mmaref.mma("m16n8k256", "b1", "b1", "s32", "s32", a, b, s, bitop="and")
    for l in lanes:
        D[224 + l] = sum(s[l]) & M32
    # m8n8k4 .f64: x = (double)__int_as_float(a[0] & 0x3fffffff),
    # y = b[0] & 0xff, z = c & 0xfff; D = (uint32_t)(z0 + z1).
    x = [[R.cvt_float(a[l][0] & 0x3FFFFFFF, F32, F64)] for l in lanes]
    y = [[enc(b[l][0] & 0xFF, F64)] for l in lanes]
    z = [[enc(c[l][0] & 0xFFF, F64), enc(c[l][1] & 0xFFF, F64)] for l in lanes]
    zz = mma("m8n8k4", "f64", "f64", "f64", "f64", x, y, z)
    for l in lanes:
        total = val(zz[l][0], F64) + val(zz[l][1], F64)
        enc(total, F64)  # the add is exact
        D[256 + l] = int(total)  # cvt.rzi.u32.f64 of a value in range
        assert 0 <= total < 1 << 32
    return D


def stmatrix_x4(d, sm):
    R_ = read(path(d, "st.r"), "u32")
    regs = [[R_[i * 32 + l] for i in range(4)] for l in range(32)]
    mem = {}
    mmaref.stmatrix(mem, [16 * l for l in range(32)], regs, 4, True)
    assert len(mem) == 512  # S is written whole
    return [mem[2 * i] | mem[2 * i + 1] << 8 for i in range(256)]


MODELS = {f.__name__: f for f in (mma_f16_ldmatrix, mma_bf16_trans,
                                  mma_shapes, stmatrix_x4)}


def expected(d, sm):
    for kernel, (ty, count) in OUTPUTS.items():
        if kernel == "stmatrix_x4" and sm < 90:
            continue  # sm_90 only
        yield kernel, ty, MODELS[kernel](d, sm)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], __doc__, gen, expected))
