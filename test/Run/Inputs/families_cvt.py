"""cvt: integer to integer (with and without .sat), float to integer in each
integer rounding mode (saturating, NaN rules), integer to float and float to
float in each rounding mode, .ftz, .sat, .relu, packing."""

import random

from testgen import Test, Op, Input, test, INT_MIN, INT_MAX
import ptxref as R
from ptxref import F16, BF16, F32, F64

INT = {"u8": (8, False), "s8": (8, True), "u16": (16, False), "s16": (16, True),
       "u32": (32, False), "s32": (32, True), "u64": (64, False), "s64": (64, True)}


def out_type(t):
    """The output buffer (and register) of a conversion to t: 8-bit results
    live in 16-bit registers, extended as the ISA says."""
    return {"u8": "u16", "s8": "s16"}.get(t, t)


def int_cvt(dst, src, sat):
    db, ds = INT[dst]
    sb, ss = INT[src]
    ob, os_ = INT[out_type(dst)]

    def ref(x):
        v = R.to_signed(x, sb) if ss else R.to_unsigned(x, sb)
        r = R.cvt_int(v, sb, ss, db, ds, sat)
        # Into a wider register: sign-extended for signed types.
        return R.to_signed(r, db) if ds else r
    return ref


def range_of(t):
    bits, signed = INT[t]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def int_ops(src, dsts):
    ops = []
    for dst in dsts:
        for sat in (False, True):
            # .sat is legal only where the destination cannot hold every
            # source value.
            if sat and range_of(dst)[0] <= range_of(src)[0] and \
                    range_of(src)[1] <= range_of(dst)[1]:
                continue
            name = "cvt%s_%s" % ("_sat" if sat else "", dst)
            ops.append(Op(name, out_type(dst),
                          "cvt%s.%s.%s {d}, {a};" % (".sat" if sat else "", dst, src),
                          lambda a, f=int_cvt(dst, src, sat): f(a)))
    return ops


@test
def cvt_int_from_32():
    vals = [0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768,
            -32769, 65535, 65536, INT_MIN, INT_MAX, 0x12345678, -0x12345678, 200]
    return Test("cvt-int-from-s32", """
cvt from .s32 to every other integer type, with and without .sat: without
it the value is truncated (then sign- or zero-extended into the 16-bit
register that holds an 8-bit result); with it, clamped to the destination's
range.
""", [Input("a", "s32", vals)],
        int_ops("s32", ["u8", "s8", "u16", "s16", "u32", "u64", "s64"]))


@test
def cvt_int_from_u32():
    vals = [0, 1, 0xFFFFFFFF, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
            0x7FFFFFFF, 0x80000000, 0x12345678, 0xFFFFFF80, 200]
    return Test("cvt-int-from-u32", """
cvt from .u32: truncation and, with .sat, clamping to signed and unsigned
destinations (0x80000000 does not fit .s32).
""", [Input("a", "u32", vals)],
        int_ops("u32", ["u8", "s8", "u16", "s16", "s32", "u64", "s64"]))


@test
def cvt_int_from_64():
    vals = [0, 1, -1, 255, -128, 65536, -32769, INT_MAX, INT_MAX + 1, INT_MIN,
            INT_MIN - 1, (1 << 32) + 5, -(1 << 63), (1 << 63) - 1,
            0x123456789ABCDEF0, -0x0123456789ABCDEF]
    return Test("cvt-int-from-s64", """
cvt from .s64 to narrower and unsigned types, with and without .sat.
""", [Input("a", "s64", vals)],
        int_ops("s64", ["u8", "s8", "u16", "s16", "u32", "s32", "u64"]))


@test
def cvt_int_from_narrow():
    # The 16-bit register holds an 8-bit value in its low byte; cvt from
    # .s8/.u8 reads only that byte.
    vals = [0, 1, 0x7F, 0x80, 0xFF, 0x0100, 0x7FFF, 0x8000, 0xFFFF, 0x1280,
            0xAB7F, 0x00FE]
    ops = []
    for src in ("s8", "u8", "s16", "u16"):
        for dst in ("s32", "u32", "s64", "u64"):
            ops.append(Op("cvt_%s_%s" % (dst, src), dst,
                          "cvt.%s.%s {d}, {a};" % (dst, src),
                          lambda a, f=int_cvt(dst, src, False): f(a)))
    ops.append(Op("cvt_sat_u8_s16", "u16", "cvt.sat.u8.s16 {d}, {a};",
                  lambda a: int_cvt("u8", "s16", True)(a)))
    ops.append(Op("cvt_sat_s8_u16", "s16", "cvt.sat.s8.u16 {d}, {a};",
                  lambda a: int_cvt("s8", "u16", True)(a)))
    return Test("cvt-int-from-narrow", """
cvt from 8- and 16-bit types widens by sign or zero extension; an 8-bit
source is the low byte of its 16-bit register.
""", [Input("a", "u16", vals)], ops)


F32_TO_INT = ["0", "-0", "0.5", "1.5", "2.5", "-0.5", "-1.5", "-2.5", "0.49999997",
              "-0.49999997", "1e-45", "-1e-45", "2147483520", "2147483648",
              "-2147483648", "-2147483904", "4294967040", "4294967296", "1e20",
              "-1e20", "inf", "-inf", "nan", "3.7", "-3.7", "65535.5", "-129.5",
              "255.5", "32767.5", "-32768.7", "9.2233720368547758e18", "-0.75"]


@test
def cvt_f32_to_int32():
    a = [R.parse_exact(x, F32) for x in F32_TO_INT]
    ops = []
    for dst in ("s32", "u32"):
        bits, signed = INT[dst]
        for m in ("rni", "rzi", "rmi", "rpi"):
            ops.append(Op("cvt_%s_%s" % (m, dst), dst, "cvt.%s.%s.f32 {d}, {a};" % (m, dst),
                          lambda a, b=bits, s=signed, m=m:
                          R.cvt_float_to_int(a, F32, b, s, m)))
    ops.append(Op("cvt_rpi_ftz_s32", "s32", "cvt.rpi.ftz.s32.f32 {d}, {a};",
                  lambda a: R.cvt_float_to_int(a, F32, 32, True, "rpi", ftz=True)))
    return Test("cvt-f32-to-int32", """
cvt from .f32 to .s32 and .u32 in each integer rounding mode (.rni ties to
even): out-of-range values and infinities saturate, NaN gives 0, .ftz
flushes a subnormal input (so .rpi gives 0, not 1).
""", [Input("a", "f32", a)], ops)


@test
def cvt_f32_to_int_other():
    a = [R.parse_exact(x, F32) for x in F32_TO_INT]
    ops = []
    for dst, modes in (("s64", ("rni", "rzi")), ("u64", ("rzi", "rpi")),
                       ("s16", ("rni", "rmi")), ("u16", ("rzi",)),
                       ("s8", ("rni",)), ("u8", ("rpi",))):
        bits, signed = INT[dst]
        for m in modes:
            ops.append(Op("cvt_%s_%s" % (m, dst), out_type(dst),
                          "cvt.%s.%s.f32 {d}, {a};" % (m, dst),
                          lambda a, b=bits, s=signed, m=m, d=dst:
                          (lambda r: R.to_signed(r, b) if s else r)(
                              R.cvt_float_to_int(a, F32, b, s, m))))
    return Test("cvt-f32-to-int-other", """
cvt from .f32 to 64-, 16- and 8-bit integers: saturating to each
destination's range; NaN gives 0, except into a 64-bit integer, where it
gives 1 << 63 (PTX ISA 9.x).
""", [Input("a", "f32", a)], ops)


@test
def cvt_f64_to_int():
    vals = ["0", "-0", "0.5", "2.5", "-2.5", "-0.5000000000000001", "2147483647.5",
            "2147483648", "-2147483648.9", "-2147483649", "4294967295.5",
            "4294967296", "1e300", "-1e300", "inf", "-inf", "nan",
            "9223372036854775807", "-9223372036854775809", "18446744073709551615",
            "255.5", "-128.5", "4.9e-324", "-7.5"]
    a = [R.parse_exact(x, F64) for x in vals]
    ops = []
    for dst, modes in (("s32", ("rni", "rzi", "rmi", "rpi")), ("u32", ("rni", "rzi")),
                       ("s64", ("rzi", "rmi")), ("u64", ("rni", "rpi")),
                       ("u8", ("rzi",)), ("s16", ("rni",))):
        bits, signed = INT[dst]
        for m in modes:
            ops.append(Op("cvt_%s_%s" % (m, dst), out_type(dst),
                          "cvt.%s.%s.f64 {d}, {a};" % (m, dst),
                          lambda a, b=bits, s=signed, m=m:
                          (lambda r: R.to_signed(r, b) if s else r)(
                              R.cvt_float_to_int(a, F64, b, s, m))))
    return Test("cvt-f64-to-int", """
cvt from .f64 to integers: saturating, and NaN gives 1 << (bits - 1) for
every destination (0x80000000 for .s32 and .u32, 0x80 for .u8: PTX ISA 9.x).
""", [Input("a", "f64", a)], ops)


@test
def cvt_int_to_f32():
    s32 = [0, 1, -1, 16777217, -16777217, 16777219, INT_MAX, INT_MIN, 0x7FFFFFC0,
           0x7FFFFF80 + 0x40, 33554435, -33554435, 123456789, 3, -100, 0x40000001]
    s64 = [0, 1, -1, (1 << 63) - 1, -(1 << 63), (1 << 53) + 1, -((1 << 53) + 1),
           (1 << 24) + 1, 0x7FFFFF8000000001, 0x123456789ABCDEF, -0x123456789ABCDEF,
           1 << 40, 0x0FFFFFFFFFFFFFFF, 3, -(1 << 62) - 1, 0x20000001]
    ops = []
    for src, idx in (("s32", 0), ("u32", 0), ("s64", 1), ("u64", 1)):
        bits, signed = INT[src]
        for m in ("rn", "rz", "rm", "rp"):
            ops.append(Op("cvt_%s_f32_%s" % (m, src), "f32",
                          "cvt.%s.f32.%s {d}, {%s};" % (m, src, "ab"[idx]),
                          lambda a, b, i=idx, bits=bits, sg=signed, m=m:
                          R.cvt_int_to_float(
                              (R.to_signed if sg else R.to_unsigned)((a, b)[i], bits),
                              F32, m)))
    return Test("cvt-int-to-f32", """
cvt from 32- and 64-bit integers to .f32 in every rounding mode: values
with more than 24 significant bits round (ties to even in .rn).
""", [Input("a", "s32", s32), Input("b", "s64", s64)], ops)


@test
def cvt_int_to_f64_f16_bf16():
    s64 = [0, 1, -1, (1 << 63) - 1, -(1 << 63), (1 << 53) + 1, -((1 << 53) + 1),
           (1 << 53) + 3, 65504, 65520, 65519, 2049, 2051, -4097, 16842753,
           (1 << 24) + (1 << 16) + 1]
    ops = []
    for m in ("rn", "rz", "rm", "rp"):
        ops.append(Op("cvt_%s_f64_s64" % m, "f64", "cvt.%s.f64.s64 {d}, {a};" % m,
                      lambda a, m=m: R.cvt_int_to_float(a, F64, m)))
    ops.append(Op("cvt_rz_f64_u64", "f64", "cvt.rz.f64.u64 {d}, {a};",
                  lambda a: R.cvt_int_to_float(R.to_unsigned(a, 64), F64, "rz")))
    for m in ("rn", "rz", "rm", "rp"):
        ops.append(Op("cvt_%s_f16_s32" % m, "f16",
                      ["cvt.s32.s64 {t}, {a};", "cvt.%s.f16.s32 {d}, {t};" % m],
                      lambda a, m=m: R.cvt_int_to_float(R.to_signed(a, 32), F16, m),
                      tmp="s32"))
    ops.append(Op("cvt_rn_f16_u64", "f16", "cvt.rn.f16.u64 {d}, {a};",
                  lambda a: R.cvt_int_to_float(R.to_unsigned(a, 64), F16, "rn")))
    for m in ("rn", "rz"):
        ops.append(Op("cvt_%s_bf16_s32" % m, "bf16",
                      ["cvt.s32.s64 {t}, {a};", "cvt.%s.bf16.s32 {d}, {t};" % m],
                      lambda a, m=m: R.cvt_int_to_float(R.to_signed(a, 32), BF16, m),
                      tmp="s32"))
        ops.append(Op("cvt_%s_bf16_s64" % m, "bf16", "cvt.%s.bf16.s64 {d}, {a};" % m,
                      lambda a, m=m: R.cvt_int_to_float(a, BF16, m)))
    return Test("cvt-int-to-f64-f16-bf16", """
cvt from integers to .f64, .f16 and .bf16 in each rounding mode. Each is
rounded once from the exact integer: through .f32, 2^24 + 2^16 + 1 would
become 2^24 + 2^16 and then tie down to 2^24 in .bf16, where it belongs at
2^24 + 2^17. .f16 overflows to inf from 65520 in .rn, to 65504 in .rz.
""", [Input("a", "s64", s64)], ops)


F32_TO_NARROW = ["1", "0.1", "-0.1", "65504", "65519.996", "65520", "1e10", "-1e10",
                 "0x1p-24", "0x1p-25", "0x1.8p-25", "0x1p-26", "0x1.004p0",
                 "0x1.002p0", "0x1.006p0", "-0x1.002p0", "inf", "-inf", "nan", "-0",
                 "3.3895313892515355e38", "3.4028234663852886e38", "0x1p-133",
                 "0x1.01p0", "0x1.018p0", "-0x1.008p0", "1e-45", "0x1.ff8p15"]


def satfinite(r, f):
    """.satfinite: beyond the largest finite value (inf included) is that
    value, sign kept; NaN stays NaN."""
    if r is not None and R.is_inf(r, f):
        return f.max_bits(R.is_neg(r, f))
    return r


@test
def cvt_f32_to_f16_bf16():
    a = [R.parse_exact(x, F32) for x in F32_TO_NARROW]
    ops = []
    for m in ("rn", "rz", "rm", "rp"):
        ops.append(Op("cvt_%s_f16" % m, "f16", "cvt.%s.f16.f32 {d}, {a};" % m,
                      lambda a, m=m: R.cvt_float(a, F32, F16, m)))
    for m in ("rn", "rz", "rm", "rp"):
        ops.append(Op("cvt_%s_bf16" % m, "bf16", "cvt.%s.bf16.f32 {d}, {a};" % m,
                      lambda a, m=m: R.cvt_float(a, F32, BF16, m)))

    def relu(r, f):
        if r is None or R.is_nan(r, f):
            return R.CANONICAL_NAN[f.name]
        return 0 if R.is_neg(r, f) else r  # -0 too: max(r, +0), -0 < +0
    ops += [
        Op("cvt_rn_relu_f16", "b16", "cvt.rn.relu.f16.f32 {d}, {a};",
           lambda a: relu(R.cvt_float(a, F32, F16, "rn"), F16)),
        Op("cvt_rz_relu_bf16", "b16", "cvt.rz.relu.bf16.f32 {d}, {a};",
           lambda a: relu(R.cvt_float(a, F32, BF16, "rz"), BF16)),
        Op("cvt_rn_ftz_f16", "f16", "cvt.rn.ftz.f16.f32 {d}, {a};",
           lambda a: R.cvt_float(a, F32, F16, "rn", ftz=True)),
        Op("cvt_rn_satfinite_f16", "f16", "cvt.rn.satfinite.f16.f32 {d}, {a};",
           lambda a: satfinite(R.cvt_float(a, F32, F16, "rn"), F16)),
        Op("cvt_rz_satfinite_bf16", "bf16", "cvt.rz.satfinite.bf16.f32 {d}, {a};",
           lambda a: satfinite(R.cvt_float(a, F32, BF16, "rz"), BF16)),
    ]
    return Test("cvt-f32-to-f16-bf16", """
cvt from .f32 to .f16 and .bf16 in every rounding mode: ties to even,
overflow (to inf, or to the largest finite value toward zero), gradual
underflow to .f16 subnormals; .relu is max(r, +0) (so -0 gives +0) and makes
NaN the canonical NaN 0x7fff (printed as bits); .ftz flushes only .f32
values (the .f32 input here), never .f16 results; .satfinite turns what
would be infinite into the largest finite value.
""", [Input("a", "f32", a)], ops)


@test
def cvt_f16_bf16_to_wider():
    h = [0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0x7C00,
         0xFC00, 0x7E00, 0x3555, 0xC248, 0x8001]
    bf = [0x0000, 0x8000, 0x0001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x7F7F, 0x7F80,
          0xFF80, 0x7FC0, 0x3EAB, 0xC049, 0x8001]
    return Test("cvt-f16-bf16-to-wider", """
cvt from .f16 and .bf16 to .f32 and .f64 is exact (subnormal .f16 inputs
become normal .f32 values); .ftz on cvt.f32.f16 cannot flush (no .f16
value is subnormal in .f32); to integers through the same values.
""", [Input("h", "f16", h), Input("g", "bf16", bf)], [
        Op("cvt_f32_f16", "f32", "cvt.f32.f16 {d}, {a};",
           lambda h, g: R.cvt_float(h, F16, F32)),
        Op("cvt_f64_f16", "f64", "cvt.f64.f16 {d}, {a};",
           lambda h, g: R.cvt_float(h, F16, F64)),
        Op("cvt_ftz_f32_f16", "f32", "cvt.ftz.f32.f16 {d}, {a};",
           lambda h, g: R.cvt_float(h, F16, F32)),
        Op("cvt_f32_bf16", "f32", "cvt.f32.bf16 {d}, {b};",
           lambda h, g: R.cvt_float(g, BF16, F32)),
        Op("cvt_f64_bf16", "f64", "cvt.f64.bf16 {d}, {b};",
           lambda h, g: R.cvt_float(g, BF16, F64)),
        Op("cvt_rni_s32_f16", "s32", "cvt.rni.s32.f16 {d}, {a};",
           lambda h, g: R.to_signed(R.cvt_float_to_int(h, F16, 32, True, "rni"), 32)),
        Op("cvt_rzi_u16_f16", "u16", "cvt.rzi.u16.f16 {d}, {a};",
           lambda h, g: R.cvt_float_to_int(h, F16, 16, False, "rzi")),
    ])


@test
def cvt_f64_to_narrower():
    vals = ["0.1", "-0.1", "1", "0x1.000001p0", "0x1.0000010000001p0",
            "0x1.0000030000000p0", "-0x1.0000010000001p0", "3.4028235677973366e38",
            "3.4028234663852886e38", "1e300", "-1e300", "0x1p-149", "0x1p-150",
            "0x1.8p-150", "0x1p-151", "0x1p-127", "inf", "nan", "-0", "1e-320",
            "65519.999999", "0x1.0020000000001p0", "0x1.0100000000001p0", "-2.5e-8",
            "0x1.8p-134", "0x1.0000000000001p-134"]
    a = [R.parse_exact(x, F64) for x in vals]
    ops = []
    for m in ("rn", "rz", "rm", "rp"):
        ops.append(Op("cvt_%s_f32" % m, "f32", "cvt.%s.f32.f64 {d}, {a};" % m,
                      lambda a, m=m: R.cvt_float(a, F64, F32, m)))
    ops += [
        Op("cvt_rn_ftz_f32", "f32", "cvt.rn.ftz.f32.f64 {d}, {a};",
           lambda a: R.cvt_float(a, F64, F32, "rn", ftz=True)),
        Op("cvt_rp_ftz_f32", "f32", "cvt.rp.ftz.f32.f64 {d}, {a};",
           lambda a: R.cvt_float(a, F64, F32, "rp", ftz=True)),
        Op("cvt_rn_f16", "f16", "cvt.rn.f16.f64 {d}, {a};",
           lambda a: R.cvt_float(a, F64, F16, "rn")),
        Op("cvt_rm_f16", "f16", "cvt.rm.f16.f64 {d}, {a};",
           lambda a: R.cvt_float(a, F64, F16, "rm")),
        Op("cvt_rn_bf16", "bf16", "cvt.rn.bf16.f64 {d}, {a};",
           lambda a: R.cvt_float(a, F64, BF16, "rn")),
    ]
    return Test("cvt-f64-to-narrower", """
cvt from .f64 to .f32, .f16 and .bf16, each rounded once in every mode
(rounding to .f32 first, then to .f16, would be wrong for 1 + 2^-11 +
2^-52 and its like); .ftz flushes the .f32 result.
""", [Input("a", "f64", a)], ops)


@test
def cvt_float_misc():
    vals = ["0.5", "1.5", "2.5", "-0.5", "-2.5", "3.7", "-3.7", "1e-45", "-1e-45",
            "8388607.5", "inf", "nan", "-0", "1.25", "-1.25", "0x1p-130"]
    a = [R.parse_exact(x, F32) for x in vals]
    b = [R.parse_exact(x, F64) for x in vals]

    def rint(x, f, mode, ftz=False):
        if ftz:
            x = R.flush(x, f)
        if R.is_nan(x, f) or R.is_inf(x, f) or R.is_zero(x, f):
            return x
        r = R.round_to_integral(R.value(x, f), mode)
        return R.round_value(R.Fraction(r), f, "rn", zero_neg=R.is_neg(x, f))
    ops = []
    for m in ("rni", "rzi", "rmi", "rpi"):
        ops.append(Op("cvt_%s_f32_f32" % m, "f32", "cvt.%s.f32.f32 {d}, {a};" % m,
                      lambda a, b, m=m: rint(a, F32, m)))
    ops += [
        Op("cvt_rpi_ftz_f32_f32", "f32", "cvt.rpi.ftz.f32.f32 {d}, {a};",
           lambda a, b: rint(a, F32, "rpi", ftz=True)),
        Op("cvt_rmi_f64_f64", "f64", "cvt.rmi.f64.f64 {d}, {b};",
           lambda a, b: rint(b, F64, "rmi")),
        Op("cvt_rni_f64_f64", "f64", "cvt.rni.f64.f64 {d}, {b};",
           lambda a, b: rint(b, F64, "rni")),
        Op("cvt_f64_f32", "f64", "cvt.f64.f32 {d}, {a};",
           lambda a, b: R.cvt_float(a, F32, F64)),
        Op("cvt_ftz_f64_f32", "f64", "cvt.ftz.f64.f32 {d}, {a};",
           lambda a, b: R.cvt_float(a, F32, F64, ftz=True)),
        Op("cvt_sat_f32_f32", "f32", "cvt.sat.f32.f32 {d}, {a};",
           lambda a, b: R.saturate(a, F32)),
        Op("cvt_rn_sat_f32_f64", "f32", "cvt.rn.sat.f32.f64 {d}, {b};",
           lambda a, b: R.saturate(R.cvt_float(b, F64, F32, "rn"), F32)),
        # NaN's payload is unspecified: NaN lanes pack 2 (0x4000) instead.
        Op("cvt_rn_f16x2_f32", "b32",
           ["testp.notanumber.f32 {p}, {a};", "selp.f32 {t}, 0f40000000, {a}, {p};",
            "cvt.rn.f16x2.f32 {d}, {t}, 0fBF800000;"],
           lambda a, b: (lambda h: h << 16 | 0xBC00)(
               R.cvt_float(a if not R.is_nan(a, F32) else R.parse_exact("2", F32),
                           F32, F16, "rn")), tmp="f32"),
    ]
    return Test("cvt-float-misc", """
cvt between floats of one size rounds to an integral value (.rni .rzi .rmi
.rpi), keeping -0 and NaN; .f32 to .f64 is exact, and .ftz flushes the .f32
input; .sat clamps to [0, 1] (NaN to +0); .f16x2 packs a into the upper and
b (here -1, 0xbc00) into the lower half.
""", [Input("a", "f32", a), Input("b", "f64", b)], ops)


# --- The narrow formats: .e4m3x2 .e5m2x2 .e2m3x2 .e3m2x2 .e2m1x2 .ue8m0x2,
# .tf32, and cvt.pack ----------------------------------------------------------

NARROW_F32 = [
    "0", "-0", "1", "-1.5", "0.1", "448", "449", "464", "465", "-480", "500",
    "57344", "61439", "61440", "-1e6", "inf", "-inf", "0x1p-9", "0x1p-10",
    "0x1.8p-10", "0x1p-16", "0x1p-17", "0x1.8p-17", "-0x1p-20", "1e-45",
    "3.3e38", "7.5", "7.75", "28", "30", "6", "0.25"]
NARROW_F32_B = [
    "2.5", "-2.5", "3.5", "0.5", "-0.75", "1.0625", "1.1875", "0x1.2p0", "17",
    "19", "-0x1.1p2", "0.0625", "0x1p-3", "0x1.4p-3", "5", "-5.5", "0x1p-2",
    "0x1.2p-2", "0x1.6p-2", "-7", "1000", "12", "14", "3.25", "0x1p-126",
    "-0x1p-127", "0x1.8p-127", "0x1p-128", "1.5e38", "0x1.fffffep127", "4", "-3"]


def packed_halves(texts_hi, texts_lo, f):
    return [R.parse_exact(h, f) << 16 | R.parse_exact(l, f)
            for h, l in zip(texts_hi, texts_lo)]


def narrow_inputs():
    a = [R.parse_exact(x, F32) for x in NARROW_F32]
    b = [R.parse_exact(x, F32) for x in NARROW_F32_B]
    # Half sources: the same values where .f16 and .bf16 hold them (the
    # others overflow to infinity, which the conversions clamp too).
    x = packed_halves(NARROW_F32, NARROW_F32_B, F16)
    y = packed_halves(NARROW_F32_B, NARROW_F32, BF16)
    return [Input("a", "f32", a), Input("b", "f32", b), Input("x", "b32", x),
            Input("y", "b32", y)]


def to_narrow_pair(fmt, hi, lo, src, mode="rn", satfinite=True, relu=False):
    width = 4 if fmt is R.E2M1 else 8
    h = R.cvt_to_narrow(hi, src, fmt, mode, satfinite, relu)
    low = R.cvt_to_narrow(lo, src, fmt, mode, satfinite, relu)
    assert h is not None and low is not None, "a NaN code is unspecified"
    return h << width | low


def narrow_ops(fmt, ptype, relu_too=True, modes=("rn",)):
    """cvt to fmt from .f32 pairs and packed halves."""
    ops = []
    for mode in modes:
        for relu in (False, True) if relu_too else (False,):
            r = ".relu" if relu else ""
            tag = "%s%s_%s" % (mode, "_relu" if relu else "", fmt.name)
            out = "b8" if fmt is R.E2M1 else "b16"
            ops.append(Op("%s_f32" % tag, out,
                          "cvt.%s.satfinite%s.%s.f32 {d}, {a}, {b};" % (mode, r, ptype),
                          lambda a, b, x, y, m=mode, rl=relu:
                              to_narrow_pair(fmt, a, b, F32, m, True, rl)))
            ops.append(Op("%s_f16x2" % tag, out,
                          "cvt.%s.satfinite%s.%s.f16x2 {d}, {c};" % (mode, r, ptype),
                          lambda a, b, x, y, m=mode, rl=relu:
                              to_narrow_pair(fmt, x >> 16, x & 0xFFFF, F16, m, True,
                                             rl)))
            ops.append(Op("%s_bf16x2" % tag, out,
                          "cvt.%s.satfinite%s.%s.bf16x2 {d}, {e};" % (mode, r, ptype),
                          lambda a, b, x, y, m=mode, rl=relu:
                              to_narrow_pair(fmt, y >> 16, y & 0xFFFF, BF16, m, True,
                                             rl)))
    return ops


@test
def cvt_fp8():
    ops = narrow_ops(R.E4M3, "e4m3x2", modes=("rn", "rz")) + \
        narrow_ops(R.E5M2, "e5m2x2", modes=("rn", "rz"))
    # NaN becomes NaN (its code unspecified): the upper byte is converted
    # back to .f16 and tested; the lower one, from a, is exact.
    for fmt, ptype in ((R.E4M3, "e4m3x2"), (R.E5M2, "e5m2x2")):
        ops.append(Op("nan_%s" % fmt.name, "u32",
                      ["cvt.rn.satfinite.%s.f32 {t}, 0fFFC00000, {a};" % ptype,
                       "cvt.rn.f16x2.%s {t1}, {t};" % ptype,
                       "setp.nan.f16x2 {p}|{q}, {t1}, {t1};",
                       "cvt.u32.u16 {d}, {t};", "and.b32 {d}, {d}, 255;",
                       "selp.u32 {t2}, 256, 0, {q};", "or.b32 {d}, {d}, {t2};"],
                      lambda a, b, x, y, f=fmt:
                          R.cvt_to_narrow(a, F32, f) | 256,
                      tmp=["b16", "b32", "u32"]))
    return Test("cvt-fp8", """
cvt to .e4m3x2 and .e5m2x2 from two .f32 values (a in the upper byte) and
from packed .f16x2 and .bf16x2 (the upper half in the upper byte), rounded
once to nearest even (.rn) or toward zero (.rz) with .satfinite: beyond 448
(.e4m3) or 57344 (.e5m2), infinities included, is the largest finite value
of the same sign; tiny values round to subnormals or a signed zero; .relu
makes negative results +0. A NaN source gives a NaN.
""", narrow_inputs(), ops)


@test
def cvt_fp6_fp4():
    ops = narrow_ops(R.E2M3, "e2m3x2", modes=("rn", "rz")) + \
        narrow_ops(R.E3M2, "e3m2x2") + narrow_ops(R.E2M1, "e2m1x2", modes=("rn", "rz"))
    # These formats have no NaN: NaN becomes the largest positive value.
    for fmt, ptype, width in ((R.E2M3, "e2m3x2", 8), (R.E2M1, "e2m1x2", 4)):
        ops.append(Op("nan_%s" % fmt.name, "b8" if width == 4 else "b16",
                      "cvt.rn.satfinite.%s.f32 {d}, 0f7FC00000, {a};" % ptype,
                      lambda a, b, x, y, f=fmt, w=width:
                          f.max_code << w | R.cvt_to_narrow(a, F32, f)))
    return Test("cvt-fp6-fp4", """
cvt to .e2m3x2 and .e3m2x2 (6-bit values, each in the low bits of a byte)
and .e2m1x2 (4-bit values in one byte), from .f32 pairs and packed halves:
rounded once (.rn, .rz), beyond the largest finite value (7.5, 28, 6) and
infinity clamped to it by .satfinite, NaN the largest positive value (these
formats have no NaN), .relu making negative results +0.
""", narrow_inputs(), ops)


@test
def cvt_ue8m0():
    ops = []
    for mode in ("rz", "rp"):
        for sat in (False, True):
            s = ".satfinite" if sat else ""
            tag = "%s%s" % (mode, "_satfinite" if sat else "")

            def pair(hi, lo, src, m=mode, st=sat):
                h = R.cvt_to_narrow(hi, src, R.UE8M0, m, st)
                low = R.cvt_to_narrow(lo, src, R.UE8M0, m, st)
                # Without .satfinite, too large values and infinities give
                # .ue8m0's one NaN, 0xff.
                return (0xFF if h is None else h) << 8 | (0xFF if low is None else low)
            ops.append(Op("%s_f32" % tag, "b16",
                          "cvt.%s%s.ue8m0x2.f32 {d}, {a}, {b};" % (mode, s),
                          lambda a, b, x, y, f=pair: f(a, b, F32)))
            ops.append(Op("%s_bf16x2" % tag, "b16",
                          "cvt.%s%s.ue8m0x2.bf16x2 {d}, {e};" % (mode, s),
                          lambda a, b, x, y, f=pair: f(y >> 16, y & 0xFFFF, BF16)))
    ops.append(Op("nan_rz", "b16", "cvt.rz.satfinite.ue8m0x2.f32 {d}, 0f7FC00000, {a};",
                  lambda a, b, x, y: 0xFF00 | R.cvt_to_narrow(a, F32, R.UE8M0, "rz")))
    return Test("cvt-ue8m0", """
cvt to .ue8m0x2, a power of two 2^(code - 127) per byte: the magnitude
(the sign is dropped) rounded toward zero (.rz) or up (.rp); below 2^-127,
zero included, .rz gives 2^-127 (code 0), and .rp gives 2^-127 up to
2^-127 itself and 2^-126 above it. Infinity and values beyond 2^127 give
the NaN code 0xff, or 2^127 (0xfe) with .satfinite; NaN gives 0xff.
""", narrow_inputs(), ops)


def narrow_code_pairs(fmt, seed, exclude_nan=True):
    """32 code pairs (16 bits) of a format: every special magnitude first,
    then random codes; NaN codes left out when asked."""
    width = 4 if fmt is R.E2M1 else 8
    limit = 1 << fmt.bits
    rng = random.Random(seed)
    ok = [c for c in range(limit)
          if not (exclude_nan and fmt.value(c) == "nan")]
    fixed = sorted(set(c for c in ok if (c & ((1 << (fmt.bits - 1)) - 1)) in
                       (0, 1, 2, fmt.max_code, fmt.max_code - 1,
                        1 << fmt.mbits, (1 << fmt.mbits) - 1)
                       or fmt.value(c) in ("inf", "-inf")))
    codes = (fixed + [rng.choice(ok) for _ in range(64)])[:64]
    return [codes[2 * i] << width | codes[2 * i + 1] for i in range(32)]


@test
def cvt_from_narrow():
    c8 = narrow_code_pairs(R.E4M3, 40)
    c5 = narrow_code_pairs(R.E5M2, 41)
    c6 = narrow_code_pairs(R.E3M2, 42)
    cu = narrow_code_pairs(R.UE8M0, 43)
    ins = [Input("c4", "b16", c8), Input("c5", "b16", c5), Input("c6", "b16", c6),
           Input("cu", "b16", cu)]

    def halves(code_pair, fmt, dst, relu=False, width=8):
        hi = R.cvt_from_narrow(code_pair >> width, fmt, dst, relu)
        lo = R.cvt_from_narrow(code_pair & ((1 << width) - 1), fmt, dst, relu)
        assert hi is not None and lo is not None
        return hi << 16 | lo
    ops = [
        Op("f16x2_e4m3", "b32", "cvt.rn.f16x2.e4m3x2 {d}, {a};",
           lambda p, q, r, s: halves(p, R.E4M3, F16)),
        Op("f16x2_relu_e4m3", "b32", "cvt.rn.relu.f16x2.e4m3x2 {d}, {a};",
           lambda p, q, r, s: halves(p, R.E4M3, F16, True)),
        Op("bf16x2_e4m3", "b32", "cvt.rn.bf16x2.e4m3x2 {d}, {a};",
           lambda p, q, r, s: halves(p, R.E4M3, BF16)),
        Op("f16x2_e5m2", "b32", "cvt.rn.f16x2.e5m2x2 {d}, {b};",
           lambda p, q, r, s: halves(q, R.E5M2, F16)),
        Op("f16x2_relu_e5m2", "b32", "cvt.rn.relu.f16x2.e5m2x2 {d}, {b};",
           lambda p, q, r, s: halves(q, R.E5M2, F16, True)),
        Op("bf16x2_relu_e5m2", "b32", "cvt.rn.relu.bf16x2.e5m2x2 {d}, {b};",
           lambda p, q, r, s: halves(q, R.E5M2, BF16, True)),
        Op("f16x2_e3m2", "b32", "cvt.rn.f16x2.e3m2x2 {d}, {c};",
           lambda p, q, r, s: halves(r, R.E3M2, F16)),
        Op("f16x2_relu_e2m3", "b32",
           ["and.b16 {t}, {c}, 0x3f3f;", "cvt.rn.relu.f16x2.e2m3x2 {d}, {t};"],
           lambda p, q, r, s: halves(r & 0x3F3F, R.E2M3, F16, True), tmp="b16"),
        Op("bf16x2_e2m3", "b32",
           ["and.b16 {t}, {c}, 0x3f3f;", "cvt.rn.bf16x2.e2m3x2 {d}, {t};"],
           lambda p, q, r, s: halves(r & 0x3F3F, R.E2M3, BF16), tmp="b16"),
        # .e2m1x2 from a byte: here the low byte of the .e3m2 pairs.
        Op("f16x2_e2m1", "b32",
           ["cvt.u8.u16 {t}, {c};", "cvt.rn.f16x2.e2m1x2 {d}, {t};"],
           lambda p, q, r, s: halves(r & 0xFF, R.E2M1, F16, width=4), tmp="b8"),
        Op("f16x2_relu_e2m1", "b32",
           ["cvt.u8.u16 {t}, {c};", "cvt.rn.relu.f16x2.e2m1x2 {d}, {t};"],
           lambda p, q, r, s: halves(r & 0xFF, R.E2M1, F16, True, width=4),
           tmp="b8"),
        Op("bf16x2_ue8m0", "b32", "cvt.rn.bf16x2.ue8m0x2 {d}, {e};",
           lambda p, q, r, s: halves(s, R.UE8M0, BF16)),
    ]
    # NaN codes give NaN: .e4m3 0x7f/0xff, .e5m2 above infinity, .ue8m0 0xff.
    for name, ptype, code, dst in (("e4m3", "e4m3x2", 0xFF01, "f16x2"),
                                   ("e5m2", "e5m2x2", 0x7D80, "f16x2"),
                                   ("ue8m0", "ue8m0x2", 0xFF7F, "bf16x2")):
        ops.append(Op("nan_%s" % name, "u32",
                      ["mov.b16 {t2}, %d;" % code,
                       "cvt.rn.%s.%s {t}, {t2};" % (dst, ptype),
                       "setp.nan.%s {p}|{q}, {t}, {t};" % dst,
                       "selp.u32 {d}, 1, 0, {p};", "selp.u32 {t1}, 2, 0, {q};",
                       "add.u32 {d}, {d}, {t1};"],
                      lambda p, q, r, s: 2, tmp=["b32", "u32", "b16"]))
    return Test("cvt-from-narrow", """
cvt from the packed narrow formats to .f16x2 and .bf16x2 is exact (the upper
code to the upper half): subnormal codes, the largest values, .e5m2's
infinities, signed zeros; .relu makes negative values +0; .ue8m0's code 0
is 2^-127. NaN codes give NaN (only the upper element is one here).
""", ins, ops)


@test
def cvt_tf32():
    vals = ["1", "-1", "0x1.0018p0", "0x1.0008p0", "0x1.0010p0", "0x1.001p0",
            "0x1.0030p0", "-0x1.0030p0", "0x1.fffffep127", "0x1.ffep127",
            "0x1.ffdp127", "inf", "-inf", "0", "-0", "1e-45", "0x1p-136",
            "0x1.8p-136", "0x1p-137", "0x1.004p-126", "-0x1.fffp-1", "0.1",
            "3.14159265", "-2.5e-20", "65504.5", "0x1.7ffp0", "0x1.ffffp-1",
            "-0x1.0028p5"]
    a = [R.parse_exact(x, F32) for x in vals]
    ops = []
    for mode in ("rna", "rn", "rz"):
        for sat in (False, True):
            for relu in ((False, True) if mode != "rna" else (False,)):
                name = "cvt_%s%s%s" % (mode, "_satfinite" if sat else "",
                                       "_relu" if relu else "")
                ops.append(Op(name, "b32",
                              "cvt.%s%s%s.tf32.f32 {d}, {a};" % (
                                  mode, ".satfinite" if sat else "",
                                  ".relu" if relu else ""),
                              lambda a, m=mode, s=sat, r=relu:
                                  R.cvt_to_tf32(a, m, s, r)))
    ops.append(Op("nan_rna", "u32",
                  ["cvt.rna.tf32.f32 {t}, 0f7FC00001;", "mov.b32 {t1}, {t};",
                   "testp.notanumber.f32 {p}, {t1};", "selp.u32 {d}, 1, 0, {p};"],
                  lambda a: 1, tmp=["b32", "f32"]))
    return Test("cvt-tf32", """
cvt to .tf32 keeps an .f32's sign and exponent and rounds its mantissa to 10
bits (the low 13 bits are zero): ties away from zero (.rna), to even (.rn)
or toward zero (.rz), subnormals at the same bit; rounding the largest
values up gives infinity, which .satfinite clamps to 0x7f7fe000; .relu
makes negative results +0; NaN stays NaN.
""", [Input("a", "f32", a)], ops)


@test
def cvt_pack():
    a = Input("a", "s32", [0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768,
                           -32768, -32769, 65535, 65536, 2147483647, -2147483648,
                           7, 8, -8, -9, 15, 16, 1, 2, -2, -3, 3, 100, -100, 5, 6])
    b = Input("b", "s32", [5, -5, 300, -300, 0, 1, 2, -2, 70000, -70000, 9, -9, 1,
                           2, 3, 4, -1, 16, 8, 7, -7, -8, 0, 2, 1, 3, -1, -2, 127,
                           -128, 255, 256])
    c = Input("c", "u32", [0x12345678, 0xFFFFFFFF, 0, 0x80000000, 0xDEADBEEF,
                           0x01020304, 0xAAAAAAAA, 0x55555555] * 4)
    ops = [Op("pack_%s" % t, "u32", "cvt.pack.sat.%s.s32 {d}, {a}, {b};" % t,
              lambda a, b, c, t=t: R.cvt_pack_sat(t, a, b))
           for t in ("u16", "s16")]
    ops += [Op("pack_%s" % t, "u32", "cvt.pack.sat.%s.s32.b32 {d}, {a}, {b}, {c};" % t,
               lambda a, b, c, t=t: R.cvt_pack_sat(t, a, b, c))
            for t in ("u8", "s8", "u4", "s4", "u2", "s2")]
    ops.append(Op("pack_u8_chain", "u32",
                  ["cvt.pack.sat.u8.s32.b32 {t}, {a}, {b}, 0;",
                   "cvt.pack.sat.u8.s32.b32 {d}, {b}, {a}, {t};"],
                  lambda a, b, c: R.cvt_pack_sat("u8", b, a,
                                                 R.cvt_pack_sat("u8", a, b, 0)),
                  tmp="b32"))
    return Test("cvt-pack", """
cvt.pack.sat clamps two .s32 values to a narrow integer type and packs them
(b in the lowest bits, a above it); the 8-, 4- and 2-bit forms fill the
rest of d with the low bits of c, so two of them pack four bytes.
""", [a, b, c], ops)
