#!/usr/bin/env python3
"""Checks the .approx (and div.full) results that approx-functions.ptx
prints against the error bounds of the PTX ISA, with references computed in
double precision, and the special-value tables of the ISA exactly.

Reads `ptx-jit run` output (the input buffers x and y are printed too) and
prints one `OK name (n values)` line per output, or the failures; exits 1
if anything is out of bounds.
"""

import math
import struct
import sys


def f32(x):
    """x rounded to float (to nearest)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def ulp32(x):
    """The distance from |x| (a finite f32 value) to the next f32 up."""
    x = abs(x)
    if x < 2.0 ** -126:
        return 2.0 ** -149
    e = math.frexp(x)[1] - 1
    return 2.0 ** (e - 23)


def parse(text):
    bufs = {}
    for line in text.splitlines():
        if " = [" not in line:
            continue
        name, rest = line.split(" = [", 1)
        items = rest.rstrip("]").split(", ") if rest.strip() != "]" else []
        # Every buffer is .f32: read each shortest decimal back to its float.
        bufs[name.strip()] = [f32(float(v)) for v in items]
    return bufs


def same(a, b):
    """Equal, NaN equal to NaN, and the signs of zeros equal."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def special(fn, x):
    """The ISA's table for an input, or None when the bound applies."""
    if math.isnan(x):
        return math.nan
    tables = {
        "sin": {math.inf: math.nan, -math.inf: math.nan},
        "cos": {math.inf: math.nan, -math.inf: math.nan},
        "lg2": {math.inf: math.inf, -math.inf: math.nan},
        "ex2": {math.inf: math.inf, -math.inf: 0.0},
        "tanh": {math.inf: 1.0, -math.inf: -1.0},
        "rsqrt": {math.inf: 0.0, -math.inf: math.nan},
        "rcp": {math.inf: 0.0, -math.inf: -0.0},
        "sqrt": {math.inf: math.inf, -math.inf: math.nan},
    }
    t = tables[fn]
    if x in t:
        return t[x]
    if x == 0:
        return {"sin": x, "cos": 1.0, "lg2": -math.inf, "ex2": 1.0, "tanh": x,
                "rsqrt": math.copysign(math.inf, x),
                "rcp": math.copysign(math.inf, x), "sqrt": x}[fn]
    if x < 0 and fn in ("lg2", "rsqrt", "sqrt"):
        return math.nan
    if fn == "ex2" and x >= 128:
        return math.inf  # beyond the largest finite value by far
    return None


def flush(x):
    return math.copysign(0.0, x) if x != 0 and abs(x) < 2.0 ** -126 else x


def bound(fn, x):
    """(reference, tolerance) for fn at a finite x, from the ISA's bounds;
    None where the ISA promises nothing (sin/cos beyond 100 pi)."""
    if fn == "sin" or fn == "cos":
        if abs(x) > 100 * math.pi:
            return None
        ref = math.sin(x) if fn == "sin" else math.cos(x)
        return ref, 2 ** -20.5 if abs(x) <= 2 * math.pi else 2 ** -14.7
    if fn == "lg2":
        ref = math.log2(x)
        return ref, 2 ** -22 if 0.5 < x < 2 else 2 ** -22 * abs(ref)
    if fn == "ex2":
        ref = f32(2.0 ** x)
        return ref, 2 * ulp32(ref)
    if fn == "tanh":
        ref = math.tanh(x)
        return ref, 2 ** -11 * abs(ref)
    if fn == "rsqrt":
        ref = 1 / math.sqrt(x)
        return ref, 2 ** -22.9 * ref
    if fn == "sqrt":
        ref = math.sqrt(x)
        return ref, 2 ** -23 * ref
    if fn == "rcp":
        ref = f32(1 / x)
        return ref, 0 if math.isinf(ref) else ulp32(ref)
    raise ValueError(fn)


def within(fn, x, got):
    """Whether got is within the ISA's bound for fn(x); x is finite."""
    b = bound(fn, x)
    if b is None:
        return abs(got) <= 1
    ref, tol = b
    if math.isinf(ref):
        return got == ref  # e.g. the reciprocal of a tiny subnormal
    if math.isnan(got) or math.isinf(got):
        return False
    return abs(got - ref) <= tol


def check_unary(name, fn, xs, ys, ftz):
    bad = []
    for x, got in zip(xs, ys):
        if ftz:
            x = flush(x)
        want = special(fn, x)
        if want is not None:
            ok = same(got, want)
        elif ftz and got == 0:
            # .ftz flushes subnormal results: zero is right when the result
            # may be subnormal.
            b = bound(fn, x)
            # Where the ISA promises nothing (sin/cos beyond 100 pi), a zero
            # is as good as any value in [-1, 1] (an H200 gives one).
            ok = b is None or abs(b[0]) - b[1] < 2.0 ** -126
        else:
            ok = within(fn, x, got)
            if ok and ftz and abs(got) < 2.0 ** -126:
                ok = False  # .ftz flushes subnormal results
        if not ok:
            bad.append("%s(%r) = %r" % (fn, x, got))
    return bad


def ieee_divide(a, b):
    """a / b when an operand is zero or infinite, as IEEE 754 defines it."""
    sign = math.copysign(1, a) * math.copysign(1, b)
    if (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
        return math.nan
    if b == 0 or math.isinf(a):
        return math.copysign(math.inf, sign)
    return math.copysign(0.0, sign)


def check_div(name, xs, ys, got, full):
    bad = []
    for a, b, d in zip(xs, ys, got):
        if math.isnan(a) or math.isnan(b):
            ok = math.isnan(d)
        elif not full and 2.0 ** 126 < abs(b) < 2.0 ** 128:
            # The ISA: NaN for an infinite a, otherwise a signed zero.
            if math.isinf(a):
                ok = math.isnan(d)
            else:
                ok = d == 0 and math.copysign(1, d) == math.copysign(1, a) * math.copysign(1, b)
        elif math.isinf(a) or math.isinf(b) or b == 0 or a == 0:
            ok = same(d, ieee_divide(a, b))
        else:
            ref = f32(a / b)
            ok = same(d, ref) if math.isinf(ref) else \
                not math.isnan(d) and abs(d - ref) <= 2 * ulp32(ref)
        if not ok:
            bad.append("%r / %r = %r" % (a, b, d))
    return bad


CHECKS = {
    "sin": ("sin", False), "cos": ("cos", False), "lg2": ("lg2", False),
    "ex2": ("ex2", False), "tanh": ("tanh", False), "rsqrt": ("rsqrt", False),
    "rcp": ("rcp", False), "sqrt": ("sqrt", False), "sin_ftz": ("sin", True),
    "lg2_ftz": ("lg2", True), "ex2_ftz": ("ex2", True), "rsqrt_ftz": ("rsqrt", True),
}


def main():
    bufs = parse(sys.stdin.read())
    xs, ys = bufs.pop("x"), bufs.pop("y")
    failed = False
    for name, got in bufs.items():
        if name in ("div_approx", "div_full"):
            bad = check_div(name, xs, ys, got, name == "div_full")
        elif name in CHECKS:
            fn, ftz = CHECKS[name]
            bad = check_unary(name, fn, xs, got, ftz)
        else:
            print("unknown output " + name)
            failed = True
            continue
        if bad:
            failed = True
            print("FAIL %s: %s" % (name, "; ".join(bad)))
        else:
            print("OK %s (%d values)" % (name, len(got)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
