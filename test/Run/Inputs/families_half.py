"""Half precision: .f16, .bf16 and the packed .f16x2/.bf16x2 forms of add,
sub, mul, fma, min, max, neg, abs."""

import random

from testgen import Test, Op, Input, test
import ptxref as R
from ptxref import F16, BF16

HALF_PAIRS = [
    ("1", "0x1p-11"),        # a tie: stays 1
    ("1", "0x1.8p-11"),
    ("0x1.004p0", "0x1p-11"),  # a tie that rounds up to even
    ("65504", "65504"),      # overflow
    ("-65504", "-32"),       # rounds back to -65504
    ("0x1p-24", "0x1p-24"),  # subnormals
    ("0x1p-14", "-0x1p-15"),
    ("1", "-1"), ("-0", "-0"), ("0", "-0"), ("inf", "-inf"), ("nan", "1"),
    ("0.1", "0.2"), ("0.75", "0.5"), ("-0.75", "0.25"), ("3", "0.33325195"),
    ("3", "0x1.00cp0"),      # fma: a*b is a midpoint, c tips it
]


def halves(pairs, f, lanes, seed):
    rng = random.Random(seed)
    a = [R.parse_exact(x, f) for x, _ in pairs]
    b = [R.parse_exact(y, f) for _, y in pairs]
    e = (f.bits - f.mbits - 1)
    while len(a) < lanes:
        for lst in (a, b):
            exp = rng.randint((1 << (e - 1)) - 8, (1 << (e - 1)) + 6)
            lst.append((rng.getrandbits(1) << (f.bits - 1)) | (exp << f.mbits)
                       | rng.getrandbits(f.mbits))
    return a, b


def sat(r, f):
    return R.saturate(r, f)


def relu(r, f):
    """.relu: negative results become +0; NaN the canonical NaN."""
    if r is None or R.is_nan(r, f):
        return R.CANONICAL_NAN[f.name]
    return 0 if R.is_neg(r, f) else r  # -0 too: max(r, +0), -0 < +0


def nan_or(x, f, r):
    """abs and neg of a NaN give the canonical NaN (the ISA leaves the NaN
    unspecified; an H200 gives the canonical one), else r."""
    return R.CANONICAL_NAN[f.name] if R.is_nan(x, f) else r


def fma(a, b, c, f, ftz=False):
    return R.f_fma(a, b, c, f, "rn", ftz=ftz)


@test
def f16_arith():
    a, b = halves(HALF_PAIRS, F16, 24, 16)
    c = [R.parse_exact(x, F16) for x in
         ["-1", "1", "0x1p-11", "-65504", "0", "0", "0x1p-24", "0", "-0", "0", "1",
          "1", "0.3", "0.5", "-0.5", "-1", "0x1p-24"]]
    rng = random.Random(17)
    while len(c) < len(a):
        c.append(rng.getrandbits(16) & 0x7BFF)
    return Test("f16-arith", """
.f16 arithmetic rounds once to half precision (ties to even, overflow to
inf, subnormals kept unless .ftz); fma is a single rounding of a*b+c (the
last fixed lane, 3 * 0x1.00cp0 + 2^-24, goes wrong when rounded through
.f32 first); .sat clamps to [0, 1]; .relu clamps negative results to +0
and NaN to the canonical NaN (printed as bits), as abs and neg do with a
NaN; min/max follow the .f32 rules.
""", [Input("a", "f16", a), Input("b", "f16", b), Input("c", "f16", c)], [
        Op("add", "f16", "add.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_add(a, b, F16)),
        Op("add_ftz", "f16", "add.ftz.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_add(a, b, F16, ftz=True)),
        Op("add_sat", "f16", "add.sat.f16 {d}, {a}, {b};",
           lambda a, b, c: sat(R.f_add(a, b, F16), F16)),
        Op("sub", "f16", "sub.rn.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_add(a, b, F16, sub=True)),
        Op("mul", "f16", "mul.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_mul(a, b, F16)),
        Op("mul_ftz", "f16", "mul.ftz.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_mul(a, b, F16, ftz=True)),
        Op("fma", "f16", "fma.rn.f16 {d}, {a}, {b}, {c};",
           lambda a, b, c: fma(a, b, c, F16)),
        Op("fma_sat", "f16", "fma.rn.sat.f16 {d}, {a}, {b}, {c};",
           lambda a, b, c: sat(fma(a, b, c, F16), F16)),
        Op("fma_relu", "b16", "fma.rn.relu.f16 {d}, {a}, {b}, {c};",
           lambda a, b, c: relu(fma(a, b, c, F16), F16)),
        Op("min", "f16", "min.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_min_max(a, b, F16, False)),
        Op("max_NaN", "b16", "max.NaN.f16 {d}, {a}, {b};",
           lambda a, b, c: R.f_min_max(a, b, F16, True, nan_mode=True)),
        Op("neg", "b16", "neg.f16 {d}, {a};",
           lambda a, b, c: nan_or(a, F16, a ^ 0x8000)),
        Op("abs", "b16", "abs.f16 {d}, {a};",
           lambda a, b, c: nan_or(a, F16, a & 0x7FFF)),
    ])


@test
def bf16_arith():
    pairs = [("1", "0x1p-8"), ("1", "0x1.8p-8"), ("0x1.02p0", "0x1p-8"),
             ("3.3895313892515355e38", "3.3895313892515355e38"), ("1", "-1"),
             ("-0", "-0"), ("0x1p-133", "0x1p-133"), ("0x1p-126", "-0x1p-127"),
             ("nan", "1"), ("0.1", "0.2"), ("inf", "1"), ("3", "0.333984375"),
             ("3", "0x1.06p0")]
    a, b = halves(pairs, BF16, 16, 18)
    c = [R.parse_exact(x, BF16) for x in
         ["-1", "1", "0x1p-8", "0", "0", "-0", "0", "0", "1", "0.3", "-inf", "-1",
          "0x1p-133"]]
    rng = random.Random(19)
    while len(c) < len(a):
        c.append(rng.getrandbits(16) & 0x7F7F)
    return Test("bf16-arith", """
.bf16 arithmetic rounds once to bfloat16, subnormal results included; the
last fixed lane's fma (3 * 0x1.06p0 + 2^-133) needs a single rounding.
""", [Input("a", "bf16", a), Input("b", "bf16", b), Input("c", "bf16", c)], [
        Op("add", "bf16", "add.rn.bf16 {d}, {a}, {b};",
           lambda a, b, c: R.f_add(a, b, BF16)),
        Op("sub", "bf16", "sub.rn.bf16 {d}, {a}, {b};",
           lambda a, b, c: R.f_add(a, b, BF16, sub=True)),
        Op("mul", "bf16", "mul.rn.bf16 {d}, {a}, {b};",
           lambda a, b, c: R.f_mul(a, b, BF16)),
        Op("fma", "bf16", "fma.rn.bf16 {d}, {a}, {b}, {c};",
           lambda a, b, c: fma(a, b, c, BF16)),
        Op("fma_relu", "b16", "fma.rn.relu.bf16 {d}, {a}, {b}, {c};",
           lambda a, b, c: relu(fma(a, b, c, BF16), BF16)),
        Op("min", "bf16", "min.bf16 {d}, {a}, {b};",
           lambda a, b, c: R.f_min_max(a, b, BF16, False)),
        Op("max", "bf16", "max.bf16 {d}, {a}, {b};",
           lambda a, b, c: R.f_min_max(a, b, BF16, True)),
        Op("neg", "b16", "neg.bf16 {d}, {a};",
           lambda a, b, c: nan_or(a, BF16, a ^ 0x8000)),
    ])


@test
def half_packed():
    finite = [p for p in HALF_PAIRS if "inf" not in p[0] + p[1] and "nan" not in p[0] + p[1]]
    a, b = halves(finite, F16, 16, 20)
    # Each packed operand pairs two different lanes' values.
    x = [a[i] << 16 | b[(i + 5) % 16] for i in range(16)]
    y = [b[i] << 16 | a[(i + 3) % 16] for i in range(16)]
    z = [(R.parse_exact(str(i + 1), BF16) << 16) | R.parse_exact(str(-0.375 * i), BF16)
         for i in range(16)]
    z[3] = (R.parse_exact("0x1p-126", BF16) << 16) | R.parse_exact("1.0078125", BF16)

    def halves_of(fn, *vs):
        r = 0
        for sh in (16, 0):
            v = fn(*[(w >> sh) & 0xFFFF for w in vs])
            assert v is not None, "a NaN result: its payload is unspecified"
            r |= v << sh
        return r
    return Test("half-packed", """
.f16x2 and .bf16x2 operate on the two halves independently (the results
are printed as packed bits, so no input makes a NaN, whose payload the ISA
leaves unspecified).
""", [Input("x", "b32", x), Input("y", "b32", y), Input("z", "b32", z)], [
        Op("add_f16x2", "b32", "add.f16x2 {d}, {a}, {b};",
           lambda x, y, z: halves_of(lambda p, q: R.f_add(p, q, F16), x, y)),
        Op("mul_ftz_f16x2", "b32", "mul.ftz.f16x2 {d}, {a}, {b};",
           lambda x, y, z: halves_of(lambda p, q: R.f_mul(p, q, F16, ftz=True), x, y)),
        Op("fma_f16x2", "b32", "fma.rn.f16x2 {d}, {a}, {b}, {a};",
           lambda x, y, z: halves_of(lambda p, q: R.f_fma(p, q, p, F16), x, y)),
        Op("min_f16x2", "b32", "min.f16x2 {d}, {a}, {b};",
           lambda x, y, z: halves_of(lambda p, q: R.f_min_max(p, q, F16, False), x, y)),
        Op("neg_f16x2", "b32", "neg.f16x2 {d}, {a};",
           lambda x, y, z: x ^ 0x80008000),
        Op("add_bf16x2", "b32", "add.rn.bf16x2 {d}, {c}, {b};",
           lambda x, y, z: halves_of(lambda p, q: R.f_add(p, q, BF16), z, y)),
        Op("mul_bf16x2", "b32", "mul.rn.bf16x2 {d}, {c}, {c};",
           lambda x, y, z: halves_of(lambda p, q: R.f_mul(p, q, BF16), z, z)),
    ])
