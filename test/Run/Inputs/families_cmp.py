"""Comparison and selection: setp (every comparison, .and/.or/.xor, p|q),
set, selp, slct."""

from testgen import Test, Op, Input, test, INT_MIN, INT_MAX
import ptxref as R
from ptxref import F32, F64
from ptxref import to_unsigned

FLOAT_CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu",
              "gtu", "geu", "num", "nan"]

FLOAT_PAIRS = [
    ("1", "2"), ("2", "1"), ("1", "1"), ("0", "-0"), ("-0", "0"), ("nan", "1"),
    ("1", "nan"), ("nan", "nan"), ("inf", "inf"), ("-inf", "inf"),
    ("inf", "3.4028234663852886e38"), ("0x1p-149", "0"), ("-0x1p-149", "0"),
    ("0x1p-149", "0x1p-148"), ("-1", "-2"), ("-3", "3"),
]


def b32(x):
    return R.parse_exact(x, F32)


@test
def setp_float():
    a = [b32(x) for x, _ in FLOAT_PAIRS]
    b = [b32(y) for _, y in FLOAT_PAIRS]
    ops = []
    for cmp in FLOAT_CMPS:
        ops.append(Op("setp_" + cmp, "u32",
                      ["setp.%s.f32 {p}, {a}, {b};" % cmp, "selp.u32 {d}, 1, 0, {p};"],
                      lambda a, b, c=cmp: int(R.compare(a, b, F32, c))))
    for cmp in ("eq", "lt", "neu"):
        ops.append(Op("setp_%s_ftz" % cmp, "u32",
                      ["setp.%s.ftz.f32 {p}, {a}, {b};" % cmp,
                       "selp.u32 {d}, 1, 0, {p};"],
                      lambda a, b, c=cmp: int(R.compare(a, b, F32, c, ftz=True))))
    return Test("setp-float", """
setp on .f32 with every comparison operator: ordered ones are false when an
operand is NaN, unordered ones (equ ... geu) true; num and nan test for NaN.
-0 equals +0; .ftz compares subnormals as zeros.
""", [Input("a", "f32", a), Input("b", "f32", b)], ops)


@test
def setp_f64_and_bool():
    pairs = [("1", "2"), ("2", "1"), ("nan", "1"), ("0", "-0"), ("-inf", "1"),
             ("0x1p-1074", "0"), ("5", "5"), ("nan", "nan")]
    a = [R.parse_exact(x, F64) for x, _ in pairs]
    b = [R.parse_exact(y, F64) for _, y in pairs]
    c = [1, 0, 1, 0, 1, 1, 0, 0]

    def both(t, c, op):
        f = {"and": lambda x, y: x and y, "or": lambda x, y: x or y,
             "xor": lambda x, y: x != y}[op]
        return int(f(t, c)) + 2 * int(f(not t, c))
    ops = [Op("setp_lt_f64", "u32", ["setp.lt.f64 {p}, {a}, {b};",
                                     "selp.u32 {d}, 1, 0, {p};"],
              lambda a, b, c: int(R.compare(a, b, F64, "lt"))),
           Op("setp_geu_f64", "u32", ["setp.geu.f64 {p}, {a}, {b};",
                                      "selp.u32 {d}, 1, 0, {p};"],
              lambda a, b, c: int(R.compare(a, b, F64, "geu")))]
    for bop in ("and", "or", "xor"):
        ops.append(Op("setp_le_%s_pq" % bop, "u32",
                      ["setp.ne.u32 {t}, {c}, 0;",
                       "setp.le.%s.f64 {p}|{q}, {a}, {b}, {t};" % bop,
                       "selp.u32 {d}, 1, 0, {p};", "selp.u32 {t1}, 2, 0, {q};",
                       "add.u32 {d}, {d}, {t1};"],
                      lambda a, b, c, o=bop: both(R.compare(a, b, F64, "le"), c, o),
                      tmp=["pred", "u32"]))
    ops.append(Op("setp_nan_and_not_c", "u32",
                  ["setp.ne.u32 {t}, {c}, 0;",
                   "setp.nan.and.f64 {p}, {a}, {b}, !{t};",
                   "selp.u32 {d}, 1, 0, {p};"],
                  lambda a, b, c: int(R.compare(a, b, F64, "nan") and not c),
                  tmp="pred"))
    return Test("setp-f64-bool", """
setp on .f64, and the Boolean forms: p = (a cmp b) BoolOp c and, with a
second destination p|q, q = !(a cmp b) BoolOp c (printed as p + 2*q); the
predicate c may be negated.
""", [Input("a", "f64", a), Input("b", "f64", b), Input("c", "u32", c)], ops)


@test
def setp_int():
    a = Input("a", "s32", [0, 1, -1, INT_MIN, INT_MAX, 5, -5, 7, INT_MIN, 100])
    b = Input("b", "s32", [0, -1, 1, INT_MAX, INT_MIN, 5, -6, 8, 0, -100])
    u = to_unsigned
    ops = []
    for cmp, f in (("eq", lambda x, y: x == y), ("ne", lambda x, y: x != y),
                   ("lt", lambda x, y: x < y), ("le", lambda x, y: x <= y),
                   ("gt", lambda x, y: x > y), ("ge", lambda x, y: x >= y)):
        ops.append(Op("setp_%s_s32" % cmp, "u32",
                      ["setp.%s.s32 {p}, {a}, {b};" % cmp, "selp.u32 {d}, 1, 0, {p};"],
                      lambda a, b, f=f: int(f(a, b))))
        if cmp in ("lt", "ge"):
            ops.append(Op("setp_%s_u32" % cmp, "u32",
                          ["setp.%s.u32 {p}, {a}, {b};" % cmp,
                           "selp.u32 {d}, 1, 0, {p};"],
                          lambda a, b, f=f: int(f(u(a, 32), u(b, 32)))))
    for cmp, f in (("lo", lambda x, y: x < y), ("ls", lambda x, y: x <= y),
                   ("hi", lambda x, y: x > y), ("hs", lambda x, y: x >= y)):
        ops.append(Op("setp_%s_u32" % cmp, "u32",
                      ["setp.%s.u32 {p}, {a}, {b};" % cmp, "selp.u32 {d}, 1, 0, {p};"],
                      lambda a, b, f=f: int(f(u(a, 32), u(b, 32)))))
    ops += [
        Op("setp_ne_b32", "u32", ["setp.ne.b32 {p}, {a}, {b};",
                                  "selp.u32 {d}, 1, 0, {p};"],
           lambda a, b: int(a != b)),
        Op("setp_lt_s16", "u32", ["cvt.s16.s32 {t}, {a};", "cvt.s16.s32 {t1}, {b};",
                                  "setp.lt.s16 {p}, {t}, {t1};",
                                  "selp.u32 {d}, 1, 0, {p};"],
           lambda a, b: int(R.to_signed(a, 16) < R.to_signed(b, 16)),
           tmp=["s16", "s16"]),
        Op("setp_gt_u64", "u32", ["cvt.s64.s32 {t}, {a};", "cvt.s64.s32 {t1}, {b};",
                                  "setp.gt.u64 {p}, {t}, {t1};",
                                  "selp.u32 {d}, 1, 0, {p};"],
           lambda a, b: int(u(a, 64) > u(b, 64)), tmp=["s64", "s64"]),
        Op("setp_lt_or_pq", "u32",
           ["setp.eq.s32 {t}, {a}, 5;", "setp.lt.or.s32 {p}|{q}, {a}, {b}, {t};",
            "selp.u32 {d}, 1, 0, {p};", "selp.u32 {t1}, 2, 0, {q};",
            "add.u32 {d}, {d}, {t1};"],
           lambda a, b: int(a < b or a == 5) + 2 * int(a >= b or a == 5),
           tmp=["pred", "u32"]),
    ]
    return Test("setp-int", """
setp on integers: signed eq..ge, unsigned lt/ge and lo ls hi hs (the same
bits compare differently), bit-size ne, 16- and 64-bit operands, and the
p|q form with .or.
""", [a, b], ops)


@test
def set_selp_slct():
    pairs = [("1", "2"), ("2", "1"), ("nan", "1"), ("0", "-0"), ("-0x1p-149", "0"),
             ("-1", "-1"), ("inf", "1"), ("-2", "0x1p-149")]
    a = [b32(x) for x, _ in pairs]
    b = [b32(y) for _, y in pairs]
    i = Input("i", "s32", [3, -3, 0, INT_MIN, -1, INT_MAX, 1, -7])
    one = b32("1")
    return Test("set-selp-slct", """
set writes 0xffffffff (integer destinations) or 1.0 (.f32) for true and 0
for false; selp picks a or b by a predicate; slct picks a when c >= 0 (an
.f32 c: -0 counts as >= 0, NaN picks b, .ftz flushes a subnormal c first).
""", [Input("a", "f32", a), Input("b", "f32", b), i], [
        Op("set_lt_u32_f32", "u32", "set.lt.u32.f32 {d}, {a}, {b};",
           lambda a, b, i: 0xFFFFFFFF if R.compare(a, b, F32, "lt") else 0),
        Op("set_gtu_f32_f32", "f32", "set.gtu.f32.f32 {d}, {a}, {b};",
           lambda a, b, i: one if R.compare(a, b, F32, "gtu") else 0),
        Op("set_ge_s32_s32", "s32", "set.ge.s32.s32 {d}, {c}, 0;",
           lambda a, b, i: -1 if i >= 0 else 0),
        Op("set_eq_xor_u32", "u32",
           ["setp.lt.s32 {p}, {c}, 0;", "set.eq.xor.u32.f32 {d}, {a}, {b}, {p};"],
           lambda a, b, i: 0xFFFFFFFF if (R.compare(a, b, F32, "eq") != (i < 0)) else 0),
        Op("selp_f32", "f32", ["setp.gt.s32 {p}, {c}, 0;", "selp.f32 {d}, {a}, {b}, {p};"],
           lambda a, b, i: a if i > 0 else b),
        Op("selp_s32", "s32", ["setp.eq.f32 {p}, {a}, {b};",
                               "selp.s32 {d}, {c}, -5, {p};"],
           lambda a, b, i: i if R.compare(a, b, F32, "eq") else -5),
        Op("slct_s32", "f32", "slct.f32.s32 {d}, {a}, {b}, {c};",
           lambda a, b, i: a if i >= 0 else b),
        Op("slct_f32", "s32", "slct.s32.f32 {d}, {c}, -1, {b};",
           lambda a, b, i: i if (not R.is_nan(b, F32) and
                                 (R.is_zero(b, F32) or not R.is_neg(b, F32))) else -1),
        Op("slct_ftz_f32", "s32", "slct.ftz.s32.f32 {d}, {c}, -1, {a};",
           lambda a, b, i: i if (not R.is_nan(a, F32) and
                                 (R.is_zero(R.flush(a, F32), F32)
                                  or not R.is_neg(a, F32))) else -1),
    ])


# --- Half precision: setp and set on .f16 .f16x2 .bf16 .bf16x2 ---------------

HALF_CMP_PAIRS = [
    ("1", "2"), ("2", "1"), ("1", "1"), ("0", "-0"), ("nan", "1"), ("1", "nan"),
    ("nan", "nan"), ("inf", "inf"), ("-inf", "inf"), ("-1", "-2"), ("-3", "3"),
    ("tiny", "0"), ("-tiny", "0"), ("tiny", "2tiny"), ("-0", "-tiny"),
    ("max", "inf"),
]


def half_bits(text, f):
    """A decimal, "tiny" (the smallest subnormal), "2tiny" or "max"."""
    neg = text.startswith("-")
    t = text.lstrip("-")
    if t in ("tiny", "2tiny"):
        b = 1 if t == "tiny" else 2
    elif t == "max":
        b = f.max_bits()
    else:
        b = R.parse_exact(t, f)
    return b | (f.sign_bit if neg else 0)


def half_setp_test(name, f, ftype, doc, ftz_ok):
    """setp and set on a half format f (.f16 or .bf16) and its packed form."""
    ptype = ftype + "x2"
    a = [half_bits(x, f) for x, _ in HALF_CMP_PAIRS]
    b = [half_bits(y, f) for _, y in HALF_CMP_PAIRS]
    # Packed operands pair each lane's values with another lane's.
    x = [a[i] << 16 | b[(i + 3) % 16] for i in range(16)]
    y = [b[i] << 16 | a[(i + 7) % 16] for i in range(16)]
    one = R.parse_exact("1", f)

    def cmp(p, q, op, ftz=False):
        return R.compare(p, q, f, op, ftz=ftz)

    def halves(v):
        return v & 0xFFFF, v >> 16

    def pair(x, y, op, ftz=False, bop=None, c=False):
        """setp p|q on packed operands: p from the low halves, q from the
        high ones, each combined with c."""
        (xl, xh), (yl, yh) = halves(x), halves(y)
        p, q = cmp(xl, yl, op, ftz), cmp(xh, yh, op, ftz)
        if bop:
            p, q = boolean(p, c, bop), boolean(q, c, bop)
        return int(p) + 2 * int(q)

    def boolean(t, c, bop):
        return {"and": t and c, "or": t or c, "xor": t != c}[bop]

    def set_packed(x, y, op, true_half, ftz=False, bop=None, c=False):
        (xl, xh), (yl, yh) = halves(x), halves(y)
        lo, hi = cmp(xl, yl, op, ftz), cmp(xh, yh, op, ftz)
        if bop:
            lo, hi = boolean(lo, c, bop), boolean(hi, c, bop)
        return (true_half if lo else 0) | ((true_half if hi else 0) << 16)

    neg_x = "setp.lt.s32 {t}, {c}, 0;"  # the predicate c: x's sign bit
    ops = []
    for op in FLOAT_CMPS:
        ops.append(Op("setp_%s" % op, "u32",
                      ["setp.%s.%s {p}, {a}, {b};" % (op, ftype),
                       "selp.u32 {d}, 1, 0, {p};"],
                      lambda a, b, x, y, o=op: int(cmp(a, b, o))))
    for op in ("lt", "equ", "ne", "nan", "ge"):
        ops.append(Op("setp_%s_%s" % (op, ptype), "u32",
                      ["setp.%s.%s {p}|{q}, {c}, {e};" % (op, ptype),
                       "selp.u32 {d}, 1, 0, {p};", "selp.u32 {t}, 2, 0, {q};",
                       "add.u32 {d}, {d}, {t};"],
                      lambda a, b, x, y, o=op: pair(x, y, o), tmp="u32"))
    for bop, op in (("and", "le"), ("or", "gtu"), ("xor", "eq")):
        ops.append(Op("setp_%s_%s_%s" % (op, bop, ptype), "u32",
                      [neg_x, "setp.%s.%s.%s {p}|{q}, {c}, {e}, {t};" % (op, bop, ptype),
                       "selp.u32 {d}, 1, 0, {p};", "selp.u32 {t1}, 2, 0, {q};",
                       "add.u32 {d}, {d}, {t1};"],
                      lambda a, b, x, y, o=op, bo=bop:
                          pair(x, y, o, bop=bo, c=x >> 31 == 1),
                      tmp=["pred", "u32"]))
    ops.append(Op("setp_lt_or_not_c", "u32",
                  [neg_x, "setp.lt.or.%s {p}, {a}, {b}, !{t};" % ftype,
                   "selp.u32 {d}, 1, 0, {p};"],
                  lambda a, b, x, y: int(cmp(a, b, "lt") or not x >> 31),
                  tmp="pred"))
    if ftz_ok:
        for op in ("lt", "equ", "ge"):
            ops.append(Op("setp_%s_ftz" % op, "u32",
                          ["setp.%s.ftz.%s {p}, {a}, {b};" % (op, ftype),
                           "selp.u32 {d}, 1, 0, {p};"],
                          lambda a, b, x, y, o=op: int(cmp(a, b, o, ftz=True))))
        ops.append(Op("setp_le_ftz_%s" % ptype, "u32",
                      ["setp.le.ftz.%s {p}|{q}, {c}, {e};" % ptype,
                       "selp.u32 {d}, 1, 0, {p};", "selp.u32 {t}, 2, 0, {q};",
                       "add.u32 {d}, {d}, {t};"],
                      lambda a, b, x, y: pair(x, y, "le", ftz=True), tmp="u32"))
    # set: 1.0 in a half destination, all ones in an integer one (per half
    # from packed sources).
    ops += [
        Op("set_lt_%s_%s" % (ftype, ftype), "b16",
           "set.lt.%s.%s {d}, {a}, {b};" % (ftype, ftype),
           lambda a, b, x, y: one if cmp(a, b, "lt") else 0),
        Op("set_neu_%s_%s" % (ftype, ftype), "b16",
           "set.neu.%s.%s {d}, {a}, {b};" % (ftype, ftype),
           lambda a, b, x, y: one if cmp(a, b, "neu") else 0),
        Op("set_ge_u16_%s" % ftype, "u16", "set.ge.u16.%s {d}, {a}, {b};" % ftype,
           lambda a, b, x, y: 0xFFFF if cmp(a, b, "ge") else 0),
        Op("set_ne_s32_%s" % ftype, "s32", "set.ne.s32.%s {d}, {a}, {b};" % ftype,
           lambda a, b, x, y: -1 if cmp(a, b, "ne") else 0),
        Op("set_leu_s16_%s" % ftype, "s16", "set.leu.s16.%s {d}, {a}, {b};" % ftype,
           lambda a, b, x, y: -1 if cmp(a, b, "leu") else 0),
        Op("set_gt_and_u32_%s" % ftype, "u32",
           [neg_x, "set.gt.and.u32.%s {d}, {a}, {b}, {t};" % ftype],
           lambda a, b, x, y: 0xFFFFFFFF if (cmp(a, b, "gt") and x >> 31) else 0,
           tmp="pred"),
        Op("set_lt_u32_%s" % ptype, "u32", "set.lt.u32.%s {d}, {c}, {e};" % ptype,
           lambda a, b, x, y: set_packed(x, y, "lt", 0xFFFF)),
        Op("set_gtu_%s_%s" % (ptype, ptype), "b32",
           "set.gtu.%s.%s {d}, {c}, {e};" % (ptype, ptype),
           lambda a, b, x, y: set_packed(x, y, "gtu", one)),
        Op("set_le_xor_s32_%s" % ptype, "u32",
           [neg_x, "set.le.xor.s32.%s {d}, {c}, {e}, {t};" % ptype],
           lambda a, b, x, y: set_packed(x, y, "le", 0xFFFF, bop="xor",
                                         c=x >> 31 == 1),
           tmp="pred"),
        Op("set_num_or_%s_%s" % (ptype, ptype), "b32",
           [neg_x, "set.num.or.%s.%s {d}, {c}, {e}, !{t};" % (ptype, ptype)],
           lambda a, b, x, y: set_packed(x, y, "num", one, bop="or",
                                         c=x >> 31 == 0),
           tmp="pred"),
        Op("set_lt_%s_f32" % ftype, "b16",
           ["mov.b32 {t}, {c};", "mov.b32 {t1}, {e};",
            "set.lt.%s.f32 {d}, {t}, {t1};" % ftype],
           lambda a, b, x, y: one if R.compare(x, y, F32, "lt") else 0,
           tmp=["f32", "f32"]),
    ]
    if ftz_ok:
        ops += [
            Op("set_eq_ftz_%s_%s" % (ftype, ftype), "b16",
               "set.eq.ftz.%s.%s {d}, {a}, {b};" % (ftype, ftype),
               lambda a, b, x, y: one if cmp(a, b, "eq", ftz=True) else 0),
            Op("set_lt_ftz_u32_%s" % ptype, "u32",
               "set.lt.ftz.u32.%s {d}, {c}, {e};" % ptype,
               lambda a, b, x, y: set_packed(x, y, "lt", 0xFFFF, ftz=True)),
        ]
    return Test(name, doc, [Input("a", ftype, a), Input("b", ftype, b),
                            Input("x", "b32", x), Input("y", "b32", y)], ops)


@test
def setp_set_f16():
    return half_setp_test("setp-set-f16", R.F16, "f16", """
setp and set on .f16 and .f16x2 with every comparison: NaN makes ordered
comparisons false and unordered ones true, -0 equals +0, .ftz compares
subnormals as zeros. Packed operands compare half by half: setp's p is the
low halves' result and q the high ones' (each combined with c by .and .or
.xor); set writes 1.0 (0x3c00) for true into a half destination, and 0xffff
into .u16 or each half of a .u32 from packed sources.
""", ftz_ok=True)


@test
def setp_set_bf16():
    return half_setp_test("setp-set-bf16", R.BF16, "bf16", """
setp and set on .bf16 and .bf16x2 (which take no .ftz): half by half for the
packed form, 1.0 is 0x3f80 in a .bf16 destination.
""", ftz_ok=False)
