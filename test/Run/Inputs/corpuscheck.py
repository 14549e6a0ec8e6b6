"""Shared by the corpus models (corpuswmma.py, corpusmma.py, corpusintops.py):
raw little-endian buffers as `ptx-jit run --arg 'TYPE[N]=@FILE'` reads and
`--arg 'TYPE[N]>FILE'` writes them, exact float encodings, and the
element-by-element comparison. Standard library (and ptxref.py) only.
"""

import os
import struct
import sys
from fractions import Fraction

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxref as R  # noqa: E402
from ptxref import F16, BF16, F32, F64  # noqa: E402,F401

FORMATS = {"u8": "B", "s8": "b", "u16": "H", "s16": "h", "u32": "I",
           "s32": "i", "u64": "Q", "s64": "q"}
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1


def write(path, ty, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), FORMATS[ty]), *values))


def read(path, ty):
    fmt = FORMATS[ty]
    size = struct.calcsize(fmt)
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % size:
        sys.exit("%s: %d bytes is not a whole number of %s"
                 % (path, len(data), ty))
    return list(struct.unpack("<%d%s" % (len(data) // size, fmt), data))


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


# --- Exact floating-point values -------------------------------------------


def enc(v, fmt):
    """The bits of the exact value v (int, Fraction) in fmt; v must be
    representable (the models only use exact values)."""
    v = Fraction(v)
    b = R.round_value(v, fmt, "rn")
    assert R.value(b, fmt) == v, "%s is not exact in %s" % (v, fmt.name)
    return b


def val(b, fmt):
    """The exact value (Fraction) of the finite pattern b."""
    assert not R.is_nan(b, fmt) and not R.is_inf(b, fmt)
    return R.value(b, fmt)


def representable(v, fmt):
    return R.value(R.round_value(Fraction(v), fmt, "rn"), fmt) == Fraction(v)


def order_free(terms, fmt):
    """Whether every way of adding the exact values `terms` in fmt gives the
    exact sum, whatever the order and the grouping (and so whatever
    accumulation order and internal width the hardware uses): all terms are
    multiples of one power of two 2^q, and the sum of their magnitudes has
    at most fmt's significand width of bits above 2^q (then every partial
    sum is such a multiple below that bound, hence exact)."""
    terms = [Fraction(t) for t in terms if t != 0]
    if not terms:
        return True
    q = min(lowest_bit(t) for t in terms)
    total = sum(abs(t) for t in terms)
    return total < Fraction(2) ** (q + fmt.mbits + 1)


def lowest_bit(t):
    """The exponent of the lowest set bit of the nonzero dyadic t."""
    num, den = abs(t.numerator), t.denominator
    assert den & (den - 1) == 0, "not dyadic"
    e = 0
    while num % 2 == 0:
        num //= 2
        e += 1
    return e - (den.bit_length() - 1)


# --- Checking --------------------------------------------------------------


class AnyOf:
    """An expected element that may be any of several values: what
    overlapping stores of one instruction leave (the ISA does not say which
    thread's store lands last), or what undefined behaviour in the CUDA
    source allows."""

    def __init__(self, values):
        self.values = sorted(set(values))

    def matches(self, x):
        return x in self.values

    def __repr__(self):
        return "one of %s" % ", ".join(hex(v) for v in self.values)


def show(x, ty):
    bits = 8 * struct.calcsize(FORMATS[ty])
    return "%d (%#x)" % (x, x & ((1 << bits) - 1))


def check(label, path, ty, want):
    """Compares the raw buffer at path (element type ty; floats are compared
    as their bit patterns, so give ty u16/u32/u64) with want. Prints
    'ok: LABEL n=N' or the first mismatches; returns the mismatch count."""
    if not os.path.exists(path):
        print("%s: no output file %s" % (label, path))
        return 1
    got = read(path, ty)
    if len(got) != len(want):
        print("%s: %d elements, expected %d" % (label, len(got), len(want)))
        return 1
    bad = 0
    for i, (g, w) in enumerate(zip(got, want)):
        same = w.matches(g) if isinstance(w, AnyOf) else g == w
        if not same:
            if bad < 8:
                print("%s[%d] = %s, expected %s" % (
                    label, i, show(g, ty),
                    w if isinstance(w, AnyOf) else show(w, ty)))
            bad += 1
    if bad:
        print("%s: %d of %d elements differ" % (label, bad, len(got)))
    else:
        print("ok: %s n=%d" % (label, len(got)))
    return bad


def main(argv, doc, gen, expected):
    """The models' command line: `gen DIR` writes the inputs into DIR;
    `check DIR VARIANT` compares each output buffer that VARIANT's runs
    wrote into DIR with expected(DIR, sm), an iterable of (name, type,
    values) in the order the lines are printed (sm: the variant's target,
    nvcc-sm80-O3 -> 80). Returns the exit status."""
    if len(argv) == 2 and argv[0] == "gen":
        gen(argv[1])
        return 0
    if len(argv) == 3 and argv[0] == "check":
        d, variant = argv[1], argv[2]
        sm = int(variant.split("-")[1][2:])
        bad = 0
        for name, ty, values in expected(d, sm):
            bad += check("%s %s" % (variant, name),
                         os.path.join(d, "%s.%s" % (variant, name)), ty,
                         values) != 0
        return 1 if bad else 0
    sys.exit(doc)
