#!/usr/bin/env python3
"""Checks a raw buffer that `ptx-jit run --arg 'TYPE[N]>FILE'` wrote.

  expect.py [--list] [--models DIR] FILE TYPE EXPR [NAME=VALUE ...]

Element i of FILE (little-endian TYPE: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64)
must equal EXPR evaluated with i (the index), n (the element count) and the
NAME=VALUE bindings (Python expressions over earlier names, lambdas too). With
--list, EXPR is evaluated once and must give the whole list. Floats compare
exactly unless tol=... is bound; an expected None is not checked. load(PATH, TYPE) reads another raw file (an
input written by gen.py), popc(x) counts bits, and every NAMEmodels.py in
this directory and in each --models DIR is there as NAMEmodels (reference
models of the CUDA kernels). Prints the first mismatches and exits 1 on
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


def load_models(dirs):
    """Every NAMEmodels.py in dirs, as a module named NAMEmodels."""
    import importlib
    mods = {}
    for d in dirs:
        sys.path.insert(0, d)
        for f in sorted(os.listdir(d)):
            if f.endswith("models.py"):
                mods[f[:-3]] = importlib.import_module(f[:-3])
    return mods


def main(argv):
    as_list = False
    dirs = [os.path.dirname(os.path.abspath(__file__))]
    while argv and argv[0].startswith("--"):
        if argv[0] == "--list":
            as_list = True
            argv = argv[1:]
        elif argv[0] == "--models" and len(argv) > 1:
            dirs.append(argv[1])
            argv = argv[2:]
        else:
            sys.exit("unknown option " + argv[0])
    if len(argv) < 3:
        sys.exit(__doc__)
    path, ty, expr = argv[:3]
    got = read(path, ty)
    env = {"n": len(got), "math": math, "popc": popc, "load": read}
    env.update(load_models(dirs))
    for binding in argv[3:]:
        name, _, value = binding.partition("=")
        env[name] = eval(value, env)
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
        if w is None:  # not checked (undefined on a GPU)
            continue
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
