"""cvt: integer to integer (with and without .sat), float to integer in each
integer rounding mode (saturating, NaN rules), integer to float and float to
float in each rounding mode, .ftz, .sat, .relu, packing."""

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
