#!/usr/bin/env python3
"""Inputs and reference results for the kernels of test/Inputs/cuda/int_ops.cu
(corpus-int-ops.test), written from C++'s integer semantics and the CUDA
Math API's definitions of the intrinsics (never from ptx-jit's output):

  __mul24/__umul24  low 32 bits of the product of the low 24 bits (signed:
                    the 24-bit field is a signed value)
  __mulhi/__umulhi/__mul64hi/__umul64hi  the high half of the full product
  __sad(x, y, z)    |x - y| + z, __usad likewise on unsigned operands
  __hadd(x, y)      (x + y) >> 1 without overflow; __rhadd (x + y + 1) >> 1
  __funnelshift_l(lo, hi, s)   high word of (hi:lo) << (s & 31)
  __funnelshift_rc(lo, hi, s)  low word of (hi:lo) >> min(s, 32)
  __clz/__clzll     leading zeros (32/64 for 0); __ffs/__ffsll 1 + index of
                    the lowest set bit (0 for 0); __brev/__brevll bit reverse
  __byte_perm(x, y, s)  byte n of the result is byte (s >> 4n) & 7 of y:x
  __fns(x, base, n)  position of the n-th set bit at or above base
                    (0xffffffff if none) -- PTX fns
  lop3.b32 immLut   bit i of the result is bit (a_i*4 + b_i*2 + c_i) of immLut

  corpusintops.py gen DIR            writes the inputs into DIR
  corpusintops.py check DIR VARIANT  checks DIR/VARIANT.KERNEL.OUT files
"""

import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpuscheck import (main, AnyOf, M32, M64, read, s32, s64,  # noqa: E402
                         write)

N = 256  # threads (one block of -b 256); every kernel indexes by tid.x

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LL_MIN, LL_MAX = -(1 << 63), (1 << 63) - 1

# The (start, len) pairs bitFields runs with: in the middle, the whole
# word, a field ending at bit 31, one running past it, an empty field.
BITFIELDS = [(5, 11), (0, 32), (20, 12), (24, 16), (13, 0)]


def edge32(rng):
    """Signed 32-bit values, edge cases first, then random ones of every
    magnitude."""
    v = [0, 1, -1, 2, -2, 3, 7, -7, 13, -13, 16, -16, 17, INT_MAX, INT_MIN,
         INT_MIN + 1, INT_MAX - 1, 0x55555555, s32(0xAAAAAAAA), 0x00FFFFFF,
         0x00800000, s32(0xFF800000), 0x01000000, 0x7FFF, -0x8000, 0xFFFF,
         0x10000, s32(0x80000001), 1 << 30, -(1 << 30)]
    while len(v) < N:
        bits = rng.choice([4, 8, 16, 24, 31, 32])
        v.append(s32(rng.getrandbits(bits) * rng.choice([1, -1])))
    return v


def edge64(rng):
    v = [0, 1, -1, 10, -10, 7, LL_MAX, LL_MIN, LL_MIN + 1, INT_MAX, INT_MIN,
         1 << 32, -(1 << 32), (1 << 32) - 1, s64(0xAAAAAAAAAAAAAAAA),
         0x5555555555555555, 9999999999, -9999999999]
    while len(v) < N:
        bits = rng.choice([4, 16, 32, 40, 63, 64])
        v.append(s64(rng.getrandbits(bits) * rng.choice([1, -1])))
    return v


def shift_amounts(rng):
    v = [0, 1, 7, 8, 16, 31, 32, 33, 47, 63, 64, 65, 95, 127, 128, 255,
         0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, 0x100, 0x21]
    while len(v) < N:
        v.append(rng.choice([rng.randrange(0, 70), rng.getrandbits(32)]))
    return v


def gen(d):
    rng = random.Random(20240601)
    # divRem: y != 0 and not (INT_MIN, -1).
    a = edge32(rng)
    b = edge32(rng)
    rng.shuffle(b)
    b = [y if y != 0 else 5 for y in b]
    b = [-3 if (x, y) == (INT_MIN, -1) else y for x, y in zip(a, b)]
    write(os.path.join(d, "div.a"), "s32", a)
    write(os.path.join(d, "div.b"), "s32", b)
    a = edge64(rng)
    b = edge64(rng)
    rng.shuffle(b)
    b = [y if y != 0 else 11 for y in b]
    b = [-3 if (x, y) == (LL_MIN, -1) else y for x, y in zip(a, b)]
    write(os.path.join(d, "div64.a"), "s64", a)
    write(os.path.join(d, "div64.b"), "s64", b)
    write(os.path.join(d, "words.a"), "s32", edge32(rng))
    w = edge32(rng)
    rng.shuffle(w)
    write(os.path.join(d, "words.b"), "s32", w)
    w = [x & M32 for x in edge32(rng)]
    rng.shuffle(w)
    write(os.path.join(d, "words.c"), "u32", w)
    write(os.path.join(d, "shift.n"), "u32", shift_amounts(rng))
    w = [x & M64 for x in edge64(rng)]
    rng.shuffle(w)
    write(os.path.join(d, "words64"), "u64", w)
    shorts = [0, 1, -1, 32767, -32768, 7, -7, 255, -256, 1000, -1000]
    while len(shorts) < N:
        shorts.append(rng.randrange(-32768, 32768))
    chars = [0, 255, 1, 128, 127, 200]
    while len(chars) < N:
        chars.append(rng.randrange(256))
    schars = [0, -1, -128, 127, 1, -2, -3, 3]
    while len(schars) < N:
        schars.append(rng.randrange(-128, 128))
    write(os.path.join(d, "small.s"), "s16", shorts)
    write(os.path.join(d, "small.c"), "u8", chars)
    write(os.path.join(d, "small.sc"), "s8", schars)


# --- The kernels, one function each: {output name: (type, values)} ----------


def cdiv(x, y):
    """C's / and % (truncation toward zero)."""
    q = abs(x) // abs(y)
    q = q if (x < 0) == (y < 0) else -q
    return q, x - q * y


def divRem(d):
    a, b = read(os.path.join(d, "div.a"), "s32"), read(os.path.join(d, "div.b"), "s32")
    q = [cdiv(x, y)[0] for x, y in zip(a, b)]
    r = [cdiv(x, y)[1] for x, y in zip(a, b)]
    uq = [(x & M32) // (y & M32) for x, y in zip(a, b)]
    ur = [(x & M32) % (y & M32) for x, y in zip(a, b)]
    return {"q": ("s32", q), "r": ("s32", r), "uq": ("u32", uq),
            "ur": ("u32", ur)}


def divRem64(d):
    a = read(os.path.join(d, "div64.a"), "s64")
    b = read(os.path.join(d, "div64.b"), "s64")
    q, uq = [], []
    for x, y in zip(a, b):
        q += list(cdiv(x, y))
        uq += [(x & M64) // (y & M64), (x & M64) % 10]
    return {"q": ("s64", q), "uq": ("u64", uq)}


def divByConst(d):
    out = []
    for x in read(os.path.join(d, "words.a"), "s32"):
        out += [cdiv(x, 7)[0], cdiv(x, 13)[1], s32((x & M32) // 3),
                cdiv(x, -16)[0]]
    return {"out": ("s32", out)}


def funnelshift_l(lo, hi, s):
    return (((hi << 32 | lo) << (s & 31)) >> 32) & M32


def funnelshift_rc(lo, hi, s):
    return ((hi << 32 | lo) >> min(s, 32)) & M32


def shifts(d):
    v = [x & M32 for x in read(os.path.join(d, "words.a"), "s32")]
    s = read(os.path.join(d, "shift.n"), "u32")
    out, sout, wout = [], [], []
    for x, n in zip(v, s):
        out += [(x << (n & 31)) & M32, x >> (n & 31), funnelshift_l(x, n, n),
                funnelshift_rc(x, x, n)]
        sout.append(s32(x) >> (n & 31))
        w = (x << 32) | n
        wout += [(w << (n & 63)) & M64, (s64(w) >> (n & 63)) & M64]
    return {"out": ("u32", out), "sout": ("s32", sout), "wout": ("u64", wout)}


def clz(x, bits):
    return bits - x.bit_length()


def ffs(x):
    return (x & -x).bit_length()


def brev(x, bits):
    return int(format(x, "0%db" % bits)[::-1], 2)


def byte_perm(x, y, s):
    data = (y << 32) | x
    r = 0
    for n in range(4):
        sel = (s >> (4 * n)) & 7
        r |= ((data >> (8 * sel)) & 0xFF) << (8 * n)
    return r


def fns(mask, base, offset):
    """The PTX ISA's pseudocode of fns.b32."""
    if offset == 0:
        return base if mask >> base & 1 else M32
    pos, count, inc = base, abs(offset) - 1, 1 if offset > 0 else -1
    while 0 <= pos < 32:
        if mask >> pos & 1:
            if count == 0:
                return pos
            count -= 1
        pos += inc
    return M32


def bitIntrinsics(d):
    v = [x & M32 for x in read(os.path.join(d, "words.a"), "s32")]
    w = read(os.path.join(d, "words64"), "u64")
    out = []
    for i, (x, y) in enumerate(zip(v, w)):
        out += [bin(x).count("1"), bin(y).count("1"), clz(x, 32), clz(y, 64),
                ffs(x), ffs(y), brev(x, 32), (brev(y, 64) >> 7) & M32,
                byte_perm(x, y & M32, 0x3210 + (i & 7)),
                byte_perm(x, y & M32, 0x0123), fns(x, 0, 2), x & -x & M32]
    return {"out": ("s32", [s32(o) for o in out])}


def sext24(x):
    x &= 0xFFFFFF
    return x - (1 << 24) if x >> 23 else x


def mulVariants(d):
    a = read(os.path.join(d, "words.a"), "s32")
    b = read(os.path.join(d, "words.b"), "s32")
    ua = read(os.path.join(d, "words.c"), "u32")
    ub = [x & M32 for x in read(os.path.join(d, "div.a"), "s32")]
    out, lout = [], []
    for x, y, ux, uy in zip(a, b, ua, ub):
        out += [s32(sext24(x) * sext24(y)),
                s32((ux & 0xFFFFFF) * (uy & 0xFFFFFF)),
                (x * y) >> 32, s32((ux * uy) >> 32),
                s32(abs(x - y) + ux), s32(abs(ux - uy) + 1)]
        lout += [x * y, s64(((x << 20) * y) >> 64),
                 s64(((ux << 32) * (uy | 1)) >> 64)]
    return {"out": ("s32", out), "lout": ("s64", lout)}


def smallInts(d):
    s = read(os.path.join(d, "small.s"), "s16")
    c = read(os.path.join(d, "small.c"), "u8")
    sc = read(os.path.join(d, "small.sc"), "s8")
    out = []
    for a, b, x in zip(s, c, sc):
        out += [a * b, (a & 0xFFFF) >> 3, x >> 2, abs(a), (a + x) >> 1,
                (a + b + 1) >> 1]
    return {"out": ("s32", out)}


def wrapAround(d):
    flags, sums = [], []
    for x in read(os.path.join(d, "words.a"), "s32"):
        ux = x & M32
        sums.append(s32(ux + 0x7FFFFFFF))
        f = ((1 if x < 0 else 0) | (2 if ux > 0x80000000 else 0) |
             (4 if ((x + 1) & M32) < ux else 0) | (8 if x == -x else 0))
        if x == INT_MIN:
            # -x overflows (undefined behaviour): a compiler may treat
            # x == -x as x == 0 (clang does) or wrap (nvcc does).
            f = AnyOf([f | 8, f & ~8])
        # x + 1 overflows for INT_MAX too, but every reading gives 0 there.
        flags.append(f)
    return {"flags": ("u32", flags), "sums": ("s32", sums)}


def bitFields(d, start, length):
    v = [x & M32 for x in read(os.path.join(d, "words.a"), "s32")]
    w = [x & M32 for x in read(os.path.join(d, "words.b"), "s32")]
    mask = M32 if length >= 32 else (1 << length) - 1
    out = []
    for x, y in zip(v, w):
        out += [(x >> start) & mask,
                (x & ~((mask << start) & M32) & M32) | (((y & mask) << start) & M32),
                (x & y) | (~x & M32 & (y ^ 0x5A5A5A5A)),
                ((x >> 8) & 0xFF) | ((y >> 16) & 0xF) << 8]
    return {"out": ("u32", out)}


def lop3(a, b, c, lut):
    r = 0
    for i in range(32):
        idx = (a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1)
        r |= (lut >> idx & 1) << i
    return r


def inlineLop3(d):
    a = [x & M32 for x in read(os.path.join(d, "words.a"), "s32")]
    b = [x & M32 for x in read(os.path.join(d, "words.b"), "s32")]
    c = read(os.path.join(d, "words.c"), "u32")
    out = []
    for x, y, z in zip(a, b, c):
        r, m = lop3(x, y, z, 0x6A), lop3(x, y, z, 0xE8)
        # The source's own reading of the two tables.
        assert r == (x & y) ^ z and m == (x & y) | (x & z) | (y & z)
        out += [r, m]
    return {"out": ("u32", out)}


def outputs(d):
    """{file suffix: (type, values)} of every output of every kernel."""
    want = {}
    for fn in (divRem, divRem64, divByConst, shifts, bitIntrinsics,
               mulVariants, smallInts, wrapAround, inlineLop3):
        for name, tv in fn(d).items():
            want["%s.%s" % (fn.__name__, name)] = tv
    for start, length in BITFIELDS:
        want["bitFields.%d_%d" % (start, length)] = \
            bitFields(d, start, length)["out"]
    return want


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], __doc__, gen,
                  lambda d, sm: ((name, ty, values) for name, (ty, values)
                                 in sorted(outputs(d).items()))))
