"""Floating-point arithmetic families: every rounding mode, .ftz, .sat,
special values (NaN, infinities, signed zeros, subnormals)."""

import random

from testgen import Test, Op, Input, test
import ptxref as R
from ptxref import F32, F64

MODES = ["rn", "rz", "rm", "rp"]



def b32(x):
    return R.parse_exact(x, F32) if isinstance(x, str) else x


MAX32 = 0x7F7FFFFF
MIN_NORMAL32 = 0x00800000
MAX_SUB32 = 0x007FFFFF
MIN_SUB32 = 0x00000001
NEG = 0x80000000
INF32 = 0x7F800000
NAN32 = 0x7FC00000


def rand_f32(rng, lo_exp=-20, hi_exp=20):
    """A random f32 with a moderate exponent, so that operations round."""
    e = rng.randint(lo_exp, hi_exp) + 127
    return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)


def rand_f64(rng, lo_exp=-40, hi_exp=40):
    e = rng.randint(lo_exp, hi_exp) + 1023
    return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)


# Pairs chosen so that the four rounding modes give different results, plus
# special values and subnormals.
ADD_PAIRS_32 = [
    ("1", "0x1p-24"),            # a tie: rn keeps 1 (even)
    ("1", "0x1.8p-24"),          # 0.75 ulp of 1 above
    ("-1", "-0x1p-24"),
    ("1", "-0x1p-25"),           # just below 1
    ("0x1.000002p0", "0x1p-24"),  # a tie that rounds up to even
    ("-1.5", "0x1p-30"),
    ("3.4028234663852886e38", "3.4028234663852886e38"),   # overflow
    ("-3.4028234663852886e38", "-3.4028234663852886e38"),
    ("3.4028234663852886e38", "0x1p103"),  # overflow by a hair in rp only
    ("1", "-1"),                 # exact zero: -0 in .rm
    ("-0", "-0"),
    ("0", "-0"),
    ("0x1p-149", "0x1p-149"),    # subnormals: flushed by .ftz
    ("0x1p-126", "-0x1p-127"),   # a subnormal result
    ("-0x1p-149", "0x1p-126"),
    ("inf", "-inf"),
    ("inf", "1"),
    ("-inf", "-inf"),
    ("nan", "1"),
    ("0.5", "0.25"),
    ("0.1", "0.2"),
    ("1e30", "-1e30"),
    ("0.75", "0.5"),              # .sat clamps to 1
    ("-0.75", "0.5"),             # .sat clamps to 0
]


def padded(pairs, lanes, rng, gen):
    a = [b32(x) if isinstance(x, str) else x for x, _ in pairs]
    b = [b32(y) if isinstance(y, str) else y for _, y in pairs]
    while len(a) < lanes:
        a.append(gen(rng))
        b.append(gen(rng))
    return a, b


def ftz(fmt, flag):
    return flag and fmt is F32


@test
def f32_add_sub():
    rng = random.Random(32)
    a, b = padded(ADD_PAIRS_32, 32, rng, rand_f32)
    ops = []
    for m in MODES:
        ops.append(Op("add_" + m, "f32", "add.%s.f32 {d}, {a}, {b};" % m,
                      lambda a, b, m=m: R.f_add(a, b, F32, m)))
    for m in ("rn", "rm"):
        ops.append(Op("sub_" + m, "f32", "sub.%s.f32 {d}, {a}, {b};" % m,
                      lambda a, b, m=m: R.f_add(a, b, F32, m, sub=True)))
    ops += [
        Op("add", "f32", "add.f32 {d}, {a}, {b};", lambda a, b: R.f_add(a, b, F32)),
        Op("add_ftz", "f32", "add.ftz.f32 {d}, {a}, {b};",
           lambda a, b: R.f_add(a, b, F32, ftz=True)),
        Op("add_rp_ftz", "f32", "add.rp.ftz.f32 {d}, {a}, {b};",
           lambda a, b: R.f_add(a, b, F32, "rp", ftz=True)),
        Op("add_sat", "f32", "add.sat.f32 {d}, {a}, {b};",
           lambda a, b: R.saturate(R.f_add(a, b, F32), F32)),
        Op("sub_rz_ftz_sat", "f32", "sub.rz.ftz.sat.f32 {d}, {a}, {b};",
           lambda a, b: R.saturate(R.f_add(a, b, F32, "rz", ftz=True, sub=True), F32)),
    ]
    return Test("f32-add-sub", """
add and sub on .f32 in every rounding mode (.rn ties to even; .rz .rm .rp
directed, including overflow to the largest finite value and the sign of
exact zeros), .ftz on subnormal inputs and results, .sat clamping to [0, 1]
with NaN to +0.
""", [Input("a", "f32", a), Input("b", "f32", b)], ops)


MUL_PAIRS_32 = [
    ("3", "0x1.555556p-2"),      # 3 * (1/3 rounded up)
    ("0x1.000002p0", "0x1.000002p0"),
    ("-0x1.000002p0", "0x1.000002p0"),
    ("0x1.fffffep127", "2"),     # overflow
    ("-0x1.fffffep127", "2"),
    ("0x1p-100", "0x1p-60"),     # subnormal result
    ("0x1p-100", "-0x1.8p-49"),  # half the smallest subnormal and more
    ("0x1p-100", "0x1p-50"),     # exactly half the smallest subnormal: tie
    ("0x1p-149", "0.5"),
    ("0", "-5"),
    ("-0", "-0"),
    ("inf", "0"),
    ("-inf", "-2"),
    ("nan", "0"),
    ("0.1", "10"),
    ("0x1p-126", "0.75"),        # normal times 0.75: subnormal, ftz flushes
    ("0x1.8p-127", "2"),         # subnormal input, normal result
    ("0.6", "1.5"),
    ("-0.6", "1.5"),
]


@test
def f32_mul():
    rng = random.Random(33)
    a, b = padded(MUL_PAIRS_32, 32, rng, rand_f32)
    ops = [Op("mul_" + m, "f32", "mul.%s.f32 {d}, {a}, {b};" % m,
              lambda a, b, m=m: R.f_mul(a, b, F32, m)) for m in MODES]
    ops += [
        Op("mul", "f32", "mul.f32 {d}, {a}, {b};", lambda a, b: R.f_mul(a, b, F32)),
        Op("mul_ftz", "f32", "mul.ftz.f32 {d}, {a}, {b};",
           lambda a, b: R.f_mul(a, b, F32, ftz=True)),
        Op("mul_rm_ftz", "f32", "mul.rm.ftz.f32 {d}, {a}, {b};",
           lambda a, b: R.f_mul(a, b, F32, "rm", ftz=True)),
        Op("mul_sat", "f32", "mul.sat.f32 {d}, {a}, {b};",
           lambda a, b: R.saturate(R.f_mul(a, b, F32), F32)),
    ]
    return Test("f32-mul", """
mul on .f32 in every rounding mode, with overflow, gradual underflow (and
ties at the smallest subnormal), .ftz and .sat.
""", [Input("a", "f32", a), Input("b", "f32", b)], ops)


FMA_TRIPLES_32 = [
    ("0x1.000002p0", "0x1.000002p0", "-1"),   # the product's low bits survive
    ("0x1.000002p0", "-0x1.000002p0", "1"),
    ("1", "1", "0x1p-24"),                    # a tie
    ("3", "0x1.555556p-2", "-1"),
    ("0x1.fffffep127", "2", "-0x1.fffffep127"),  # no intermediate overflow
    ("0x1p-75", "0x1p-75", "0"),              # subnormal result
    ("1", "-1", "1"),                         # exact zero
    ("-0", "1", "-0"),
    ("0", "-1", "0"),
    ("inf", "0", "1"),
    ("inf", "1", "-inf"),
    ("2", "3", "inf"),
    ("nan", "1", "1"),
    ("0.5", "0.5", "0.5"),                    # 0.75 passes .sat
    ("2", "0.5", "0.5"),                      # 1.5: .sat gives 1
    ("0x1p-126", "0.5", "0"),                 # subnormal, ftz flushes
    ("0x1p-149", "0x1p100", "1"),             # subnormal input
]


@test
def f32_fma():
    rng = random.Random(34)
    trip = [tuple(b32(x) for x in t) for t in FMA_TRIPLES_32]
    while len(trip) < 32:
        trip.append((rand_f32(rng), rand_f32(rng), rand_f32(rng, -40, 40)))
    a, b, c = ([t[i] for t in trip] for i in range(3))
    ops = [Op("fma_" + m, "f32", "fma.%s.f32 {d}, {a}, {b}, {c};" % m,
              lambda a, b, c, m=m: R.f_fma(a, b, c, F32, m)) for m in MODES]
    ops += [
        Op("mad_rn", "f32", "mad.rn.f32 {d}, {a}, {b}, {c};",
           lambda a, b, c: R.f_fma(a, b, c, F32, "rn")),
        Op("fma_rn_ftz", "f32", "fma.rn.ftz.f32 {d}, {a}, {b}, {c};",
           lambda a, b, c: R.f_fma(a, b, c, F32, "rn", ftz=True)),
        Op("fma_rz_ftz_sat", "f32", "fma.rz.ftz.sat.f32 {d}, {a}, {b}, {c};",
           lambda a, b, c: R.saturate(R.f_fma(a, b, c, F32, "rz", ftz=True), F32)),
        Op("mad_rp_sat", "f32", "mad.rp.sat.f32 {d}, {a}, {b}, {c};",
           lambda a, b, c: R.saturate(R.f_fma(a, b, c, F32, "rp"), F32)),
    ]
    return Test("f32-fma", """
fma (and mad with a rounding mode, which is fma) on .f32: one rounding of
the exact a*b+c, in every mode, with .ftz and .sat.
""", [Input("a", "f32", a), Input("b", "f32", b), Input("c", "f32", c)], ops)


DIV_PAIRS_32 = [
    ("1", "3"), ("-1", "3"), ("2", "3"), ("1", "10"), ("-5", "7"),
    ("1", "0"), ("-1", "0"), ("0", "0"), ("-0", "5"), ("inf", "inf"),
    ("1", "inf"), ("-1", "inf"), ("nan", "1"),
    ("0x1p-126", "3"),            # subnormal quotient
    ("0x1p-149", "2"),            # a tie at the smallest subnormal
    ("0x1.8p-149", "2"),
    ("3.4028234663852886e38", "0.5"),   # overflow
    ("0x1p127", "0x1p-10"),
    ("0x1p-149", "0x1p-149"),     # .ftz: 0/0
    ("7", "0x1p-149"),
    ("0.25", "0.5"),
]


@test
def f32_div():
    rng = random.Random(35)
    a, b = padded(DIV_PAIRS_32, 32, rng, rand_f32)
    ops = [Op("div_" + m, "f32", "div.%s.f32 {d}, {a}, {b};" % m,
              lambda a, b, m=m: R.f_div(a, b, F32, m)) for m in MODES]
    ops += [
        Op("div_rn_ftz", "f32", "div.rn.ftz.f32 {d}, {a}, {b};",
           lambda a, b: R.f_div(a, b, F32, "rn", ftz=True)),
        Op("div_rp_ftz", "f32", "div.rp.ftz.f32 {d}, {a}, {b};",
           lambda a, b: R.f_div(a, b, F32, "rp", ftz=True)),
    ]
    return Test("f32-div", """
div on .f32 with IEEE rounding in every mode: correctly rounded quotients,
division by zero and infinities, subnormal quotients, .ftz.
""", [Input("a", "f32", a), Input("b", "f32", b)], ops)


UNARY_32 = ["1", "2", "3", "0.1", "10", "-4", "0", "-0", "inf", "-inf", "nan",
            "0x1p-149", "0x1p-126", "0x1.fffffcp-127", "0x1p126", "0x1p-127",
            "3.4028234663852886e38", "0x1.000002p0", "0x1.fffffep-1", "7",
            "0x1p-2", "1e-40"]


@test
def f32_rcp_sqrt():
    rng = random.Random(36)
    a = [b32(x) for x in UNARY_32]
    while len(a) < 32:
        a.append(rand_f32(rng) & 0x7FFFFFFF)
    one = b32("1")
    ops = []
    for m in MODES:
        ops.append(Op("rcp_" + m, "f32", "rcp.%s.f32 {d}, {a};" % m,
                      lambda a, m=m: R.f_div(one, a, F32, m)))
    ops.append(Op("rcp_rn_ftz", "f32", "rcp.rn.ftz.f32 {d}, {a};",
                  lambda a: R.f_div(one, a, F32, "rn", ftz=True)))
    for m in MODES:
        ops.append(Op("sqrt_" + m, "f32", "sqrt.%s.f32 {d}, {a};" % m,
                      lambda a, m=m: R.f_sqrt(a, F32, m)))
    ops.append(Op("sqrt_rn_ftz", "f32", "sqrt.rn.ftz.f32 {d}, {a};",
                  lambda a: R.f_sqrt(a, F32, "rn", ftz=True)))
    return Test("f32-rcp-sqrt", """
rcp and sqrt on .f32 with IEEE rounding in every mode; sqrt(-0) is -0,
sqrt of a negative number NaN; .ftz flushes subnormal inputs and results.
""", [Input("a", "f32", a)], ops)


@test
def f64_arith():
    rng = random.Random(64)
    pairs = [("1", "0x1p-53"), ("1", "0x1.8p-53"), ("-1", "-0x1p-53"),
             ("1", "-0x1p-54"), ("0x1.fffffffffffffp1023", "0x1.fffffffffffffp1023"),
             ("1", "-1"), ("-0", "-0"), ("0x1p-1074", "0x1p-1074"),
             ("0x1p-1022", "-0x1p-1023"), ("inf", "-inf"), ("nan", "2"),
             ("1", "3"), ("0x1.0000000000001p0", "0x1.0000000000001p0"),
             ("0x1p-600", "0x1p-500"), ("2", "0"), ("0.1", "0.2")]
    a = [R.parse_exact(x, F64) for x, _ in pairs]
    b = [R.parse_exact(y, F64) for _, y in pairs]
    c = [R.parse_exact(z, F64) for z in
         ["-1", "1", "0x1p-53", "0", "-inf", "0", "-0", "0", "0x1p-1074", "1",
          "1", "-0.25", "-1", "0", "1", "0.3"]]
    while len(a) < 24:
        a.append(rand_f64(rng))
        b.append(rand_f64(rng))
        c.append(rand_f64(rng, -80, 80))
    ops = []
    for m in MODES:
        ops.append(Op("add_" + m, "f64", "add.%s.f64 {d}, {a}, {b};" % m,
                      lambda a, b, c, m=m: R.f_add(a, b, F64, m)))
    ops.append(Op("sub_rm", "f64", "sub.rm.f64 {d}, {a}, {b};",
                  lambda a, b, c: R.f_add(a, b, F64, "rm", sub=True)))
    for m in MODES:
        ops.append(Op("mul_" + m, "f64", "mul.%s.f64 {d}, {a}, {b};" % m,
                      lambda a, b, c, m=m: R.f_mul(a, b, F64, m)))
    for m in MODES:
        ops.append(Op("fma_" + m, "f64", "fma.%s.f64 {d}, {a}, {b}, {c};" % m,
                      lambda a, b, c, m=m: R.f_fma(a, b, c, F64, m)))
    return Test("f64-arith", """
add, sub, mul and fma on .f64 in every rounding mode, with overflow,
subnormals, signed zeros and NaN.
""", [Input("a", "f64", a), Input("b", "f64", b), Input("c", "f64", c)], ops)


@test
def f64_div_rcp_sqrt():
    rng = random.Random(65)
    pairs = [("1", "3"), ("-1", "3"), ("2", "3"), ("1", "10"), ("1", "0"),
             ("0", "0"), ("-0", "5"), ("inf", "inf"), ("nan", "1"),
             ("0x1p-1022", "3"), ("0x1p-1074", "2"), ("0x1.8p-1074", "2"),
             ("0x1.fffffffffffffp1023", "0.5"), ("2", "0x1p-1074"),
             ("-0", "-0"), ("0x1p-1073", "0x1p-1"), ("7", "49"), ("-inf", "2")]
    a = [R.parse_exact(x, F64) for x, _ in pairs]
    b = [R.parse_exact(y, F64) for _, y in pairs]
    while len(a) < 24:
        a.append(rand_f64(rng))
        b.append(rand_f64(rng))
    one = R.parse_exact("1", F64)
    ops = []
    for m in MODES:
        ops.append(Op("div_" + m, "f64", "div.%s.f64 {d}, {a}, {b};" % m,
                      lambda a, b, m=m: R.f_div(a, b, F64, m)))
    for m in MODES:
        ops.append(Op("rcp_" + m, "f64", "rcp.%s.f64 {d}, {b};" % m,
                      lambda a, b, m=m: R.f_div(one, b, F64, m)))
    for m in MODES:
        ops.append(Op("sqrt_" + m, "f64", "sqrt.%s.f64 {d}, {b};" % m,
                      lambda a, b, m=m: R.f_sqrt(b, F64, m)))
    return Test("f64-div-rcp-sqrt", """
div, rcp and sqrt on .f64 with IEEE rounding in every mode.
""", [Input("a", "f64", a), Input("b", "f64", b)], ops)


MINMAX_PAIRS = [
    ("1", "2"), ("-1", "-2"), ("0", "-0"), ("-0", "0"), ("nan", "1"),
    ("1", "nan"), ("nan", "nan"), ("inf", "-inf"), ("-inf", "nan"),
    ("-3", "2"), ("3", "-2"), ("-5", "-5"), ("0x1p-149", "-0x1p-149"),
    ("-0x1p-149", "0"), ("0x1p-126", "0x1p-149"), ("-7", "0.5"),
]


@test
def f32_min_max():
    a = [b32(x) for x, _ in MINMAX_PAIRS]
    b = [b32(y) for _, y in MINMAX_PAIRS]
    c = [b32(z) for z in ["0", "0", "0.5", "-1", "-1", "nan", "nan", "0", "1",
                          "1", "-10", "-5", "0", "-0", "0x1p-140", "-8"]]
    ops = []
    for name, is_max in (("min", False), ("max", True)):
        ops += [
            Op(name, "f32", "%s.f32 {d}, {a}, {b};" % name,
               lambda a, b, c, x=is_max: R.f_min_max(a, b, F32, x)),
            Op(name + "_ftz", "f32", "%s.ftz.f32 {d}, {a}, {b};" % name,
               lambda a, b, c, x=is_max: R.f_min_max(a, b, F32, x, ftz=True)),
            Op(name + "_NaN", "u32", ["%s.NaN.f32 {t}, {a}, {b};" % name,
                                      "mov.b32 {d}, {t};"],
               lambda a, b, c, x=is_max: R.f_min_max(a, b, F32, x, nan_mode=True),
               tmp="f32"),
            Op(name + "_xorsign_abs", "f32", "%s.xorsign.abs.f32 {d}, {a}, {b};" % name,
               lambda a, b, c, x=is_max: R.f_min_max(a, b, F32, x, absolute=True,
                                                     xorsign=True)),
            Op(name + "3", "f32", "%s.f32 {d}, {a}, {b}, {c};" % name,
               lambda a, b, c, x=is_max: R.f_min_max(
                   R.f_min_max(a, b, F32, x), c, F32, x)),
            Op(name + "3_abs", "f32", "%s.abs.f32 {d}, {a}, {b}, {c};" % name,
               lambda a, b, c, x=is_max: R.f_min_max(
                   R.f_min_max(a, b, F32, x, absolute=True), c, F32, x,
                   absolute=True)),
        ]
    return Test("f32-min-max", """
min and max on .f32: the non-NaN operand wins, NaN only when both are NaN;
-0 < +0; .NaN propagates NaN as the canonical NaN 0x7fffffff (printed as
bits); .abs compares magnitudes and .xorsign sets the sign to the XOR of
the inputs' signs; three inputs; .ftz flushes subnormal inputs.
""", [Input("a", "f32", a), Input("b", "f32", b), Input("c", "f32", c)], ops)


@test
def f64_min_max_abs_neg():
    pairs = [("1", "2"), ("-1", "-2"), ("0", "-0"), ("-0", "0"), ("nan", "1"),
             ("1", "nan"), ("nan", "nan"), ("inf", "-inf"), ("0x1p-1074", "-1"),
             ("-0x1p-1074", "-0x1p-1073"), ("-nan", "-5")]
    a = [R.parse_exact(x, F64) for x, _ in pairs]
    b = [R.parse_exact(y, F64) for _, y in pairs]
    a[-1] = 0xFFF8000000000123  # a negative NaN with a payload, given as bits
    b[5] = 0x7FF4000000000001   # a signaling NaN
    sign = F64.sign_bit
    return Test("f64-min-max-abs-neg", """
min, max, abs, neg and copysign on .f64 (no flushing: .f64 keeps
subnormals); min/max return the non-NaN operand and order -0 < +0. abs.f64
passes a NaN through unchanged and copysign only moves the sign bit (both
printed as bits); neg of a NaN is some NaN.
""", [Input("a", "f64", a, buffer_type="u64"), Input("b", "f64", b, buffer_type="u64")], [
        Op("min", "f64", "min.f64 {d}, {a}, {b};",
           lambda a, b: R.f_min_max(a, b, F64, False)),
        Op("max", "f64", "max.f64 {d}, {a}, {b};",
           lambda a, b: R.f_min_max(a, b, F64, True)),
        Op("abs", "u64", ["abs.f64 {t}, {a};", "mov.b64 {d}, {t};"],
           lambda a, b: a if R.is_nan(a, F64) else a & ~sign, tmp="f64"),
        Op("neg", "f64", "neg.f64 {d}, {a};", lambda a, b: a ^ sign),
        Op("copysign", "u64", ["copysign.f64 {t}, {a}, {b};", "mov.b64 {d}, {t};"],
           lambda a, b: (b & ~sign) | (a & sign), tmp="f64"),
    ])


@test
def f32_sign_class():
    vals = ["1", "-1", "0", "-0", "inf", "-inf", "nan", "0x1p-149", "-0x1p-149",
            "0x1.fffffcp-127", "0x1p-126", "-0x1p-126", "3.4028234663852886e38",
            "-2.5", "1e-40", "-1e-45"]
    a = [b32(x) for x in vals]
    bsrc = [b32(x) for x in ["-3", "4", "-1", "1", "-0", "0", "-2", "5", "6",
                             "-7", "8", "9", "-1", "nan", "-0x1p-149", "1"]]
    # A NaN with its sign set and a payload, given as bits.
    a[6] = 0xFFC00001
    classes = ["finite", "infinite", "number", "notanumber", "normal", "subnormal"]

    def testp(x, cls):
        nan, inf = R.is_nan(x, F32), R.is_inf(x, F32)
        sub = R.is_subnormal(x, F32)
        return int({"finite": not nan and not inf, "infinite": inf,
                    "number": not nan, "notanumber": nan,
                    # The ISA: "positive and negative zero are considered
                    # normal numbers" (an H200 agrees).
                    "normal": not (nan or inf or sub),
                    "subnormal": sub}[cls])
    ops = [
        Op("abs", "f32", "abs.f32 {d}, {a};", lambda a, b: a & 0x7FFFFFFF),
        Op("neg", "f32", "neg.f32 {d}, {a};", lambda a, b: a ^ 0x80000000),
        Op("abs_ftz", "f32", "abs.ftz.f32 {d}, {a};",
           lambda a, b: R.flush(a, F32) & 0x7FFFFFFF),
        Op("neg_ftz", "f32", "neg.ftz.f32 {d}, {a};",
           lambda a, b: R.flush(a, F32) ^ 0x80000000),
        Op("copysign", "u32", ["copysign.f32 {t}, {a}, {b};", "mov.b32 {d}, {t};"],
           lambda a, b: (b & 0x7FFFFFFF) | (a & 0x80000000), tmp="f32"),
    ]
    for cls in classes:
        ops.append(Op("testp_" + cls, "u32",
                      ["testp.%s.f32 {p}, {a};" % cls, "selp.u32 {d}, 1, 0, {p};"],
                      lambda a, b, c=cls: testp(a, c)))
    return Test("f32-sign-class", """
abs and neg change the sign (of a NaN input they give some NaN, as the ISA
says); copysign moves only the sign bit, keeping b's NaN payload (printed
as bits); .ftz flushes subnormals first. testp
classifies each value: finite, infinite, number, notanumber, normal,
subnormal (the ISA counts both zeros as normal).
""", [Input("a", "f32", a, buffer_type="u32"), Input("b", "f32", bsrc)], ops)
