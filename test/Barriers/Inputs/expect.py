#!/usr/bin/env python3
"""Checks a raw buffer that `ptx-jit run --arg 'TYPE[N]>FILE'` wrote.

  expect.py FILE TYPE EXPR [NAME=VALUE ...]

Element i of FILE (little-endian TYPE: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)
must equal EXPR evaluated with i (the index), n (the element count) and the
NAME=VALUE bindings (Python expressions over earlier names, lambdas too). With
--list, EXPR is evaluated once and must give the whole list. Floats compare
exactly unless tol=... is bound. load(PATH, TYPE) reads another raw file (an
input written by gen.py), popc(x) counts bits, and models holds reference
models of the CUDA kernels (models.py). Prints the first mismatches and exits 1 on
any; prints "ok: FILE n=N" otherwise. Standard library only.
"""
import math
import os
import struct
import sys

FORMATS = {"u8": "B", "s8": "b", "u16": "H", "s16": "h", "u32": "I",
           "s32": "i", "u64": "Q", "s64": "q", "f32": "f", "f64": "d"}


def read(path, ty):
    fmt = FORMATS[ty]
    size = struct.calcsize(fmt)
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % size:
        sys.exit("%s: %d bytes is not a whole number of %s" % (path, len(data), ty))
    return list(struct.unpack("<%d%s" % (len(data) // size, fmt), data))


def popc(x):
    return bin(x & 0xffffffffffffffff).count("1")


def main(argv):
    as_list = False
    if argv and argv[0] == "--list":
        as_list = True
        argv = argv[1:]
    if len(argv) < 3:
        sys.exit(__doc__)
    path, ty, expr = argv[:3]
    got = read(path, ty)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import models
    env = {"n": len(got), "math": math, "popc": popc, "load": read,
           "models": models}
    for binding in argv[3:]:
        name, _, value = binding.partition("=")
        env[name] = eval(value, dict(env))
    tol = env.get("tol")
    if as_list:
        want = list(eval(expr, dict(env)))
        if len(want) != len(got):
            print("%s: %d elements, expected %d" % (path, len(got), len(want)))
            return 1
    else:
        want = [eval(expr, dict(env, i=i)) for i in range(len(got))]
    bad = 0
    for i, (g, w) in enumerate(zip(got, want)):
        if ty in ("f32", "f64"):
            if isinstance(w, float) and math.isnan(w):
                same = math.isnan(g)
            elif tol is not None:
                same = abs(g - w) <= tol * max(1.0, abs(w))
            else:
                same = g == w
        else:
            same = g == w
        if not same:
            if bad < 10:
                print("%s[%d] = %r, expected %r" % (os.path.basename(path), i, g, w))
            bad += 1
    if bad:
        print("%d of %d elements differ" % (bad, len(got)))
        return 1
    print("ok: %s n=%d" % (os.path.basename(path), len(got)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
