#!/usr/bin/env python3
"""Inputs and reference results for the kernels of
test/Inputs/cuda/textures.cu (corpus-textures.test), written from the CUDA
Programming Guide's texture fetching rules (never from ptx-jit's output):

  point sampling    T[floor(x)] (x times the size first for normalized
                    coordinates), the index clamped to the texture
  linear filtering  xB = x - 0.5, i = floor(xB), a = frac(xB), likewise
                    y, j, b: (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j]
                    + (1-a) b T[i,j+1] + a b T[i+1,j+1]
  gather (tld4)     the bilinear footprint of component comp, counter-
                    clockwise from the lower left: T[i,j+1], T[i+1,j+1],
                    T[i+1,j], T[i,j]
  cubemaps          the major axis picks the face; (s, t) = ((sc / |ma|)
                    + 1) / 2, ((tc / |ma|) + 1) / 2 with the Guide's table
                    of sc and tc; then point sampling of that face
  surfaces          suld/sust .b move raw bytes at byte offset x

The coordinates are chosen so that the filter weights (0.75, 0.25) are
exact in the hardware's 8-bit fraction and every texel is a small integer:
each result is exact whatever the order of the sums.

  corpustextures.py gen DIR            writes the inputs into DIR
  corpustextures.py check DIR VARIANT  checks DIR/VARIANT.KERNEL.OUT files
"""

import math
import os
import random
import struct
import sys
from fractions import Fraction

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpuscheck import F32, enc, main, write  # noqa: E402

FETCH_N = 64
SAMPLE_W, SAMPLE_H = 8, 4
GATHER_W, GATHER_H = 40, 4
LAYER_W, LAYER_H, LAYERS = 16, 4, 3
VOLUME = 4  # the 3D texture and the cube faces are 4 wide
SURF_W, SURF_H = 16, 4
CHARS = 33


def ints(rng, n, lo, hi):
    return [rng.randint(lo, hi) for _ in range(n)]


def inputs():
    """Every input buffer, by file name: (type, values)."""
    rng = random.Random(20261207)
    return {
        "fetch.f32": ("f32", [Fraction(v, 4)
                              for v in ints(rng, FETCH_N, -2000, 2000)]),
        "sample.f32": ("f32", ints(rng, SAMPLE_W * SAMPLE_H * 4, 0, 255)),
        "gather.f32": ("f32", ints(rng, GATHER_W * GATHER_H * 4, -100, 100)),
        "layers1.f32": ("f32", ints(rng, LAYER_W * LAYERS, -500, 500)),
        "layers2.f32": ("f32", ints(rng, LAYER_W * LAYER_H * LAYERS,
                                    -500, 500)),
        "volume.f32": ("f32", ints(rng, VOLUME ** 3, -500, 500)),
        "cube.f32": ("f32", ints(rng, VOLUME * VOLUME * 6, -500, 500)),
        "cubes.f32": ("f32", ints(rng, VOLUME * VOLUME * 12, -500, 500)),
        "surf1.f32": ("f32", ints(rng, SURF_W, -1000, 1000)),
        "surf2.u32": ("u32", [rng.getrandbits(32)
                              for _ in range(SURF_W * SURF_H)]),
        "chars.s8": ("s8", ints(rng, CHARS, -128, 127)),
    }


def gen(d):
    for name, (ty, values) in inputs().items():
        if ty == "f32":
            write(os.path.join(d, name), "u32", [enc(v, F32) for v in values])
        else:
            write(os.path.join(d, name), ty, values)


def f32(x):
    """x rounded to binary32 (Python floats are binary64; the products
    here are of binary32 values, so the double product is exact)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def clamp(i, n):
    return min(max(i, 0), n - 1)


def texel(T, W, H, C, i, j, c, slice_=0):
    """Channel c of texel (i, j) of slice slice_, the indices clamped."""
    i, j = clamp(i, W), clamp(j, H)
    return T[((slice_ * H + j) * W + i) * C + c]


def bilinear(T, W, H, C, x, y, c):
    xb, yb = x - Fraction(1, 2), y - Fraction(1, 2)
    i, j = math.floor(xb), math.floor(yb)
    a, b = xb - i, yb - j
    return ((1 - a) * (1 - b) * texel(T, W, H, C, i, j, c) +
            a * (1 - b) * texel(T, W, H, C, i + 1, j, c) +
            (1 - a) * b * texel(T, W, H, C, i, j + 1, c) +
            a * b * texel(T, W, H, C, i + 1, j + 1, c))


def cube_face(x, y, z):
    """(face, s, t) of direction (x, y, z): the Guide's cubemap table."""
    ax, ay, az = abs(x), abs(y), abs(z)
    if ax >= ay and ax >= az:
        face, ma, sc, tc = (0, ax, -z, -y) if x > 0 else (1, ax, z, -y)
    elif ay >= az:
        face, ma, sc, tc = (2, ay, x, z) if y > 0 else (3, ay, x, -z)
    else:
        face, ma, sc, tc = (4, az, x, -y) if z > 0 else (5, az, -x, -y)
    return face, (sc / ma + 1) / 2, (tc / ma + 1) / 2


def cube_point(T, W, face, s, t):
    return texel(T, W, W, 1, math.floor(s * W), math.floor(t * W), 0, face)


def bits(values):
    return [enc(v, F32) for v in values]


def expected(d, sm):
    inp = {name: values for name, (ty, values) in inputs().items()}

    # fetchLinear: Out[I] = T[I] + T[N - 1 - I].
    T = inp["fetch.f32"]
    yield ("fetchLinear.out", "u32",
           bits(T[i] + T[FETCH_N - 1 - i] for i in range(FETCH_N)))

    # sample2D: (X + .25) / W and (Y + .75) / H, normalized, linear: a =
    # .75, b = .25. The texture has one level, so tex2DLod and tex2DGrad
    # read level 0 as tex2D does.
    T, W, H = inp["sample.f32"], SAMPLE_W, SAMPLE_H
    out = []
    for Y in range(H):
        for X in range(W):
            x = Fraction(X) + Fraction(1, 4)
            y = Fraction(Y) + Fraction(3, 4)
            f = [bilinear(T, W, H, 4, x, y, c) for c in range(4)]
            out += [f[0] + f[1], f[1] + f[2], f[3], f[0]]
    yield "sample2D.out", "u32", bits(out)

    # gather2D: (X + .5, 1.5), unnormalized: i = X, j = 1.
    T, W, H = inp["gather.f32"], GATHER_W, GATHER_H
    out = []
    for X in range(32):
        c = X % 4
        out += [texel(T, W, H, 4, X, 2, c), texel(T, W, H, 4, X + 1, 2, c),
                texel(T, W, H, 4, X + 1, 1, c), texel(T, W, H, 4, X, 1, c)]
    yield "gather2D.out", "u32", bits(out)

    # sampleLayered: X = I * 0.37f in binary32, point, unnormalized; the 1D
    # layers are rows, the 2D ones slices.
    T1, T2 = inp["layers1.f32"], inp["layers2.f32"]
    out = []
    for I in range(32):
        x = math.floor(f32(float(I) * f32(0.37)))
        a = texel(T1, LAYER_W, LAYERS, 1, x, I % LAYERS, 0)
        b = texel(T2, LAYER_W, LAYER_H, 1, x, 1, 0, (I + 1) % LAYERS)
        out.append(a + b)
    yield "sampleLayered.out", "u32", bits(out)

    # sample3DCube: S = I / 32; the volume normalized and point-sampled;
    # the cubemap at (S - .5, 1, .25 - S), the layered one at (1, S, -S),
    # layer 1 (faces 6 to 11).
    T3, C1, C2 = inp["volume.f32"], inp["cube.f32"], inp["cubes.f32"]
    out = []
    for I in range(32):
        S = Fraction(I, 32)
        v = texel(T3, VOLUME, VOLUME, 1, math.floor(S * VOLUME),
                  math.floor((1 - S) * VOLUME), 0,
                  clamp(math.floor(Fraction(1, 2) * VOLUME), VOLUME))
        face, s, t = cube_face(S - Fraction(1, 2), Fraction(1),
                               Fraction(1, 4) - S)
        v += cube_point(C1, VOLUME, face, s, t)
        face, s, t = cube_face(Fraction(1), S, -S)
        v += cube_point(C2, VOLUME, 6 + face, s, t)
        out.append(v)
    yield "sample3DCube.out", "u32", bits(out)

    # surfaces: S2's texels are uchar4 (x the low byte), each x inverted;
    # S1[X] = 2 S1[X] + X.
    yield ("surfaces.s1", "u32",
           bits(2 * v + X for X, v in enumerate(inp["surf1.f32"])))
    yield ("surfaces.s2", "u32",
           [(v & ~0xFF) | (255 - (v & 0xFF)) for v in inp["surf2.u32"]])

    # textureQueries: signed chars read as ints, element read mode.
    c = inp["chars.s8"]
    yield "textureQueries.out", "s32", [c[t] + c[t + 1] for t in range(32)]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], __doc__, gen, expected))
