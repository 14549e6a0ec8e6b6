#!/usr/bin/env python3
"""Writes test input for `ptx-jit run --arg 'TYPE[N]=@FILE'`.

  gen.py FILE TYPE N SEED LO HI

N pseudo-random integers in [LO, HI] from Python's random.Random(SEED), as
raw little-endian TYPE (u32 s32 u64 s64 f32 f64; floats hold the integers
exactly). expect.py's load(FILE, TYPE) reads them back. Standard library only.
"""
import random
import struct
import sys

FORMATS = {"u32": "I", "s32": "i", "u64": "Q", "s64": "q", "f32": "f", "f64": "d"}

def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    path, ty, n, seed, lo, hi = argv
    rng = random.Random(int(seed))
    vals = [rng.randint(int(lo), int(hi)) for _ in range(int(n))]
    if ty.startswith("f"):
        vals = [float(v) for v in vals]
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), FORMATS[ty]), *vals))

if __name__ == "__main__":
    main(sys.argv[1:])
