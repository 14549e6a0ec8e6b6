"""A reference model of the warp-level matrix instructions (mma, ldmatrix,
stmatrix, movmatrix), independent of ptx-jit.

The fragment layouts are the PTX ISA's own tables (section "Matrix
multiply-accumulate operation using mma instruction": "Matrix Fragments for
mma.m16n8k16 with floating point type" and its siblings, and the ldmatrix,
stmatrix and movmatrix figures), written out here one table at a time in the
ISA's words (groupID, threadID_in_group, "for ai where i < 4", ...), so that
a slip in ptx-jit's general formula shows up as a difference.

The arithmetic (the ISA leaves accumulation order and rounding unspecified
for the low-precision types): .f16, .bf16 and .tf32 multiplicands with .f32
C and D in the shapes with K = 8 or 16 follow the rule measured on an H200
(docs/TensorCoreNumerics.md, tensor_core_sum below): exact products,
each term truncated to the same grid below the largest one, one exact sum,
one rounding toward zero. The other low-precision forms (.f16 C or D,
.e4m3 and .e5m2, m8n8k4, m16n8k4) keep the older, unverified model: every
product is exact, and is added to the running .f32 sum in K order with one
rounding to nearest even per step (fma on exact values); an .f16 result is
that .f32 rounded once to .f16; a NaN result is the canonical NaN. .f64 is a chain of fused multiply-adds in K
order in the instruction's rounding mode. Integers are summed exactly and
then wrapped to 32 bits, or clamped with .satfinite.

A fragment is given per lane as its list of registers (Python ints: 32-bit
patterns, or 64-bit for .f64); element i of a fragment is the i-th element
counting from the low bits of the first register.
"""

from fractions import Fraction

import ptxref as R
from ptxref import F16, BF16, F32, F64

BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "s32": 32,
        "s8": 8, "u8": 8, "s4": 4, "u4": 4, "b1": 1, "e4m3": 8, "e5m2": 8}


def group(lane):
    """groupID and threadID_in_group."""
    return lane >> 2, lane % 4


# --- mma.m8n8k4 with .f16 (four products, one per quad pair) ---------------


def m8n8k4_f16_batch(lane):
    """Which of the four MMA computations lane takes part in (lanes 0-3 and
    16-19 compute the first, ...)."""
    return (lane % 16) // 4


def m8n8k4_f16_a(lane, i, layout):
    if layout == "row":
        row = lane % 4 if lane < 16 else lane % 4 + 4
        col = i
    else:
        row = i % 4 if lane < 16 else i % 4 + 4
        col = lane % 4
    return row, col


def m8n8k4_f16_b(lane, i, layout):
    if layout == "row":
        row = lane % 4
        col = i if lane < 16 else i + 4
    else:
        row = i
        col = lane % 4 if lane < 16 else lane % 4 + 4
    return row, col


def m8n8k4_f16_c(lane, i, ctype):
    if ctype == "f16":
        row = lane % 4 if lane < 16 else lane % 4 + 4
        col = i
    else:
        x = (lane & 0b1) + (i & 0b10)
        row = x if lane < 16 else x + 4
        col = (i & 0b100) + (lane & 0b10) + (i & 0b1)
    return row, col


# --- The other shapes, one table each ---------------------------------------


def frag_a(shape, t, lane, i):
    g, tig = group(lane)
    if shape == "m8n8k4":  # .f64
        return lane >> 2, lane % 4
    if shape == "m8n8k16":  # .s8/.u8, a0..a3
        return g, tig * 4 + i
    if shape == "m8n8k32":  # .s4/.u4, a0..a7
        return g, tig * 8 + i
    if shape == "m8n8k128":  # .b1, a0..a31
        return g, tig * 32 + i
    if shape == "m16n8k4":  # .tf32 / .f64: a0, a1
        return (g if i == 0 else g + 8), tig
    if shape == "m16n8k8":
        if t in ("f16", "bf16"):
            row = g if i < 2 else g + 8
            col = tig * 2 + (i & 0x1)
        else:  # .tf32, .f64
            row = g if i in (0, 2) else g + 8
            col = tig if i in (0, 1) else tig + 4
        return row, col
    if shape == "m16n8k16":
        if t in ("f16", "bf16"):
            row = g if (0 <= i < 2 or 4 <= i < 6) else g + 8
            col = tig * 2 + (i & 0x1) if i < 4 else tig * 2 + (i & 0x1) + 8
        elif t == "f64":
            row = g if i % 2 == 0 else g + 8
            col = i * 2 + tig if i % 2 == 0 else i * 2 - 2 + tig
        else:  # .u8/.s8/.e4m3/.e5m2
            row = g if i < 4 else g + 8
            col = tig * 4 + (i & 0x3)
        return row, col
    if shape == "m16n8k32":
        if t in ("s4", "u4"):
            row = g if i < 8 else g + 8
            col = tig * 8 + (i & 0x7)
        else:  # 8-bit
            row = g if (0 <= i < 4 or 8 <= i < 12) else g + 8
            col = tig * 4 + (i & 0x3) if i < 8 else tig * 4 + (i & 0x3) + 16
        return row, col
    if shape == "m16n8k64":  # .s4/.u4
        row = g if (0 <= i < 8 or 16 <= i < 24) else g + 8
        col = tig * 8 + (i & 0x7) if i < 16 else tig * 8 + (i & 0x7) + 32
        return row, col
    if shape == "m16n8k128":  # .b1
        row = g if i < 32 else g + 8
        col = tig * 32 + (i & 0x1F)
        return row, col
    if shape == "m16n8k256":  # .b1
        row = g if (0 <= i < 32 or 64 <= i < 96) else g + 8
        # The ISA writes "tig * 32 + i" for i < 64; i & 0x1F is what the
        # figure shows (a1..a31 and a32..a63 cover the same 32 columns).
        col = tig * 32 + (i & 0x1F) if i < 64 else tig * 32 + (i & 0x1F) + 128
        return row, col
    raise ValueError(shape)


def frag_b(shape, t, lane, i):
    g, tig = group(lane)
    if shape == "m8n8k4":  # .f64
        return lane % 4, lane >> 2
    if shape == "m8n8k16":
        return tig * 4 + i, g
    if shape == "m8n8k32":
        return tig * 8 + i, g
    if shape == "m8n8k128":
        return tig * 32 + i, g
    if shape == "m16n8k4":  # b0
        return tig, g
    if shape == "m16n8k8":
        if t in ("f16", "bf16"):
            return tig * 2 + i, g
        return (tig if i == 0 else tig + 4), g  # .tf32, .f64
    if shape == "m16n8k16":
        if t in ("f16", "bf16"):
            row = tig * 2 + (i & 0x1) if i < 2 else tig * 2 + (i & 0x1) + 8
        elif t == "f64":
            row = tig + i * 4
        else:
            row = tig * 4 + i
        return row, g
    if shape == "m16n8k32":
        if t in ("s4", "u4"):
            row = tig * 8 + (i & 0x7)
        else:
            row = tig * 4 + (i & 0x3) if i < 4 else tig * 4 + (i & 0x3) + 16
        return row, g
    if shape == "m16n8k64":
        row = tig * 8 + (i & 0x7) if i < 8 else tig * 8 + (i & 0x7) + 32
        return row, g
    if shape == "m16n8k128":
        return tig * 32 + i, g
    if shape == "m16n8k256":
        row = tig * 32 + (i & 0x1F) if i < 32 else tig * 32 + (i & 0x1F) + 128
        return row, g
    raise ValueError(shape)


def frag_c(shape, lane, i):
    g, tig = group(lane)
    if shape.startswith("m8n8"):  # c0, c1
        return g, tig * 2 + i
    row = g if i < 2 else g + 8
    col = tig * 2 + (i & 0x1)
    return row, col


def dims(shape):
    m, rest = shape[1:].split("n")
    n, k = rest.split("k")
    return int(m), int(n), int(k)


def elements_per_register(t):
    return 1 if t == "f64" else 32 // BITS[t]


def get_element(regs, i, t):
    per = elements_per_register(t)
    reg = regs[i // per]
    if t == "f64":
        return reg
    bits = BITS[t]
    return (reg >> (i % per * bits)) & ((1 << bits) - 1)


def set_element(regs, i, t, v):
    per = elements_per_register(t)
    if t == "f64":
        regs[i // per] = v
        return
    bits = BITS[t]
    shift = i % per * bits
    mask = ((1 << bits) - 1) << shift
    regs[i // per] = (regs[i // per] & ~mask) | ((v << shift) & mask)


# --- Element values ------------------------------------------------------------


def small_float_value(b, ebits, mbits, ieee):
    """An e4m3 (ieee=False: only S.1111.111 is NaN, no infinities) or e5m2
    pattern's value: a Fraction, 'inf', '-inf' or None (NaN)."""
    sign = b >> (ebits + mbits) & 1
    e = b >> mbits & ((1 << ebits) - 1)
    m = b & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    top = (1 << ebits) - 1
    if ieee and e == top:
        return None if m else ("-inf" if sign else "inf")
    if not ieee and e == top and m == (1 << mbits) - 1:
        return None
    if e == 0:
        v = Fraction(m) * Fraction(2) ** (1 - bias - mbits)
    else:
        v = Fraction(m + (1 << mbits)) * Fraction(2) ** (e - bias - mbits)
    return -v if sign else v


def to_f32(b, t):
    """The .f32 pattern of a multiplicand or accumulator element (exact for
    every type here), or None for a NaN."""
    if t == "f32":
        return None if R.is_nan(b, F32) else b
    if t == "tf32":
        b &= 0xFFFFE000  # the 13 low mantissa bits are not part of .tf32
        return None if R.is_nan(b, F32) else b
    if t in ("f16", "bf16"):
        return R.cvt_float(b, F16 if t == "f16" else BF16, F32)
    v = small_float_value(b, 4, 3, False) if t == "e4m3" else \
        small_float_value(b, 5, 2, True)
    if v is None:
        return None
    if v in ("inf", "-inf"):
        return F32.inf(v == "-inf")
    return R.round_value(v, F32, "rn", zero_neg=bool(b >> 7))


def to_int(b, t):
    if t in ("s8", "s4", "s32"):
        return R.to_signed(b, BITS[t])
    return b


# --- The tensor-core sum (docs/TensorCoreNumerics.md) ---------------------------

FACTOR_FORMAT = {"f16": F16, "bf16": BF16, "tf32": F32, "f32": F32}


def tensor_core_rule(k, atype, btype, ctype, dtype):
    """Whether D follows the measured rule (tensor_core_sum)."""
    return (atype in ("f16", "bf16", "tf32") and btype == atype and
            ctype == "f32" and dtype == "f32" and k in (8, 16))


def classify(b, t):
    """(kind, negative, value, exponent) of an element of type t: kind is
    'nan', 'inf' or 'num'; value a Fraction; exponent the unbiased exponent
    (the format's least normal exponent for a subnormal; None for a zero)."""
    f = FACTOR_FORMAT[t]
    if t == "tf32":
        b &= 0xFFFFE000  # the 13 low mantissa bits are not part of .tf32
    neg = R.is_neg(b, f)
    if R.is_nan(b, f):
        return "nan", neg, None, None
    if R.is_inf(b, f):
        return "inf", neg, None, None
    v = R.value(b, f)
    if v == 0:
        return "num", neg, v, None
    biased = (b & f.exp_mask) >> f.mbits
    return "num", neg, v, max(biased - f.bias, f.emin)


def tensor_core_sum(c, pairs, t):
    """The .f32 bits of c + sum(a * b) for an .f32 pattern c and pairs of
    .t patterns (a, b), by the rule of docs/TensorCoreNumerics.md: each
    product is exact, with nominal exponent ea + eb + 1 (c's: ec + 1); L is
    the largest nominal exponent of the nonzero terms; each term is
    truncated toward zero to a multiple of 2^(L - 26); the sum of those is
    exact and rounded toward zero to .f32 once."""
    ck, cneg, cv, ce = classify(c, "f32")
    terms = []  # (value, nominal exponent or None for a zero, negative)
    nan = ck == "nan"
    infs = set()
    if ck == "inf":
        infs.add(cneg)
    else:
        terms.append((cv, None if ce is None else ce + 1, cneg))
    for a, b in pairs:
        ak, aneg, av, ae = classify(a, t)
        bk, bneg, bv, be = classify(b, t)
        neg = aneg != bneg
        if "nan" in (ak, bk):
            nan = True
        elif "inf" in (ak, bk):
            if av == 0 or bv == 0:  # inf * 0
                nan = True
            infs.add(neg)
        elif ae is None or be is None:
            terms.append((Fraction(0), None, neg))
        else:
            terms.append((av * bv, ae + be + 1, neg))
    if nan or len(infs) == 2:
        return R.CANONICAL_NAN["f32"]
    if infs:
        return F32.inf(infs.pop())
    exps = [e for _, e, _ in terms if e is not None]
    if not exps:
        # Only zeros (an assumption, as IEEE adds zeros): -0 when every
        # term is -0, else +0.
        return F32.zero(all(neg for _, _, neg in terms))
    unit = Fraction(2) ** (max(exps) - 26)
    total = sum(int(v / unit) * unit for v, _, _ in terms)  # int() truncates
    # An exact cancellation gives +0; an overflow saturates (rz).
    return R.round_value(total, F32, "rz")


# --- The operation ----------------------------------------------------------------


def layout_functions(shape, atype, alayout, blayout, ctype, dtype):
    """Functions (lane, i) -> (batch, row, col) for A, B, C and D."""
    if shape == "m8n8k4" and atype == "f16":
        def wrap(f, *extra):
            return lambda lane, i: (m8n8k4_f16_batch(lane),) + f(lane, i, *extra)
        return (wrap(m8n8k4_f16_a, alayout), wrap(m8n8k4_f16_b, blayout),
                wrap(m8n8k4_f16_c, ctype), wrap(m8n8k4_f16_c, dtype))
    return (lambda lane, i: (0,) + frag_a(shape, atype, lane, i),
            lambda lane, i: (0,) + frag_b(shape, atype, lane, i),
            lambda lane, i: (0,) + frag_c(shape, lane, i),
            lambda lane, i: (0,) + frag_c(shape, lane, i))


def count_elements(shape, atype):
    """Elements per lane of A, B and C/D."""
    m, n, k = dims(shape)
    batches = 4 if (shape == "m8n8k4" and atype == "f16") else 1
    return (m * k * batches // 32, k * n * batches // 32, m * n * batches // 32)


def registers(count, t):
    per = elements_per_register(t)
    return (count + per - 1) // per


def unpack(frags, t, count, where):
    """{(batch, row, col): element bits} from per-lane register lists."""
    out = {}
    for lane in range(32):
        for i in range(count):
            out[where(lane, i)] = get_element(frags[lane], i, t)
    return out


def multiply(A, B, C, batches, m, n, k, atype, btype, ctype, dtype,
             satfinite=False, bitop=None, rnd="rn"):
    """D = A * B + C on element bits: A, B and C map (batch, row, col) to an
    element of their type; the result maps to .dtype elements."""
    D = {}
    for q in range(batches):
        for i in range(m):
            for j in range(n):
                cv = C[(q, i, j)]
                if atype == "f64":
                    acc = cv
                    for l in range(k):
                        acc = R.f_fma(A[(q, i, l)], B[(q, l, j)], acc, F64,
                                      rnd)
                        assert acc is not None, "no NaNs in .f64 tests"
                    D[(q, i, j)] = acc
                elif atype in ("s8", "u8", "s4", "u4", "b1"):
                    s = to_int(cv, "s32")
                    for l in range(k):
                        x, y = A[(q, i, l)], B[(q, l, j)]
                        if bitop == "xor":
                            s += x ^ y
                        elif bitop == "and":
                            s += x & y
                        else:
                            s += to_int(x, atype) * to_int(y, btype)
                    if satfinite:
                        s = max(-(1 << 31), min((1 << 31) - 1, s))
                    D[(q, i, j)] = s & 0xFFFFFFFF
                elif tensor_core_rule(k, atype, btype, ctype, dtype):
                    D[(q, i, j)] = tensor_core_sum(
                        cv, [(A[(q, i, l)], B[(q, l, j)]) for l in range(k)],
                        atype)
                else:
                    acc = to_f32(cv, ctype)
                    for l in range(k):
                        if acc is None:
                            break
                        x = to_f32(A[(q, i, l)], atype)
                        y = to_f32(B[(q, l, j)], btype)
                        acc = None if x is None or y is None else \
                            R.f_fma(x, y, acc, F32)
                    if dtype == "f32":
                        D[(q, i, j)] = R.CANONICAL_NAN["f32"] if acc is None \
                            else acc
                    else:
                        h = None if acc is None else R.cvt_float(acc, F32, F16)
                        D[(q, i, j)] = R.CANONICAL_NAN["f16"] if h is None \
                            else h
    return D


def mma(shape, atype, btype, ctype, dtype, a, b, c, alayout="row",
        blayout="col", satfinite=False, bitop=None, rnd="rn"):
    """D for the whole warp: a list of 32 register lists."""
    m, n, k = dims(shape)
    batches = 4 if (shape == "m8n8k4" and atype == "f16") else 1
    fa, fb, fc, fd = layout_functions(shape, atype, alayout, blayout, ctype,
                                      dtype)
    na, nb, nc = count_elements(shape, atype)
    A = unpack(a, atype, na, fa)
    B = unpack(b, btype, nb, fb)
    C = unpack(c, ctype, nc, fc)
    assert len(A) == batches * m * k and len(B) == batches * k * n
    D = multiply(A, B, C, batches, m, n, k, atype, btype, ctype, dtype,
                 satfinite, bitop, rnd)
    out = []
    for lane in range(32):
        regs = [0] * registers(nc, dtype)
        for i in range(nc):
            set_element(regs, i, dtype, D[fd(lane, i)])
        out.append(regs)
    return out


# --- mma.sp: sparse A -----------------------------------------------------------
#
# The PTX ISA, "Matrix multiply-accumulate operation using mma.sp
# instruction with sparse matrix A": A (M x K) keeps half of each row; its
# fragment holds the kept elements, and the metadata operand e says where
# they belong. "Sparse matrix storage": a row is cut into chunks of four
# elements (two kept, each index a 2-bit field), of two .tf32 elements (one
# kept, a 4-bit index 0b0100 or 0b1110) or of eight .s4/.u4 elements (two
# pairs kept, a 2-bit index of each pair). The sparsity selector names the
# lanes of each group of four that hold the group's metadata.


def sparse_frag_a(shape, t, lane, i):
    """(row, slot) of element i of a lane's sparse A fragment: the row, and
    the position among the row's kept elements (the ISA's [firstcol ...
    lastcol] is a span of whole chunks; its kept elements, in order)."""
    g, tig = group(lane)
    if t in ("f16", "bf16"):
        if shape == "m16n8k16":  # a0, a1: row g; a2, a3: row g + 8
            row = g if i < 2 else g + 8
            firstcol = tig * 4
        else:  # m16n8k32
            row = g if (i < 2 or 4 <= i < 6) else g + 8
            firstcol = tig * 4 if i < 4 else tig * 4 + 16
        return row, firstcol // 4 * 2 + (i & 1)
    if t == "tf32":
        if shape == "m16n8k8":  # a0: row g, a1: row g + 8
            row = g if i == 0 else g + 8
            firstcol = tig * 2
        else:  # m16n8k16: a0, a2 row g; a0, a1 firstcol tig * 2
            row = g if i in (0, 2) else g + 8
            firstcol = tig * 2 if i < 2 else tig * 2 + 8
        return row, firstcol // 2
    if t in ("s8", "u8", "e4m3", "e5m2"):  # eight columns per register
        if shape == "m16n8k32":
            row = g if i < 4 else g + 8
            firstcol = tig * 8
        else:  # m16n8k64
            row = g if (i < 4 or 8 <= i < 12) else g + 8
            firstcol = tig * 8 if i < 8 else tig * 8 + 32
        return row, firstcol // 2 + (i & 3)
    # .s4/.u4: sixteen columns per register
    if shape == "m16n8k64":
        row = g if i < 8 else g + 8
        firstcol = tig * 16
    else:  # m16n8k128
        row = g if (i < 8 or 16 <= i < 24) else g + 8
        firstcol = tig * 16 if i < 16 else tig * 16 + 64
    return row, firstcol // 2 + (i & 7)


def sparse_frag_b(shape, t, lane, i):
    """B is dense; the shapes mma has are laid out as there, the others
    continue the same pattern into the next rows."""
    g, tig = group(lane)
    if (t in ("f16", "bf16") and shape == "m16n8k32"):
        return tig * 2 + (i & 1) + 8 * (i >> 1), g
    if t == "tf32" and shape == "m16n8k16":
        return tig + 4 * i, g
    if t in ("s8", "u8", "e4m3", "e5m2") and shape == "m16n8k64":
        return tig * 4 + (i & 3) + 16 * (i >> 2), g
    if t in ("s4", "u4") and shape == "m16n8k128":
        return tig * 8 + (i & 7) + 32 * (i >> 3), g
    return frag_b(shape, t, lane, i)


def sparse_chunk(t):
    """Elements per chunk (one 4-bit metadata field)."""
    return 2 if t == "tf32" else 8 if t in ("s4", "u4") else 4


def sparse_selectors(shape, t):
    """The sparsity selector values the ISA allows: one thread of each
    group (0-3), a thread pair (0: T0, T1; 1: T2, T3) or all four (0)."""
    one = {("f16", "m16n8k16"), ("bf16", "m16n8k16"), ("tf32", "m16n8k8")}
    pair = {("f16", "m16n8k32"), ("bf16", "m16n8k32"), ("tf32", "m16n8k16"),
            ("s8", "m16n8k32"), ("u8", "m16n8k32"), ("s4", "m16n8k64"),
            ("u4", "m16n8k64")}
    if (t, shape) in one:
        return [0, 1, 2, 3]
    if (t, shape) in pair:
        return [0, 1]
    return [0]


def sparse_metadata_at(shape, t, selector, row, chunk):
    """(lane, lowest bit) of the 4-bit field of chunk `chunk` of A's row
    `row`: the ISA's metadata figures give a lane's register four chunks
    of row g in bits 0-15 (chunk by chunk from bit 0) and the same chunks
    of row g + 8 in bits 16-31; the rows' 4, 8 or 16 chunks are held by
    Ti, by T2i and T2i+1, or by T0 to T3 (i the selector)."""
    m, n, k = dims(shape)
    chunks = k // sparse_chunk(t)
    g = row % 8
    if chunks == 4:
        lane = 4 * g + selector
    elif chunks == 8:
        lane = 4 * g + 2 * selector + chunk // 4
    else:
        lane = 4 * g + chunk // 4
    return lane, 4 * (chunk % 4) + 16 * (row // 8)


def sparse_expand(shape, t, packed, e, selector):
    """The dense A {(0, row, col): bits} from the kept elements
    {(row, slot): bits} and the lanes' metadata registers e. A field
    i0 | i1 << 2 puts the chunk's first kept element (or .s4/.u4 pair) at
    i0 and the second at i1 (mma.sp takes them in either order); .tf32's
    field puts its one element at 0 (0b0100) or 1 (0b1110)."""
    m, n, k = dims(shape)
    w = sparse_chunk(t)
    A = {(0, r, c): 0 for r in range(m) for c in range(k)}
    for r in range(m):
        for q in range(k // w):
            lane, bit = sparse_metadata_at(shape, t, selector, r, q)
            field = e[lane] >> bit & 0xF
            i0, i1 = field & 3, field >> 2
            kept = [packed[(r, q * w // 2 + j)] for j in range(w // 2)]
            if t == "tf32":
                assert field in (0b0100, 0b1110), "undefined"
                A[(0, r, q * 2 + (field == 0b1110))] = kept[0]
            elif w == 4:
                assert i0 != i1, "undefined"
                A[(0, r, q * 4 + i0)] = kept[0]
                A[(0, r, q * 4 + i1)] = kept[1]
            else:
                assert i0 != i1, "undefined"
                for j in range(2):
                    A[(0, r, q * 8 + 2 * i0 + j)] = kept[j]
                    A[(0, r, q * 8 + 2 * i1 + j)] = kept[2 + j]
    return A


def mma_sp(shape, atype, btype, ctype, dtype, a, b, c, e, selector,
           satfinite=False):
    """D of mma.sp for the whole warp: the dense mma of the expanded A."""
    m, n, k = dims(shape)
    assert selector in sparse_selectors(shape, atype)
    na, nb, nc = m * k // 2 // 32, k * n // 32, m * n // 32
    packed = {}
    for lane in range(32):
        for i in range(na):
            packed[sparse_frag_a(shape, atype, lane, i)] = \
                get_element(a[lane], i, atype)
    assert len(packed) == m * k // 2
    A = sparse_expand(shape, atype, packed, e, selector)
    B = unpack(b, btype, nb,
               lambda lane, i: (0,) + sparse_frag_b(shape, btype, lane, i))
    assert len(B) == k * n
    C = unpack(c, ctype, nc, lambda lane, i: (0,) + frag_c(shape, lane, i))
    D = multiply(A, B, C, 1, m, n, k, atype, btype, ctype, dtype, satfinite)
    out = []
    for lane in range(32):
        regs = [0] * registers(nc, dtype)
        for i in range(nc):
            set_element(regs, i, dtype, D[(0,) + frag_c(shape, lane, i)])
        out.append(regs)
    return out


# --- wmma: matrices in memory ---------------------------------------------------


def load_matrix(memory, t, rows, cols, row_major, stride):
    """{(0, row, col): bits} of a matrix stored at element 0 of memory (a
    list of elements of type t, or of 32-bit words for .s4, .u4 and .b1),
    with stride elements between rows (row-major) or columns."""
    out = {}
    for r in range(rows):
        for c in range(cols):
            e = r * stride + c if row_major else c * stride + r
            bits = BITS[t]
            if bits < 8:
                word = memory[e * bits // 32]
                v = word >> (e * bits % 32) & ((1 << bits) - 1)
            else:
                v = memory[e]
            out[(0, r, c)] = v
    return out


def store_matrix(memory, D, rows, cols, row_major, stride):
    for r in range(rows):
        for c in range(cols):
            memory[r * stride + c if row_major else c * stride + r] = \
                D[(0, r, c)]


# --- ldmatrix, stmatrix, movmatrix -------------------------------------------------


def ldmatrix_fragment(lane, j):
    """Lane's element j (0 or 1) of one 8x8 matrix of 16-bit elements: row
    lane/4, columns 2 * (lane % 4) + j (the ldmatrix fragment figure)."""
    return lane // 4, 2 * (lane % 4) + j


def ldmatrix(memory, addresses, num, trans):
    """The registers each lane receives. memory: {byte address: byte};
    addresses: the address each lane gives (lanes 8m..8m+7 the rows of
    matrix m)."""
    out = []
    for lane in range(32):
        regs = []
        for mat in range(num):
            reg = 0
            for j in range(2):
                row, col = ldmatrix_fragment(lane, j)
                if trans:  # the matrix in memory is the transpose
                    row, col = col, row
                at = addresses[8 * mat + row] + 2 * col
                half = memory[at] | memory[at + 1] << 8
                reg |= half << (16 * j)
            regs.append(reg)
        out.append(regs)
    return out


def stmatrix(memory, addresses, regs, num, trans):
    """Updates memory with the matrices the lanes' registers hold."""
    for lane in range(32):
        for mat in range(num):
            for j in range(2):
                row, col = ldmatrix_fragment(lane, j)
                if trans:
                    row, col = col, row
                at = addresses[8 * mat + row] + 2 * col
                half = regs[lane][mat] >> (16 * j) & 0xFFFF
                memory[at] = half & 0xFF
                memory[at + 1] = half >> 8


def movmatrix(a):
    """movmatrix.sync.aligned.m8n8.trans.b16: a holds the matrix row-major as
    in the ldmatrix figure; the result is its transpose, held the same way."""
    matrix = {}
    for lane in range(32):
        for j in range(2):
            matrix[ldmatrix_fragment(lane, j)] = a[lane] >> (16 * j) & 0xFFFF
    out = []
    for lane in range(32):
        reg = 0
        for j in range(2):
            row, col = ldmatrix_fragment(lane, j)
            reg |= matrix[(col, row)] << (16 * j)
        out.append(reg)
    return out
