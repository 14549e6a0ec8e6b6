"""Integer arithmetic, bit manipulation, logic and shift families."""

from testgen import Test, Op, Input, test, INT_MIN, INT_MAX
from ptxref import to_signed, to_unsigned, trunc_div


def s32(x):
    return to_signed(x, 32)


def u32(x):
    return to_unsigned(x, 32)


def s64(x):
    return to_signed(x, 64)


def u64(x):
    return to_unsigned(x, 64)


def sat32(x):
    return max(INT_MIN, min(INT_MAX, x))


S32_A = [0, 1, -1, INT_MIN, INT_MAX, INT_MAX, INT_MIN, 0x7FFF, 65536, -65536,
         123456789, -987654321, 46341, -46341, 3, 0x55555555]
S32_B = [0, -1, -1, -1, 1, INT_MAX, INT_MIN, 0x7FFF, 65536, 65537, 1000, 7,
         46341, 46341, -3, 3]
S32_C = [5, 0, INT_MAX, INT_MIN, -1, INT_MAX, INT_MIN, -7, 1, INT_MAX, -1000, 42,
         -2147395600, INT_MAX, INT_MIN, -1]


@test
def int_add_mul():
    a, b, c = (Input("a", "s32", S32_A), Input("b", "s32", S32_B),
               Input("c", "s32", S32_C))
    return Test("int-add-mul", """
add, sub, mul (.lo .hi .wide) and mad on 32-bit integers at the edges:
two's complement wrap-around, .sat clamping, high halves of signed and
unsigned products.
""", [a, b, c], [
        Op("add_s32", "s32", "add.s32 {d}, {a}, {b};", lambda a, b, c: s32(a + b)),
        Op("sub_s32", "s32", "sub.s32 {d}, {a}, {b};", lambda a, b, c: s32(a - b)),
        Op("add_sat_s32", "s32", "add.sat.s32 {d}, {a}, {b};",
           lambda a, b, c: sat32(a + b)),
        Op("sub_sat_s32", "s32", "sub.sat.s32 {d}, {a}, {b};",
           lambda a, b, c: sat32(a - b)),
        Op("mul_lo_s32", "s32", "mul.lo.s32 {d}, {a}, {b};",
           lambda a, b, c: s32(a * b)),
        Op("mul_hi_s32", "s32", "mul.hi.s32 {d}, {a}, {b};",
           lambda a, b, c: s32((a * b) >> 32)),
        Op("mul_hi_u32", "u32", "mul.hi.u32 {d}, {a}, {b};",
           lambda a, b, c: (u32(a) * u32(b)) >> 32),
        Op("mul_wide_s32", "s64", "mul.wide.s32 {d}, {a}, {b};",
           lambda a, b, c: a * b),
        Op("mul_wide_u32", "u64", "mul.wide.u32 {d}, {a}, {b};",
           lambda a, b, c: u32(a) * u32(b)),
        Op("mad_lo_s32", "s32", "mad.lo.s32 {d}, {a}, {b}, {c};",
           lambda a, b, c: s32(a * b + c)),
        Op("mad_hi_u32", "u32", "mad.hi.u32 {d}, {a}, {b}, {c};",
           lambda a, b, c: u32(((u32(a) * u32(b)) >> 32) + u32(c))),
        Op("mad_hi_sat_s32", "s32", "mad.hi.sat.s32 {d}, {a}, {b}, {c};",
           lambda a, b, c: sat32(((a * b) >> 32) + c)),
        Op("mad_wide_s32", "s64", ["cvt.s64.s32 {t}, {c};",
                                   "mad.wide.s32 {d}, {a}, {b}, {t};"],
           lambda a, b, c: s64(a * b + c), tmp="s64"),
    ])


S64_A = [0, 1, -1, -(1 << 63), (1 << 63) - 1, 0x123456789ABCDEF0,
         -0x0FEDCBA987654321, 1 << 32, (1 << 32) - 1, 3]
S64_B = [-1, -1, -1, -1, 2, 0x0FEDCBA987654321, 0x7FFFFFFFFFFFFFFF, 1 << 32,
         (1 << 32) + 1, -5]


@test
def int_arith_64():
    a, b = Input("a", "s64", S64_A), Input("b", "s64", S64_B)
    return Test("int-arith-64", """
64-bit add, sub, mul.lo, mul.hi (signed and unsigned) and mad.lo: the high
halves of 128-bit products.
""", [a, b], [
        Op("add_s64", "s64", "add.s64 {d}, {a}, {b};", lambda a, b: s64(a + b)),
        Op("sub_u64", "u64", "sub.u64 {d}, {a}, {b};", lambda a, b: u64(a - b)),
        Op("mul_lo_s64", "s64", "mul.lo.s64 {d}, {a}, {b};",
           lambda a, b: s64(a * b)),
        Op("mul_hi_s64", "s64", "mul.hi.s64 {d}, {a}, {b};",
           lambda a, b: s64((a * b) >> 64)),
        Op("mul_hi_u64", "u64", "mul.hi.u64 {d}, {a}, {b};",
           lambda a, b: (u64(a) * u64(b)) >> 64),
        Op("mad_lo_u64", "u64", "mad.lo.u64 {d}, {a}, {b}, {a};",
           lambda a, b: u64(a * b + a)),
    ])


U16_A = [0, 1, 0xFFFF, 0x8000, 0x7FFF, 300, 0xFF00, 12345]
U16_B = [0, 0xFFFF, 0xFFFF, 0x8000, 2, 300, 0x0101, 54321]


@test
def int_arith_16():
    a, b = Input("a", "u16", U16_A), Input("b", "u16", U16_B)

    def s16(x):
        return to_signed(x, 16)
    return Test("int-arith-16", """
16-bit add, mul.lo, mul.hi and mul.wide: results wrap at 16 bits, .wide
products are exact in 32 bits.
""", [a, b], [
        Op("add_u16", "u16", "add.u16 {d}, {a}, {b};",
           lambda a, b: to_unsigned(a + b, 16)),
        Op("sub_s16", "s16", "sub.s16 {d}, {a}, {b};",
           lambda a, b: s16(s16(a) - s16(b))),
        Op("mul_lo_u16", "u16", "mul.lo.u16 {d}, {a}, {b};",
           lambda a, b: to_unsigned(a * b, 16)),
        Op("mul_hi_s16", "s16", "mul.hi.s16 {d}, {a}, {b};",
           lambda a, b: s16((s16(a) * s16(b)) >> 16)),
        Op("mul_wide_u16", "u32", "mul.wide.u16 {d}, {a}, {b};",
           lambda a, b: a * b),
        Op("mul_wide_s16", "s32", "mul.wide.s16 {d}, {a}, {b};",
           lambda a, b: s16(a) * s16(b)),
    ])


@test
def int_div_rem():
    a = Input("a", "s32", [7, -7, 7, -7, INT_MIN, INT_MIN, INT_MAX, 0, 5, -5,
                           INT_MIN, 1000000, -1, 123, 0, INT_MAX])
    b = Input("b", "s32", [2, 2, -2, -2, -1, 1, -1, 3, 0, 0, 0, 7, INT_MIN,
                           INT_MAX, 0, 2])

    def sdiv(a, b):
        if b == 0:
            return -1
        return s32(trunc_div(a, b))

    def srem(a, b):
        if b == 0:
            return -1
        if a == INT_MIN and b == -1:
            return 0
        return a - trunc_div(a, b) * b

    def udiv(a, b):
        return 0xFFFFFFFF if u32(b) == 0 else u32(a) // u32(b)

    def urem(a, b):
        return 0xFFFFFFFF if u32(b) == 0 else u32(a) % u32(b)
    return Test("int-div-rem", """
div and rem round toward zero; the remainder takes the dividend's sign.
INT_MIN / -1 wraps to INT_MIN (remainder 0). The ISA leaves division by zero
machine-specific; it must not trap, and ptx-jit gives what NVIDIA GPUs give
(an H200, sm_90): all ones for the quotient and for the remainder.
""", [a, b], [
        Op("div_s32", "s32", "div.s32 {d}, {a}, {b};", sdiv),
        Op("rem_s32", "s32", "rem.s32 {d}, {a}, {b};", srem),
        Op("div_u32", "u32", "div.u32 {d}, {a}, {b};", udiv),
        Op("rem_u32", "u32", "rem.u32 {d}, {a}, {b};", urem),
        Op("div_s64", "s64", ["cvt.s64.s32 {t}, {b};", "cvt.s64.s32 {d}, {a};",
                              "mul.lo.s64 {d}, {d}, 4294967296;",
                              "div.s64 {d}, {d}, {t};"],
           lambda a, b: -1 if b == 0 else trunc_div(a << 32, b), tmp="s64"),
        Op("rem_u64", "u64", ["cvt.u64.u32 {t}, {b};", "cvt.u64.u32 {d}, {a};",
                              "mul.lo.u64 {d}, {d}, 4294967311;",
                              "rem.u64 {d}, {d}, {t};"],
           lambda a, b: (lambda x, y: 2**64 - 1 if y == 0 else x % y)(
               u64(u32(a) * 4294967311), u32(b)), tmp="u64"),
        Op("div_s16", "s16", ["cvt.s16.s32 {t}, {a};", "cvt.s16.s32 {d}, {b};",
                              "div.s16 {d}, {t}, {d};"],
           lambda a, b: (lambda x, y: -1 if y == 0 else to_signed(trunc_div(x, y), 16))(
               to_signed(a, 16), to_signed(b, 16)), tmp="s16"),
    ])


@test
def int_abs_neg_min_max():
    a = Input("a", "s32", [0, 1, -1, INT_MIN, INT_MAX, -5, 100, -100, 7, INT_MIN,
                           0x40000000, -0x40000000])
    b = Input("b", "s32", [0, -1, 1, INT_MAX, INT_MIN, -6, 100, 99, -7, -1,
                           -0x40000000, 0x7FFFFFFF])
    c = Input("c", "s32", [3, 0, 0, 0, 0, -5, 101, -101, 0, 1, 1, INT_MIN])
    return Test("int-abs-neg-min-max", """
abs, neg, min and max on signed and unsigned integers, 2 and 3 inputs, and
.relu. abs and neg of INT_MIN are INT_MIN; unsigned min/max compare bits.
""", [a, b, c], [
        Op("abs_s32", "s32", "abs.s32 {d}, {a};",
           lambda a, b, c: s32(abs(a))),
        Op("neg_s32", "s32", "neg.s32 {d}, {a};", lambda a, b, c: s32(-a)),
        Op("abs_s16", "s16", ["cvt.s16.s32 {t}, {a};", "abs.s16 {d}, {t};"],
           lambda a, b, c: to_signed(abs(to_signed(a, 16)), 16), tmp="s16"),
        Op("neg_s64", "s64", ["cvt.s64.s32 {t}, {a};", "neg.s64 {d}, {t};"],
           lambda a, b, c: -a, tmp="s64"),
        Op("min_s32", "s32", "min.s32 {d}, {a}, {b};", lambda a, b, c: min(a, b)),
        Op("max_s32", "s32", "max.s32 {d}, {a}, {b};", lambda a, b, c: max(a, b)),
        Op("min_u32", "u32", "min.u32 {d}, {a}, {b};",
           lambda a, b, c: min(u32(a), u32(b))),
        Op("max_u32", "u32", "max.u32 {d}, {a}, {b};",
           lambda a, b, c: max(u32(a), u32(b))),
        Op("min3_s32", "s32", "min.s32 {d}, {a}, {b}, {c};",
           lambda a, b, c: min(a, b, c)),
        Op("max3_u32", "u32", "max.u32 {d}, {a}, {b}, {c};",
           lambda a, b, c: max(u32(a), u32(b), u32(c))),
        Op("max_relu_s32", "s32", "max.relu.s32 {d}, {a}, {b};",
           lambda a, b, c: max(a, b, 0)),
        Op("min_relu_s32", "s32", "min.relu.s32 {d}, {a}, {b};",
           lambda a, b, c: max(min(a, b), 0)),
    ])


@test
def int_mul24_sad():
    a = Input("a", "s32", [0, 1, -1, 0x7FFFFF, 0x800000, 0xFFFFFF, -0x800000,
                           0x12345678, INT_MIN, 1000, 5, -3])
    b = Input("b", "s32", [0, 1, -1, 0x7FFFFF, 0x800000, 0xFFFFFF, 2, 0x100,
                           3, -1000, 9, 4])
    c = Input("c", "s32", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, INT_MAX, -1])

    def lo24(x, signed):
        v = x & 0xFFFFFF
        return to_signed(v, 24) if signed else v
    return Test("int-mul24-sad", """
mul24 and mad24 multiply the low 24 bits (sign-extended for .s32); .lo is
bits 31..0 and .hi bits 47..16 of the 48-bit product. sad adds |a - b| to c.
""", [a, b, c], [
        Op("mul24_lo_s32", "s32", "mul24.lo.s32 {d}, {a}, {b};",
           lambda a, b, c: s32(lo24(a, 1) * lo24(b, 1))),
        Op("mul24_hi_s32", "s32", "mul24.hi.s32 {d}, {a}, {b};",
           lambda a, b, c: s32((lo24(a, 1) * lo24(b, 1)) >> 16)),
        Op("mul24_lo_u32", "u32", "mul24.lo.u32 {d}, {a}, {b};",
           lambda a, b, c: u32(lo24(a, 0) * lo24(b, 0))),
        Op("mul24_hi_u32", "u32", "mul24.hi.u32 {d}, {a}, {b};",
           lambda a, b, c: u32((lo24(a, 0) * lo24(b, 0)) >> 16)),
        Op("mad24_lo_s32", "s32", "mad24.lo.s32 {d}, {a}, {b}, {c};",
           lambda a, b, c: s32(lo24(a, 1) * lo24(b, 1) + c)),
        Op("mad24_hi_u32", "u32", "mad24.hi.u32 {d}, {a}, {b}, {c};",
           lambda a, b, c: u32(((lo24(a, 0) * lo24(b, 0)) >> 16) + u32(c))),
        Op("sad_s32", "s32", "sad.s32 {d}, {a}, {b}, {c};",
           lambda a, b, c: s32(abs(a - b) + c)),
        Op("sad_u32", "u32", "sad.u32 {d}, {a}, {b}, {c};",
           lambda a, b, c: u32(abs(u32(a) - u32(b)) + u32(c))),
    ])


def popc(x):
    return bin(x).count("1")


def clz(x, bits):
    return bits - x.bit_length()


def bfind(x, bits, signed, shiftamt):
    msb = bits - 1
    if signed and x >> msb & 1:
        x = ~x & ((1 << bits) - 1)
    d = 0xFFFFFFFF
    for i in range(msb, -1, -1):
        if x >> i & 1:
            d = i
            break
    if shiftamt and d != 0xFFFFFFFF:
        d = msb - d
    return d


def brev(x, bits):
    return int(format(x, "0%db" % bits)[::-1], 2)


@test
def int_bit_count():
    vals = [0, 1, 2, 3, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF, 0x00010000,
            0xFFFF0000, 0x12345678, 0xFFFFFFFE, 0x40000000, 0x00000100,
            0xC0000000, 0x55555555, 0x8000FFFF]
    a = Input("a", "u32", vals)
    hi = Input("b", "u32", [0, 0, 1, 0xFFFFFFFF, 0x80000000, 0xFFFFFFFF, 0, 0x10,
                            0x7FFFFFFF, 0x9ABCDEF0, 0xFFFFFFFF, 0, 1, 0x3FFFFFFF,
                            0xAAAAAAAA, 0x80000000])

    def w64(a, b):
        return (b << 32) | a
    return Test("int-bit-count", """
popc, clz, bfind (with .shiftamt, signed and unsigned) and brev on 32 and
64 bits; bfind gives 0xffffffff when no non-sign bit exists. The 64-bit
operand is {b, a}.
""", [a, hi], [
        Op("popc_b32", "u32", "popc.b32 {d}, {a};", lambda a, b: popc(a)),
        Op("clz_b32", "u32", "clz.b32 {d}, {a};", lambda a, b: clz(a, 32)),
        Op("bfind_u32", "u32", "bfind.u32 {d}, {a};",
           lambda a, b: bfind(a, 32, False, False)),
        Op("bfind_s32", "u32", "bfind.s32 {d}, {a};",
           lambda a, b: bfind(a, 32, True, False)),
        Op("bfind_shiftamt_u32", "u32", "bfind.shiftamt.u32 {d}, {a};",
           lambda a, b: bfind(a, 32, False, True)),
        Op("bfind_shiftamt_s32", "u32", "bfind.shiftamt.s32 {d}, {a};",
           lambda a, b: bfind(a, 32, True, True)),
        Op("brev_b32", "u32", "brev.b32 {d}, {a};", lambda a, b: brev(a, 32)),
        Op("popc_b64", "u32", ["mov.b64 {t}, {{{a}, {b}}};", "popc.b64 {d}, {t};"],
           lambda a, b: popc(w64(a, b)), tmp="b64"),
        Op("clz_b64", "u32", ["mov.b64 {t}, {{{a}, {b}}};", "clz.b64 {d}, {t};"],
           lambda a, b: clz(w64(a, b), 64), tmp="b64"),
        Op("bfind_s64", "u32", ["mov.b64 {t}, {{{a}, {b}}};", "bfind.s64 {d}, {t};"],
           lambda a, b: bfind(w64(a, b), 64, True, False), tmp="s64"),
        Op("bfind_shiftamt_u64", "u32",
           ["mov.b64 {t}, {{{a}, {b}}};", "bfind.shiftamt.u64 {d}, {t};"],
           lambda a, b: bfind(w64(a, b), 64, False, True), tmp="u64"),
        Op("brev_b64", "u64", ["mov.b64 {t}, {{{a}, {b}}};", "brev.b64 {d}, {t};"],
           lambda a, b: brev(w64(a, b), 64), tmp="b64"),
    ])


def bfe(a, pos, ln, bits, signed):
    msb = bits - 1
    pos &= 0xFF
    ln &= 0xFF
    sbit = 0 if (not signed or ln == 0) else (a >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(bits):
        bit = (a >> (pos + i)) & 1 if (i < ln and pos + i <= msb) else sbit
        d |= bit << i
    return d


def bfi(a, b, pos, ln, bits):
    msb = bits - 1
    pos &= 0xFF
    ln &= 0xFF
    f = b
    i = 0
    while i < ln and pos + i <= msb:
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
        i += 1
    return f


def bmsk(a, b, clamp):
    a1 = a & 0x1F
    mask0 = (0xFFFFFFFF << a1) & 0xFFFFFFFF
    b1 = b & 0x1F
    sm = a1 + b1
    mask1 = (0xFFFFFFFF << sm) & 0xFFFFFFFF if sm < 32 else 0
    pos_over = width_over = False
    if clamp:
        if a >= 32:
            pos_over = True
            mask0 = 0
        if b >= 32:
            width_over = True
    if sm >= 32 or pos_over or width_over:
        mask1 = 0
    elif b1 == 0:
        mask1 = 0xFFFFFFFF
    return mask0 & ~mask1 & 0xFFFFFFFF


@test
def int_bfe_bfi_bmsk():
    a = Input("a", "u32", [0xF0F0F0F0, 0x80000000, 0x12345678, 0xFFFFFFFF,
                           0x87654321, 0x0000FF00, 0xDEADBEEF, 0x7FFFFFFF,
                           0xCAFEBABE, 0x00000001, 0x80000001, 0xA5A5A5A5,
                           0x12345678, 0x80000000, 0xFFFF0000, 0x13579BDF])
    pos = Input("b", "u32", [0, 31, 4, 0, 28, 8, 16, 30, 255, 0, 31, 0x104,
                             32, 33, 12, 0])
    ln = Input("c", "u32", [8, 1, 8, 32, 8, 8, 16, 5, 8, 0, 5, 0x108, 4, 1,
                            20, 255])
    return Test("int-bfe-bfi-bmsk", """
bfe extracts c bits at position b (both taken modulo 256), sign-extending
from the field's top bit (or bit 31 when the field runs past it) for .s32;
bfi inserts the low c bits of a into 0x0f0f0f0f; bmsk builds masks in
.clamp and .wrap modes. Positions and lengths 0, 31, 32, 33, 255, 256+.
""", [a, pos, ln], [
        Op("bfe_u32", "u32", "bfe.u32 {d}, {a}, {b}, {c};",
           lambda a, b, c: bfe(a, b, c, 32, False)),
        Op("bfe_s32", "u32", "bfe.s32 {d}, {a}, {b}, {c};",
           lambda a, b, c: bfe(a, b, c, 32, True), tmp=None),
        Op("bfe_u64", "u64", ["mov.b64 {t}, {{{a}, {a}}};",
                              "bfe.u64 {t}, {t}, {b}, {c};", "mov.b64 {d}, {t};"],
           lambda a, b, c: bfe((a << 32) | a, b, c, 64, False), tmp="u64"),
        Op("bfe_s64", "u64", ["mov.b64 {t}, {{{a}, {a}}};",
                              "bfe.s64 {t}, {t}, {b}, {c};", "mov.b64 {d}, {t};"],
           lambda a, b, c: bfe((a << 32) | a, b, c, 64, True), tmp="s64"),
        Op("bfi_b32", "u32", "bfi.b32 {d}, {a}, 0x0f0f0f0f, {b}, {c};",
           lambda a, b, c: bfi(a, 0x0F0F0F0F, b, c, 32)),
        Op("bfi_b64", "u64", ["mov.b64 {t}, {{{a}, {a}}};",
                              "bfi.b64 {d}, {t}, 0x0f0f0f0f0f0f0f0f, {b}, {c};"],
           lambda a, b, c: bfi((a << 32) | a, 0x0F0F0F0F0F0F0F0F, b, c, 64),
           tmp="b64"),
        Op("bmsk_clamp", "u32", "bmsk.clamp.b32 {d}, {b}, {c};",
           lambda a, b, c: bmsk(b, c, True)),
        Op("bmsk_wrap", "u32", "bmsk.wrap.b32 {d}, {b}, {c};",
           lambda a, b, c: bmsk(b, c, False)),
    ])


def prmt(a, b, c, mode):
    tmp = (b << 32) | a

    def byte(i):
        return (tmp >> (8 * i)) & 0xFF
    if mode is None:
        d = 0
        for k in range(4):
            sel = (c >> (4 * k)) & 0xF
            v = byte(sel & 7)
            if sel & 8:
                v = 0xFF if v & 0x80 else 0
            d |= v << (8 * k)
        return d
    table = {
        "f4e": [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
        "b4e": [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
        "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        "ecl": [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
        "ecr": [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
        "rc16": [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
    }[mode]
    row = table[c & 3]  # d.b3, d.b2, d.b1, d.b0 as in the ISA's table
    return (byte(row[0]) << 24) | (byte(row[1]) << 16) | (byte(row[2]) << 8) | byte(row[3])


@test
def prmt_modes():
    sels = [0x3210, 0x7654, 0x0123, 0x4444, 0x8888, 0xF0E1, 0x9B1A, 0x5140,
            0, 1, 2, 3, 0xFFFFFFFC, 0xFFFFFFFD, 0x12345676, 0x0000CDEF]
    a = Input("a", "u32", [0x83828180, 0x03020100] * 8)
    b = Input("b", "u32", [0x87868584, 0xF7F6F5F4] * 8)
    c = Input("c", "u32", sels)
    ops = [Op("prmt", "u32", "prmt.b32 {d}, {a}, {b}, {c};",
              lambda a, b, c: prmt(a, b, c, None))]
    for mode in ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]:
        ops.append(Op("prmt_" + mode, "u32", "prmt.b32.%s {d}, {a}, {b}, {c};" % mode,
                      lambda a, b, c, m=mode: prmt(a, b, c, m)))
    return Test("prmt-modes", """
prmt in the generic mode (four 4-bit selectors, bit 3 replicates the sign of
the byte) and in every special mode, which use only c[1:0]; bytes of {b, a}
are numbered 0-7 from a's low byte. The tables are the PTX ISA's.
""", [a, b, c], ops)


def shl(x, n, bits):
    return (x << n) & ((1 << bits) - 1) if n < bits else 0


def shr(x, n, bits, signed):
    if signed:
        return to_unsigned(to_signed(x, bits) >> min(n, bits - 1), bits)
    return x >> n if n < bits else 0


def shf(a, b, c, left, clamp):
    n = min(c, 32) if clamp else c & 0x1F
    both = (b << 32) | a
    if left:
        return ((both << n) >> 32) & 0xFFFFFFFF
    return (both >> n) & 0xFFFFFFFF


@test
def shifts():
    counts = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 0xFFFFFFFF, 0x80000000,
              4, 8, 0x100]
    a = Input("a", "u32", [0x80000001, 0xF0000000, 0x12345678, 0x8000FFFF,
                           0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0xDEADBEEF,
                           0x80000000, 0x87654321, 0xFFFFFFFF, 0x80000000,
                           0x80000000, 0x0000ABCD, 0xFF00FF00, 0x89ABCDEF])
    b = Input("b", "u32", [0x01234567] * 16)
    c = Input("c", "u32", counts)
    w = lambda a, b: (b << 32) | a  # noqa: E731
    return Test("shifts", """
shl/shr on 16, 32 and 64 bits with counts 0, 31, 32, 33, 63, 64 ... 2^32-1:
counts past the width give 0 (or all sign bits for shr.s). shf.l/shf.r
funnel-shift {b, a} by min(c, 32) (.clamp) or c & 31 (.wrap).
""", [a, b, c], [
        Op("shl_b32", "u32", "shl.b32 {d}, {a}, {c};", lambda a, b, c: shl(a, c, 32)),
        Op("shr_u32", "u32", "shr.u32 {d}, {a}, {c};",
           lambda a, b, c: shr(a, c, 32, False)),
        Op("shr_s32", "u32", "shr.s32 {d}, {a}, {c};",
           lambda a, b, c: shr(a, c, 32, True)),
        Op("shr_b32", "u32", "shr.b32 {d}, {a}, {c};",
           lambda a, b, c: shr(a, c, 32, False)),
        Op("shl_b16", "u16", ["cvt.u16.u32 {t}, {a};", "shl.b16 {d}, {t}, {c};"],
           lambda a, b, c: shl(a & 0xFFFF, c, 16), tmp="u16"),
        Op("shr_s16", "u16", ["cvt.u16.u32 {t}, {a};", "shr.s16 {d}, {t}, {c};"],
           lambda a, b, c: shr(a & 0xFFFF, c, 16, True), tmp="u16"),
        Op("shl_b64", "u64", ["mov.b64 {t}, {{{a}, {b}}};", "shl.b64 {d}, {t}, {c};"],
           lambda a, b, c: shl(w(a, b), c, 64), tmp="b64"),
        Op("shr_s64", "u64", ["mov.b64 {t}, {{{b}, {a}}};", "shr.s64 {d}, {t}, {c};"],
           lambda a, b, c: shr(w(b, a), c, 64, True), tmp="b64"),
        Op("shr_u64", "u64", ["mov.b64 {t}, {{{b}, {a}}};", "shr.u64 {d}, {t}, {c};"],
           lambda a, b, c: shr(w(b, a), c, 64, False), tmp="b64"),
        Op("shf_l_clamp", "u32", "shf.l.clamp.b32 {d}, {a}, {b}, {c};",
           lambda a, b, c: shf(a, b, c, True, True)),
        Op("shf_r_clamp", "u32", "shf.r.clamp.b32 {d}, {a}, {b}, {c};",
           lambda a, b, c: shf(a, b, c, False, True)),
        Op("shf_l_wrap", "u32", "shf.l.wrap.b32 {d}, {a}, {b}, {c};",
           lambda a, b, c: shf(a, b, c, True, False)),
        Op("shf_r_wrap", "u32", "shf.r.wrap.b32 {d}, {a}, {b}, {c};",
           lambda a, b, c: shf(a, b, c, False, False)),
    ])


def lop3(a, b, c, lut):
    d = 0
    for i in range(32):
        idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1)
        d |= ((lut >> idx) & 1) << i
    return d


@test
def logic():
    a = Input("a", "u32", [0, 0xFFFFFFFF, 0xF0F0F0F0, 0x12345678, 1, 0x80000000,
                           0xAAAAAAAA, 0xDEADBEEF])
    b = Input("b", "u32", [0, 0xFFFFFFFF, 0xFF00FF00, 0x87654321, 0, 0x80000000,
                           0x55555555, 0x0000FFFF])
    c = Input("c", "u32", [0xFFFFFFFF, 0, 0xCCCCCCCC, 0x0F0F0F0F, 2, 0x7FFFFFFF,
                           0xFFFF0000, 0x13579BDF])
    return Test("logic", """
and, or, xor, not, cnot on 16, 32 and 64 bits; lop3 with several lookup
tables (the ISA's F(0xf0, 0xcc, 0xaa) encoding); predicate logic.
""", [a, b, c], [
        Op("and_b32", "u32", "and.b32 {d}, {a}, {b};", lambda a, b, c: a & b),
        Op("or_b32", "u32", "or.b32 {d}, {a}, {b};", lambda a, b, c: a | b),
        Op("xor_b32", "u32", "xor.b32 {d}, {a}, {b};", lambda a, b, c: a ^ b),
        Op("not_b32", "u32", "not.b32 {d}, {a};", lambda a, b, c: a ^ 0xFFFFFFFF),
        Op("cnot_b32", "u32", "cnot.b32 {d}, {c};", lambda a, b, c: int(c == 0)),
        Op("cnot_b16", "u16", ["cvt.u16.u32 {t}, {a};", "cnot.b16 {d}, {t};"],
           lambda a, b, c: int(a & 0xFFFF == 0), tmp="u16"),
        Op("not_b64", "u64", ["mov.b64 {t}, {{{a}, {b}}};", "not.b64 {d}, {t};"],
           lambda a, b, c: ((b << 32) | a) ^ (2 ** 64 - 1), tmp="b64"),
        Op("lop3_and", "u32", "lop3.b32 {d}, {a}, {b}, {c}, 0x80;",
           lambda a, b, c: lop3(a, b, c, 0x80)),
        Op("lop3_maj", "u32", "lop3.b32 {d}, {a}, {b}, {c}, 0xe8;",
           lambda a, b, c: (a & b) | (a & c) | (b & c)),
        Op("lop3_1a", "u32", "lop3.b32 {d}, {a}, {b}, {c}, 0x1a;",
           lambda a, b, c: ((a & b) | c) ^ a),
        Op("lop3_all", "u32", "lop3.b32 {d}, {a}, {b}, {c}, 0x96;",
           lambda a, b, c: a ^ b ^ c),
        Op("lop3_none", "u32", "lop3.b32 {d}, {a}, {b}, {c}, 0;",
           lambda a, b, c: 0),
        Op("pred_logic", "u32", ["setp.ne.u32 {p}, {a}, 0;", "setp.ne.u32 {q}, {b}, 0;",
                                 "xor.pred {p}, {p}, {q};", "not.pred {q}, {q};",
                                 "or.pred {p}, {p}, {q};",
                                 "selp.u32 {d}, 1, 0, {p};"],
           lambda a, b, c: int((a != 0) != (b != 0) or b == 0)),
    ])


@test
def carry_chains():
    # 64-bit operands as two words, little end first.
    xs = [0, 0xFFFFFFFFFFFFFFFF, 0x00000000FFFFFFFF, 0x123456789ABCDEF0,
          0x8000000000000000, 1, 0xFFFFFFFF00000000, 0xDEADBEEFCAFEBABE]
    ys = [0, 1, 1, 0xFEDCBA9876543210, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF,
          0x0000000100000000, 0x1111111111111111]
    a0 = Input("a0", "u32", [x & 0xFFFFFFFF for x in xs])
    a1 = Input("a1", "u32", [x >> 32 for x in xs])
    b0 = Input("b0", "u32", [y & 0xFFFFFFFF for y in ys])
    b1 = Input("b1", "u32", [y >> 32 for y in ys])
    M = 2 ** 64
    return Test("carry-chains", """
Multi-word arithmetic through the carry flag: add.cc/addc and sub.cc/subc
on {a1, a0} and {b1, b0}, the carry out of the top word (addc with zeros),
and a 32x64-bit multiply-add with mad.lo.cc/madc.hi. (The carry is per
lane; carry-uniform-operands.ptx covers chains whose operands are uniform.)
""", [a0, a1, b0, b1], [
        Op("add64", "u64", ["add.cc.u32 {t}, {a}, {c};", "addc.cc.u32 {t1}, {b}, {e};",
                            "mov.b64 {d}, {{{t}, {t1}}};"],
           lambda a0, a1, b0, b1: ((a1 << 32 | a0) + (b1 << 32 | b0)) % M,
           tmp=["u32", "u32"]),
        Op("add_carry_out", "u32", ["sub.u32 {t1}, {a}, {a};",
                                    "add.cc.u32 {t}, {a}, {c};",
                                    "addc.cc.u32 {t}, {b}, {e};",
                                    "addc.u32 {d}, {t1}, {t1};"],
           lambda a0, a1, b0, b1: int((a1 << 32 | a0) + (b1 << 32 | b0) >= M),
           tmp=["u32", "u32"]),
        Op("sub64", "u64", ["sub.cc.u32 {t}, {a}, {c};", "subc.cc.u32 {t1}, {b}, {e};",
                            "mov.b64 {d}, {{{t}, {t1}}};"],
           lambda a0, a1, b0, b1: ((a1 << 32 | a0) - (b1 << 32 | b0)) % M,
           tmp=["u32", "u32"]),
        Op("sub_borrow_out", "u32", ["sub.u32 {t1}, {a}, {a};",
                                     "sub.cc.u32 {t}, {a}, {c};",
                                     "subc.cc.u32 {t}, {b}, {e};",
                                     "subc.u32 {d}, {t1}, {t1};"],
           lambda a0, a1, b0, b1: ((-1 if (a1 << 32 | a0) < (b1 << 32 | b0) else 0)
                                   & 0xFFFFFFFF), tmp=["u32", "u32"]),
        # The flag is the carry of a + ~b + 1 (and subc adds ~b and the
        # flag): after sub.cc it is 1 when the subtraction did not borrow,
        # as the hardware computes it, which addc and subc then see.
        Op("sub_cc_then_addc", "u32", ["sub.cc.u32 {t}, {a}, {c};",
                                       "addc.u32 {d}, 0, 0;"],
           lambda a0, a1, b0, b1: int(a0 >= b0), tmp=["u32"]),
        Op("add_cc_then_subc", "u32", ["add.cc.u32 {t}, {a}, {c};",
                                       "subc.u32 {d}, 0, 0;"],
           lambda a0, a1, b0, b1: (0 if a0 + b0 >= 2 ** 32 else 0xFFFFFFFF),
           tmp=["u32"]),
        Op("subc_cc_flag", "u32", ["add.cc.u32 {t}, {a}, {c};",
                                   "subc.cc.u32 {t}, {b}, {e};",
                                   "addc.u32 {d}, 0, 0;"],
           lambda a0, a1, b0, b1: int(a1 + (~b1 & 0xFFFFFFFF) +
                                      int(a0 + b0 >= 2 ** 32) >= 2 ** 32),
           tmp=["u32"]),
        # {d1, d0} = a0 * {b1, b0} + {a1, a0}, modulo 2^64.
        Op("mad_chain", "u64", ["mad.lo.cc.u32 {t}, {a}, {c}, {a};",
                                "madc.hi.u32 {t1}, {a}, {c}, {b};",
                                "mad.lo.u32 {t1}, {a}, {e}, {t1};",
                                "mov.b64 {d}, {{{t}, {t1}}};"],
           lambda a0, a1, b0, b1: (a0 * (b1 << 32 | b0) + (a1 << 32 | a0)) % M,
           tmp=["u32", "u32"]),
    ])


def dp(a, b, c, n, asig, bsig, hi=False):
    if n == 4:
        va = [to_signed(a >> (8 * i) & 0xFF, 8) if asig else a >> (8 * i) & 0xFF
              for i in range(4)]
        vb = [to_signed(b >> (8 * i) & 0xFF, 8) if bsig else b >> (8 * i) & 0xFF
              for i in range(4)]
        return u32(c + sum(x * y for x, y in zip(va, vb)))
    va = [to_signed(a >> (16 * i) & 0xFFFF, 16) if asig else a >> (16 * i) & 0xFFFF
          for i in range(2)]
    vb = [to_signed(b >> (8 * i) & 0xFF, 8) if bsig else b >> (8 * i) & 0xFF
          for i in range(4)]
    sel = 2 if hi else 0
    return u32(c + va[0] * vb[sel] + va[1] * vb[sel + 1])


@test
def dot_products():
    a = Input("a", "u32", [0x01020304, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F,
                           0x12345678, 0xFF01FF01, 0, 0x8000FFFF])
    b = Input("b", "u32", [0x01010101, 0xFFFFFFFF, 0x80808080, 0x81818181,
                           0x9ABCDEF0, 0x01FF01FF, 0x12345678, 0x7F80FF01])
    c = Input("c", "u32", [0, 1, 0xFFFFFFFF, 100, 0x80000000, 7, 5, 0])
    ops = []
    for at in ("u32", "s32"):
        for bt in ("u32", "s32"):
            ops.append(Op("dp4a_%s_%s" % (at[0], bt[0]), "u32",
                          "dp4a.%s.%s {d}, {a}, {b}, {c};" % (at, bt),
                          lambda a, b, c, x=at, y=bt: dp(a, b, c, 4, x[0] == "s",
                                                         y[0] == "s")))
    for mode in ("lo", "hi"):
        for at, bt in (("u32", "u32"), ("s32", "u32"), ("u32", "s32"), ("s32", "s32")):
            ops.append(Op("dp2a_%s_%s_%s" % (mode, at[0], bt[0]), "u32",
                          "dp2a.%s.%s.%s {d}, {a}, {b}, {c};" % (mode, at, bt),
                          lambda a, b, c, x=at, y=bt, m=mode:
                          dp(a, b, c, 2, x[0] == "s", y[0] == "s", m == "hi")))
    return Test("dot-products", """
dp4a: four byte products added to c; dp2a: two 16-bit by 8-bit products from
the low (.lo) or high (.hi) bytes of b. Every signedness combination.
""", [a, b, c], ops)


@test
def mov_pack():
    a = Input("a", "u32", [0, 1, 0xFFFFFFFF, 0x12345678, 0x80000000, 0xDEADBEEF,
                           0x0000FFFF, 0xFFFF0000])
    b = Input("b", "u32", [0, 2, 0, 0x9ABCDEF0, 1, 0xCAFEBABE, 0x7FFF8000, 3])
    return Test("mov-pack", """
mov packs vector operands into wide registers ({lo, hi}: the first element
in the low bits) and unpacks them again; float immediates (0f..., 0d...)
are bit patterns; mov of a variable gives its address.
""", [a, b], [
        Op("pack_b64", "u64", "mov.b64 {d}, {{{a}, {b}}};",
           lambda a, b: b << 32 | a),
        Op("unpack_hi", "u32", ["mov.b64 {t}, {{{a}, {b}}};",
                                "mov.b64 {{_, {d}}}, {t};"],
           lambda a, b: b, tmp="b64"),
        Op("pack_b32_halves", "u32", ["mov.b32 {{{t}, {t1}}}, {a};",
                                      "mov.b32 {d}, {{{t1}, {t}}};"],
           lambda a, b: (a & 0xFFFF) << 16 | a >> 16, tmp=["b16", "b16"]),
        Op("imm_f32", "u32", ["mov.f32 {t}, 0fBFC00000;", "mov.b32 {d}, {t};",
                              "add.u32 {d}, {d}, {a};"],
           lambda a, b: (0xBFC00000 + a) & 0xFFFFFFFF, tmp="f32"),
        Op("imm_f64_hi", "u32", ["mov.f64 {t}, 0d400921FB54442D18;",
                                 "mov.b64 {{{t1}, {d}}}, {t};", "xor.b32 {d}, {d}, {b};"],
           lambda a, b: 0x400921FB ^ b, tmp=["f64", "b32"]),
    ])
