"""A reference model of PTX instruction semantics, independent of ptx-jit.

Written from the PTX ISA manual (version 9.x) with Python's exact integers
and fractions: every floating-point result is the exact value rounded once,
in the requested mode, by round_value() below; no host floating-point
arithmetic is involved. gen-run-tests.py uses it to compute the expected
outputs of the tests in test/Run.

Values travel as bit patterns (ints); Fmt describes a binary format.
"""

from fractions import Fraction
import math
import struct


class Fmt:
    def __init__(self, name, ebits, mbits):
        self.name = name
        self.ebits = ebits
        self.mbits = mbits
        self.bits = 1 + ebits + mbits
        self.bias = (1 << (ebits - 1)) - 1
        self.emin = 1 - self.bias
        self.emax = self.bias

    @property
    def sign_bit(self):
        return 1 << (self.bits - 1)

    @property
    def exp_mask(self):
        return ((1 << self.ebits) - 1) << self.mbits

    @property
    def max_finite(self):
        return Fraction((1 << (self.mbits + 1)) - 1) * Fraction(2) ** (
            self.emax - self.mbits)

    def inf(self, neg=False):
        return self.exp_mask | (self.sign_bit if neg else 0)

    def zero(self, neg=False):
        return self.sign_bit if neg else 0

    def max_bits(self, neg=False):
        largest = self.exp_mask - 1  # exponent field 11..10, mantissa all ones
        return largest | (self.sign_bit if neg else 0)


F16 = Fmt("f16", 5, 10)
BF16 = Fmt("bf16", 8, 7)
F32 = Fmt("f32", 8, 23)
F64 = Fmt("f64", 11, 52)
FMTS = {"f16": F16, "bf16": BF16, "f32": F32, "f64": F64}

# NVIDIA's canonical NaNs (what min/max and .relu produce).
CANONICAL_NAN = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF,
                 "f64": 0x7FFFFFFFFFFFFFFF}


def is_nan(b, f):
    return (b & f.exp_mask) == f.exp_mask and (b & ((1 << f.mbits) - 1)) != 0


def is_inf(b, f):
    return (b & ~f.sign_bit) == f.exp_mask


def is_neg(b, f):
    return bool(b & f.sign_bit)


def is_zero(b, f):
    return (b & ~f.sign_bit) == 0


def is_subnormal(b, f):
    return (b & f.exp_mask) == 0 and not is_zero(b, f)


def value(b, f):
    """The exact value of a finite pattern (a Fraction; zeros are 0)."""
    e = (b & f.exp_mask) >> f.mbits
    m = b & ((1 << f.mbits) - 1)
    if e == 0:
        v = Fraction(m) * Fraction(2) ** (f.emin - f.mbits)
    else:
        v = Fraction(m + (1 << f.mbits)) * Fraction(2) ** (e - f.bias - f.mbits)
    return -v if is_neg(b, f) else v


def quiet(b, f):
    return b | (1 << (f.mbits - 1))


def floor_log2(a):
    """floor(log2(a)) for a Fraction a > 0."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def round_integer(n, rem, neg, mode):
    """Rounds the magnitude n + rem (0 <= rem < 1) of a number whose sign is
    neg. Modes: rn (ties to even), rna (ties away), rz, rm, rp."""
    if rem == 0:
        return n
    if mode == "rn":
        if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
            return n + 1
        return n
    if mode == "rna":
        return n + 1 if rem >= Fraction(1, 2) else n
    if mode == "rz":
        return n
    if mode == "rm":
        return n + 1 if neg else n
    if mode == "rp":
        return n if neg else n + 1
    raise ValueError(mode)


def round_value(x, f, mode, zero_neg=False):
    """The pattern of the exact value x (Fraction) rounded to format f.
    zero_neg gives the sign of an exact zero."""
    if x == 0:
        return f.zero(zero_neg)
    neg = x < 0
    a = -x if neg else x
    e = max(floor_log2(a), f.emin)
    ulp = Fraction(2) ** (e - f.mbits)
    q = a / ulp
    n = round_integer(q.numerator // q.denominator, q - (q.numerator // q.denominator),
                      neg, mode)
    if n == 1 << (f.mbits + 1):
        n >>= 1
        e += 1
    if e > f.emax:
        # Overflow: infinity unless the mode rounds toward zero here.
        to_max = (mode == "rz" or (mode == "rm" and not neg)
                  or (mode == "rp" and neg))
        return f.max_bits(neg) if to_max else f.inf(neg)
    if n < (1 << f.mbits):  # subnormal or zero
        assert e == f.emin
        bits = n
    else:
        bits = ((e + f.bias) << f.mbits) | (n - (1 << f.mbits))
    return bits | (f.sign_bit if neg else 0)


def flush(b, f):
    """.ftz: a subnormal becomes a zero of the same sign."""
    return (b & f.sign_bit) if is_subnormal(b, f) else b


# --- Floating-point arithmetic ------------------------------------------------


def f_add(a, b, f, mode="rn", ftz=False, sub=False):
    if ftz:
        a, b = flush(a, f), flush(b, f)
    if sub:
        b ^= f.sign_bit
    if is_nan(a, f) or is_nan(b, f):
        return None  # some NaN
    if is_inf(a, f) or is_inf(b, f):
        if is_inf(a, f) and is_inf(b, f) and is_neg(a, f) != is_neg(b, f):
            return None
        return a if is_inf(a, f) else b
    x = value(a, f) + value(b, f)
    if x == 0:
        # x + x keeps x's sign even for zeros; any other exact zero sum is
        # +0, or -0 in .rm (IEEE 754 6.3).
        if is_zero(a, f) and is_zero(b, f) and is_neg(a, f) == is_neg(b, f):
            zneg = is_neg(a, f)
        else:
            zneg = mode == "rm"
        r = f.zero(zneg)
    else:
        r = round_value(x, f, mode)
    return flush(r, f) if ftz else r


def f_mul(a, b, f, mode="rn", ftz=False):
    if ftz:
        a, b = flush(a, f), flush(b, f)
    if is_nan(a, f) or is_nan(b, f):
        return None
    neg = is_neg(a, f) != is_neg(b, f)
    if is_inf(a, f) or is_inf(b, f):
        if is_zero(a, f) or is_zero(b, f):
            return None
        return f.inf(neg)
    r = round_value(value(a, f) * value(b, f), f, mode, zero_neg=neg)
    return flush(r, f) if ftz else r


def f_fma(a, b, c, f, mode="rn", ftz=False):
    if ftz:
        a, b, c = flush(a, f), flush(b, f), flush(c, f)
    if is_nan(a, f) or is_nan(b, f) or is_nan(c, f):
        return None
    pneg = is_neg(a, f) != is_neg(b, f)
    if is_inf(a, f) or is_inf(b, f):
        if is_zero(a, f) or is_zero(b, f):
            return None
        if is_inf(c, f) and is_neg(c, f) != pneg:
            return None
        return f.inf(pneg)
    if is_inf(c, f):
        return c
    p = value(a, f) * value(b, f)
    x = p + value(c, f)
    if x == 0:
        if p == 0 and is_zero(c, f) and pneg == is_neg(c, f):
            zneg = pneg
        else:
            zneg = mode == "rm"
        r = f.zero(zneg)
    else:
        r = round_value(x, f, mode)
    return flush(r, f) if ftz else r


def f_div(a, b, f, mode="rn", ftz=False):
    if ftz:
        a, b = flush(a, f), flush(b, f)
    if is_nan(a, f) or is_nan(b, f):
        return None
    neg = is_neg(a, f) != is_neg(b, f)
    if is_inf(a, f):
        return None if is_inf(b, f) else f.inf(neg)
    if is_inf(b, f):
        return f.zero(neg)
    if is_zero(b, f):
        return None if is_zero(a, f) else f.inf(neg)
    r = round_value(value(a, f) / value(b, f), f, mode, zero_neg=neg)
    return flush(r, f) if ftz else r


def exact_sqrt(x):
    """(s, exact): s is a Fraction with sqrt(x) == s when exact, otherwise s
    lies strictly between two points far finer than any format's ulp, so it
    rounds like sqrt(x) in every mode."""
    k = 400
    num, den = x.numerator, x.denominator
    n = num * den * 4 ** k
    s = math.isqrt(n)
    if s * s == n:
        return Fraction(s, den * 2 ** k), True
    return Fraction(2 * s + 1, 2 * den * 2 ** k), False


def f_sqrt(a, f, mode="rn", ftz=False):
    if ftz:
        a = flush(a, f)
    if is_nan(a, f):
        return None
    if is_zero(a, f):
        return a
    if is_neg(a, f):
        return None
    if is_inf(a, f):
        return a
    s, _ = exact_sqrt(value(a, f))
    r = round_value(s, f, mode)
    return flush(r, f) if ftz else r


def f_min_max(a, b, f, is_max, nan_mode=False, ftz=False, absolute=False,
              xorsign=False):
    """min/max as the PTX ISA defines them: the non-NaN operand, -0 < +0,
    canonical NaN; .abs and .xorsign."""
    if ftz:
        a, b = flush(a, f), flush(b, f)
    sign = (a ^ b) & f.sign_bit
    if absolute:
        a &= ~f.sign_bit
        b &= ~f.sign_bit
    na, nb = is_nan(a, f), is_nan(b, f)
    if (na and nb) or (nan_mode and (na or nb)):
        return CANONICAL_NAN[f.name]
    if na:
        r = b
    elif nb:
        r = a
    else:
        ka, kb = order_key(a, f), order_key(b, f)
        r = (a if ka > kb else b) if is_max else (a if ka < kb else b)
    if xorsign:
        r = (r & ~f.sign_bit) | sign
    return r


def order_key(b, f):
    """A total order on non-NaN patterns with -0 < +0."""
    mag = b & ~f.sign_bit
    return -mag - 1 if is_neg(b, f) else mag


def compare(a, b, f, op, ftz=False):
    """setp/set comparisons on floats."""
    if ftz:
        a, b = flush(a, f), flush(b, f)
    unordered = is_nan(a, f) or is_nan(b, f)
    if op == "num":
        return not unordered
    if op == "nan":
        return unordered
    if op in ("equ", "neu", "ltu", "leu", "gtu", "geu"):
        if unordered:
            return True
        op = op[:2]
    elif unordered:
        return False
    x, y = value(a, f), value(b, f)
    if is_inf(a, f):
        x = Fraction(10) ** 400 * (-1 if is_neg(a, f) else 1)
    if is_inf(b, f):
        y = Fraction(10) ** 400 * (-1 if is_neg(b, f) else 1)
    return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y,
            "gt": x > y, "ge": x >= y}[op]


def saturate(b, f):
    """.sat: clamp to [0, 1]; NaN becomes +0."""
    if b is None or is_nan(b, f):
        return 0
    if is_neg(b, f):
        return 0
    if is_inf(b, f) or value(b, f) > 1:
        return round_value(Fraction(1), f, "rn")
    return b


# --- Conversions ---------------------------------------------------------------


def cvt_float(a, src, dst, mode="rn", ftz=False):
    """Float to float. Returns None for a NaN result (payload unspecified)."""
    if ftz and src is F32:
        a = flush(a, src)
    if is_nan(a, src):
        return None
    if is_inf(a, src):
        return dst.inf(is_neg(a, src))
    r = round_value(value(a, src), dst, mode, zero_neg=is_neg(a, src))
    if ftz and dst is F32:
        r = flush(r, dst)
    return r


def round_to_integral(x, mode):
    """The integer nearest x in an integer rounding mode (rni rzi rmi rpi)."""
    neg = x < 0
    a = -x if neg else x
    n = a.numerator // a.denominator
    m = {"rni": "rn", "rzi": "rz", "rmi": "rm", "rpi": "rp"}[mode]
    r = round_integer(n, a - n, neg, m)
    return -r if neg else r


def cvt_float_to_int(a, src, bits, signed, mode, ftz=False):
    """cvt.{rni,rzi,rmi,rpi}.{s,u}N.fM: saturating; NaN gives 0, except from
    .f64 or into 64 bits, where it gives 1 << (N-1)."""
    if ftz and src is F32:
        a = flush(a, src)
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    if is_nan(a, src):
        return (1 << (bits - 1)) if (src is F64 or bits == 64) else 0
    if is_inf(a, src):
        r = lo if is_neg(a, src) else hi
    else:
        r = max(lo, min(hi, round_to_integral(value(a, src), mode)))
    return r & ((1 << bits) - 1)


def cvt_int_to_float(n, dst, mode="rn"):
    return round_value(Fraction(n), dst, mode)


def cvt_int(x, src_bits, src_signed, dst_bits, dst_signed, sat=False):
    """Integer to integer: x is the source's value (a Python int in range)."""
    if sat:
        lo = -(1 << (dst_bits - 1)) if dst_signed else 0
        hi = (1 << (dst_bits - 1)) - 1 if dst_signed else (1 << dst_bits) - 1
        x = max(lo, min(hi, x))
    return x & ((1 << dst_bits) - 1)


# --- Integers -------------------------------------------------------------------


def to_signed(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def to_unsigned(x, bits):
    return x & ((1 << bits) - 1)


def trunc_div(a, b):
    """C-style division (rounds toward zero) on Python ints."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# --- Host float helpers (for inputs and printing) --------------------------------


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_to_double(b, f):
    """The value of pattern b as a Python float (exact for f16..f64)."""
    if is_nan(b, f):
        return math.nan
    if is_inf(b, f):
        return -math.inf if is_neg(b, f) else math.inf
    v = value(b, f)
    d = float(v)  # exact: every value of these formats is a double
    if d == 0 and is_neg(b, f):
        return -0.0
    return d


def parse_exact(text, f):
    """Reads a decimal (or exact hex) string into format f, correctly rounded
    (as strtof)."""
    t = text.strip()
    neg = t.startswith("-")
    if t[0] in "+-":
        t = t[1:]
    if t == "inf":
        return f.inf(neg)
    if t == "nan":
        return f.exp_mask | (1 << (f.mbits - 1))
    x = Fraction(float.fromhex(t)) if t.lower().startswith("0x") else Fraction(t)
    return round_value(x * (-1 if neg else 1), f, "rn", zero_neg=neg)


def _render(mant, exp):
    while mant % 10 == 0:
        mant //= 10
        exp += 1
    digits = str(mant)
    n = len(digits)
    lead = exp + n - 1
    if lead < -4 or lead >= 16:
        out = digits[0]
        if n > 1:
            out += "." + digits[1:]
        return out + "e" + str(lead)
    if exp >= 0:
        return digits + "0" * exp
    if lead >= 0:
        return digits[: lead + 1] + "." + digits[lead + 1:]
    return "0." + "0" * (-lead - 1) + digits


def format_float(b, f):
    """How ptx-jit prints an element of a float buffer: the shortest decimal
    that reads back to the same pattern (nan, inf, -0 spelled out)."""
    if b is None or is_nan(b, f):
        return "nan"
    sign = "-" if is_neg(b, f) else ""
    if is_inf(b, f):
        return sign + "inf"
    if is_zero(b, f):
        return sign + "0"
    mag = b & ~f.sign_bit
    v = bits_to_double(mag, f)

    def round_trips(mant, exp):
        return round_value(Fraction(mant) * Fraction(10) ** exp, f, "rn") == mag

    for p in range(1, 17):
        s = "%.*e" % (p - 1, v)
        m, e = s.split("e")
        mant = int(m.replace(".", ""))
        exp = int(e) - (p - 1)
        if round_trips(mant, exp):
            return sign + _render(mant, exp)
        for step in (1, -1):
            if mant + step != 0 and round_trips(mant + step, exp):
                return sign + _render(mant + step, exp)
    s = "%.16e" % v
    m, e = s.split("e")
    return sign + _render(int(m.replace(".", "")), int(e) - 16)


# --- Video instructions (PTX ISA 9.7.18) -----------------------------------------
#
# Selectors are written as in PTX without the dot: "b2", "h1" (scalar
# instructions), "h10", "b3210" (SIMD masks), "h32", "b7654" (SIMD sources);
# None when absent. Operands are 32-bit patterns (ints).


def _clamp(x, lo, hi):
    return max(lo, min(hi, x))


def _range(bits, signed):
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def part_select(x, signed, sel):
    """partSelectSignExtend: the selected byte or half-word, or the word,
    of x as a signed or unsigned integer."""
    if sel is None:
        width, pos = 32, 0
    else:
        width = 8 if sel[0] == "b" else 16
        pos = int(sel[1:]) * width
    v = (x >> pos) & ((1 << width) - 1)
    return to_signed(v, width) if signed else v


def _int_compare(x, y, cmp):
    return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y,
            "gt": x > y, "ge": x >= y}[cmp]


def video_scalar(op, types, a, b, c=0, asel=None, bsel=None, dsel=None,
                 sat=False, secop=None, mode=None, cmp=None):
    """vadd vsub vabsdiff vmin vmax vshl vshr vset. types is the type
    suffixes ("s32.u32.s32"; vset's two are its source types). The
    intermediate result is exact (Python ints: the ISA's .s34); .sat clamps
    it to the destination's range (a byte or half-word with dsel); then
    .add/.min/.max combine it with c, or dsel merges its low bits into c.
    The low 32 bits are the result."""
    ts = [t == "s32" for t in types.split(".")]
    if op == "set":
        d_signed, a_signed, b_signed = False, ts[0], ts[1]
    else:
        d_signed, a_signed, b_signed = ts
    if op in ("shl", "shr"):
        b_signed = False
    ta = part_select(a, a_signed, asel)
    tb = part_select(b, b_signed, bsel)
    if op == "add":
        tmp = ta + tb
    elif op == "sub":
        tmp = ta - tb
    elif op == "absdiff":
        tmp = abs(ta - tb)
    elif op == "min":
        tmp = min(ta, tb)
    elif op == "max":
        tmp = max(ta, tb)
    elif op in ("shl", "shr"):
        if mode == "clamp":
            tb = min(tb, 32)
        else:
            tb &= 0x1F
        tmp = ta << tb if op == "shl" else ta >> tb  # >>: fills with the sign
    elif op == "set":
        tmp = 1 if _int_compare(ta, tb, cmp) else 0
    else:
        raise ValueError(op)
    if sat:
        bits = 32 if dsel is None else (8 if dsel[0] == "b" else 16)
        tmp = _clamp(tmp, *_range(bits, d_signed))
    # The third operand's sign is the destination's.
    cv = to_signed(c, 32) if d_signed else to_unsigned(c, 32)
    if secop == "add":
        tmp = tmp + cv
    elif secop == "min":
        tmp = min(tmp, cv)
    elif secop == "max":
        tmp = max(tmp, cv)
    elif dsel is not None:
        width = 8 if dsel[0] == "b" else 16
        pos = int(dsel[1:]) * width
        field = ((1 << width) - 1) << pos
        tmp = ((tmp << pos) & field) | (cv & ~field)
    return tmp & 0xFFFFFFFF


def video_mad(types, a, b, c, asel=None, bsel=None, neg_a=False, neg_b=False,
              neg_c=False, po=False, scale=None, sat=False):
    """vmad, following the ISA's semantics: the product is negated by its
    one's complement plus one (so is c), the sum is exact, .shr7/.shr15
    shift it (arithmetically when the final result is signed) and keep 64
    bits, .sat clamps to the 32-bit range of the final result's sign."""
    _, at, bt = types.split(".")
    a_signed, b_signed = at == "s32", bt == "s32"
    ta = part_select(a, a_signed, asel)
    tb = part_select(b, b_signed, bsel)
    signed_final = a_signed or b_signed or (neg_a != neg_b) or neg_c
    mask128 = (1 << 128) - 1
    tmp = (ta * tb) & mask128
    c = to_unsigned(c, 32)
    lsb = 0
    if po:
        lsb = 1
    elif neg_a != neg_b:
        tmp = ~tmp & mask128
        lsb = 1
    elif neg_c:
        c = ~c & 0xFFFFFFFF
        lsb = 1
    c128 = (to_signed(c, 32) if signed_final else c) & mask128
    tmp = (tmp + c128 + lsb) & mask128
    result = to_signed(tmp, 128) if signed_final else tmp
    if scale:
        result = to_signed(result >> scale, 64) if signed_final else \
            (result >> scale) & ((1 << 64) - 1)
    if sat:
        result = _clamp(result, *_range(32, signed_final))
    return result & 0xFFFFFFFF


def video_simd(op, n, types, a, b, c, asel=None, bsel=None, mask=None,
               sat=False, add=False, cmp=None):
    """The SIMD video instructions on n lanes (2 half-words or 4 bytes).
    Each lane takes an element of the 64-bit b:a by the selector digits
    (written from the highest lane), extended by its operand's type; the
    results are clamped (.sat, by the destination type), then either merged
    into c in the lanes of the mask or summed into c (.add)."""
    w = 32 // n
    ts = [t == "s32" for t in types.split(".")]
    if op == "set":
        d_signed, a_signed, b_signed = False, ts[0], ts[1]
    else:
        d_signed, a_signed, b_signed = ts
    both = (to_unsigned(b, 32) << 32) | to_unsigned(a, 32)

    def elements(sel, default, signed):
        digits = (sel or default)[1:]
        out = []
        for lane in range(n):
            k = int(digits[n - 1 - lane])
            v = (both >> (k * w)) & ((1 << w) - 1)
            out.append(to_signed(v, w) if signed else v)
        return out
    va = elements(asel, "h10" if n == 2 else "b3210", a_signed)
    vb = elements(bsel, "h32" if n == 2 else "b7654", b_signed)
    lanes = [int(x) for x in (mask or ("h10" if n == 2 else "b3210"))[1:]]
    t = []
    for x, y in zip(va, vb):
        if op == "add":
            r = x + y
        elif op == "sub":
            r = x - y
        elif op == "avrg":
            r = (x + y + 1) >> 1 if x + y >= 0 else (x + y) >> 1
        elif op == "absdiff":
            r = abs(x - y)
        elif op == "min":
            r = min(x, y)
        elif op == "max":
            r = max(x, y)
        elif op == "set":
            r = 1 if _int_compare(x, y, cmp) else 0
        else:
            raise ValueError(op)
        if sat:
            r = _clamp(r, *_range(w, d_signed))
        t.append(r)
    c = to_unsigned(c, 32)
    if add:
        d = c + sum(t[i] for i in range(n) if i in lanes)
    else:
        d = 0
        for i in range(n):
            src = t[i] if i in lanes else (c >> (i * w))
            d |= (src & ((1 << w) - 1)) << (i * w)
    return d & 0xFFFFFFFF


# --- cvt's narrow floating-point formats (PTX ISA 5.2.5, 9.7.10.24) -------------
#
# Each format is given by its codes' values, enumerated from the format's
# definition: sign (if any), exponent bits with a bias, mantissa bits with
# an implicit leading one for normal numbers, and the codes the ISA reserves
# (.e4m3: no infinity, only S.1111.111 is NaN; .e5m2: IEEE-like; the 6- and
# 4-bit formats: every code finite; .ue8m0: 2^(code - 127), 0xff NaN).


class NarrowFmt:
    def __init__(self, name, ebits, mbits, bias, kind):
        self.name, self.ebits, self.mbits, self.bias = name, ebits, mbits, bias
        self.kind = kind  # "fn" (e4m3), "ieee" (e5m2), "finite", "ue8m0"
        self.signed = kind != "ue8m0"
        self.bits = ebits + mbits + (1 if self.signed else 0)
        self.values = {}  # code of a non-negative magnitude -> Fraction
        for code in range(1 << (ebits + mbits)):
            e, m = code >> mbits, code & ((1 << mbits) - 1)
            if kind == "ue8m0":
                if code != 0xFF:
                    self.values[code] = Fraction(2) ** (code - 127)
                continue
            if kind == "fn" and code == (1 << (ebits + mbits)) - 1:
                continue  # NaN
            if kind == "ieee" and e == (1 << ebits) - 1:
                continue  # infinity and NaNs
            if e == 0:
                v = Fraction(m) * Fraction(2) ** (1 - bias - mbits)
            else:
                v = Fraction(m + (1 << mbits)) * Fraction(2) ** (e - bias - mbits)
            self.values[code] = v
        self.max_code = max(self.values, key=lambda c: self.values[c])

    def value(self, code):
        """The value of a code: a Fraction, "inf", "-inf" or "nan"."""
        sign_bit = 1 << (self.bits - 1) if self.signed else 0
        mag = code & ~sign_bit & ((1 << self.bits) - 1)
        neg = bool(code & sign_bit)
        if mag not in self.values:
            if self.kind == "ieee" and mag == ((1 << self.ebits) - 1) << self.mbits:
                return "-inf" if neg else "inf"
            return "nan"
        v = self.values[mag]
        return -v if neg else v


E4M3 = NarrowFmt("e4m3", 4, 3, 7, "fn")
E5M2 = NarrowFmt("e5m2", 5, 2, 15, "ieee")
E2M3 = NarrowFmt("e2m3", 2, 3, 1, "finite")
E3M2 = NarrowFmt("e3m2", 3, 2, 3, "finite")
E2M1 = NarrowFmt("e2m1", 2, 1, 1, "finite")
UE8M0 = NarrowFmt("ue8m0", 8, 0, 127, "ue8m0")


def narrow_round(mag, fmt, mode):
    """The code of the magnitude mag (a Fraction >= 0, or "inf") rounded in
    mode (rn: nearest, ties to the even code; rz: toward zero; rp: up),
    or None when it is beyond the largest finite value."""
    codes = sorted(fmt.values, key=lambda c: fmt.values[c])
    if mag == "inf" or mag > fmt.values[fmt.max_code]:
        if mode == "rz" and mag != "inf":
            return fmt.max_code
        if mode == "rn" and mag != "inf":
            # Still nearest to the largest value below its half-way point.
            top = fmt.values[fmt.max_code]
            prev = fmt.values[codes[-2]]
            if mag - top < (top - prev) / 2:
                return fmt.max_code
        return None
    below = max((c for c in codes if fmt.values[c] <= mag), default=None,
                key=lambda c: fmt.values[c])
    above = min((c for c in codes if fmt.values[c] >= mag), default=None,
                key=lambda c: fmt.values[c])
    if below is None:  # .ue8m0 below its smallest value, 2^-127
        return above if mode == "rp" else codes[0]
    if fmt.values[below] == mag or mode == "rz":
        return below
    if mode == "rp":
        return above
    lo, hi = mag - fmt.values[below], fmt.values[above] - mag
    if lo != hi:
        return below if lo < hi else above
    return below if below % 2 == 0 else above


def cvt_to_narrow(x, src, fmt, mode="rn", satfinite=True, relu=False):
    """One element of cvt to a narrow format from pattern x of format src
    (F32, F16 or BF16). Returns the code, or None for a NaN result (whose
    code is not specified)."""
    if is_nan(x, src):
        # Formats without NaN take their largest positive value.
        return None if fmt.kind in ("fn", "ieee", "ue8m0") else fmt.max_code
    neg = is_neg(x, src) and fmt.signed
    mag = "inf" if is_inf(x, src) else abs(value(x, src))
    code = narrow_round(mag, fmt, mode)
    if code is None:
        if satfinite:
            code = fmt.max_code
        elif fmt.kind == "ieee":
            code = ((1 << fmt.ebits) - 1) << fmt.mbits  # infinity
        else:
            return None  # NaN: .e4m3 and .ue8m0 have no infinity
    if relu and neg:
        return 0
    return code | ((1 << (fmt.bits - 1)) if neg else 0)


def cvt_from_narrow(code, fmt, dst, relu=False):
    """cvt.rn{.relu}.{f16x2,bf16x2} from a narrow format: exact; None for
    NaN."""
    v = fmt.value(code)
    if v == "nan":
        return None
    if relu and (v == "-inf" or (v != "inf" and v < 0) or
                 (v == 0 and code >> (fmt.bits - 1) and fmt.signed)):
        return 0
    if v in ("inf", "-inf"):
        return dst.inf(v == "-inf")
    neg_zero = v == 0 and fmt.signed and bool(code >> (fmt.bits - 1))
    return round_value(v, dst, "rn", zero_neg=neg_zero)


TF32 = Fmt("tf32", 8, 10)


def cvt_to_tf32(x, mode, satfinite=False, relu=False):
    """cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32: the .f32 pattern of the
    value rounded to 10 mantissa bits (low 13 bits zero); None for NaN."""
    if is_nan(x, F32):
        return None
    neg = is_neg(x, F32)
    if is_inf(x, F32):
        r = TF32.inf(neg)
    elif is_zero(x, F32):
        r = TF32.zero(neg)
    else:
        r = round_value(value(x, F32), TF32, mode)
    if satfinite and is_inf(r, TF32):
        r = TF32.max_bits(neg)
    if relu and is_neg(r, TF32):
        r = 0
    return r << 13


def cvt_pack_sat(conv_type, a, b, c=0):
    """cvt.pack.sat: a and b (s32) clamped to conv_type ("u8", "s4", ...),
    b in the lowest bits, a above it, then the low bits of c."""
    signed = conv_type[0] == "s"
    bits = int(conv_type[1:])
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else \
        (0, (1 << bits) - 1)
    ta = max(lo, min(hi, to_signed(a, 32))) & ((1 << bits) - 1)
    tb = max(lo, min(hi, to_signed(b, 32))) & ((1 << bits) - 1)
    d = tb | (ta << bits)
    if bits < 16:
        d |= to_unsigned(c, 32) << (2 * bits)
    return d & 0xFFFFFFFF
