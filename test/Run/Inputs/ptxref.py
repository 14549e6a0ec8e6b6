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
