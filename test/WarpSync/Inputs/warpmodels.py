"""Reference models of the kernels in test/Inputs/cuda/barriers_warp.cu,
written from the CUDA C++ Programming Guide's description of the intrinsics
(not from the PTX formulas ptx-jit implements, and never from its output):

  __shfl_sync(m, v, src, w):   lane (start of its w-wide segment) + src % w
  __shfl_up_sync(m, v, d, w):  lane - d, own value if that leaves the segment
  __shfl_down_sync(m, v, d, w): lane + d, own value if that leaves the segment
  __shfl_xor_sync(m, v, x, w): lane ^ x, own value if that is in a later segment

Each function returns the flattened out[k * n + g] list of a kernel, for
blocks that are whole warps. Also input generators:
  python3 warpmodels.py gen-KIND FILE N
Standard library only.
"""
import random
import struct
import sys

M32 = 0xffffffff
M64 = (1 << 64) - 1


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def shfl_idx(vals, lane, src, w=32):
    return vals[lane - lane % w + src % w]


def shfl_up(vals, lane, d, w=32):
    j = lane - d
    return vals[j] if j >= lane - lane % w else vals[lane]


def shfl_down(vals, lane, d, w=32):
    j = lane + d
    return vals[j] if j < lane - lane % w + w else vals[lane]


def shfl_xor(vals, lane, x, w=32):
    j = lane ^ x
    return vals[j] if j < lane - lane % w + w else vals[lane]


def warps(x):
    for base in range(0, len(x), 32):
        yield base, x[base:base + 32]


def per_thread(x, k, fn):
    """out[j * n + g] = fn(warp values, lane, g)[j] for j < k."""
    n = len(x)
    out = [0] * (k * n)
    for base, w in warps(x):
        for lane in range(32):
            r = fn(w, lane)
            for j in range(k):
                out[j * n + base + lane] = r[j]
    return out


def shfl_widths(x):
    def f(w, l):
        return [shfl_idx(w, l, (l * 7 + 3) % 32), shfl_idx(w, l, l * 3, 16),
                shfl_idx(w, l, 5, 8), shfl_idx(w, l, l + 1, 4),
                shfl_up(w, l, 3), shfl_up(w, l, 2, 16), shfl_up(w, l, 1, 8),
                shfl_up(w, l, 3, 4),
                shfl_down(w, l, 5), shfl_down(w, l, 4, 16),
                shfl_down(w, l, 2, 8), shfl_down(w, l, 1, 4),
                shfl_xor(w, l, 21), shfl_xor(w, l, 20, 16),
                shfl_xor(w, l, 3, 8), shfl_xor(w, l, 1, 4)]
    return per_thread(x, 16, f)


def shfl_registers(x, delta, width):
    def f(w, l):
        return [shfl_idx(w, l, w[l] % 32, width), shfl_up(w, l, delta, width),
                shfl_down(w, l, delta, width), shfl_xor(w, l, delta, width),
                shfl_idx(w, l, l ^ delta, width)]
    return per_thread(x, 5, f)


def shfl64(x, what):
    def ints(w, l):
        v = [(w[i] << 32 | (i * 0x01010101)) & M64 for i in range(32)]
        return [shfl_idx(v, l, (l + 5) % 32), shfl_up(v, l, 4, 16),
                shfl_down(v, l, 3), shfl_xor(v, l, 6, 8)]

    def doubles(w, l):
        d = [w[i] * 0.25 + i for i in range(32)]
        return [shfl_idx(d, l, 31 - l), shfl_up(d, l, 1, 8),
                shfl_down(d, l, 7, 16), shfl_xor(d, l, 16)]
    return per_thread(x, 4, ints if what == "u64" else doubles)


def shfl_divergent(x):
    def f(w, l):
        if l < 12:
            return [w[(l + 1) % 12]]
        if l >= 20:
            return [w[l + 2] if l + 2 < 32 else w[l]]
        return [w[l ^ 1]]
    return per_thread(x, 1, f)


def ballot(preds, lanes):
    return sum(1 << l for l in lanes if preds[l])


def votes(x):
    def f(w, l):
        p = [v > 0 for v in w]
        full = range(32)
        group = [i for i in full if i % 3 == l % 3]
        b = ballot(p, group)
        if l % 3 == 0:
            s = int(all(p[i] for i in group))
        elif l % 3 == 1:
            s = int(any(p[i] for i in group))
        else:
            s = int(len({p[i] for i in group}) == 1)
        return [int(all(p)), int(any(p)), int(len(set(p)) == 1),
                ballot(p, full), b, s, 1, 0]
    return per_thread(x, 8, f)


def matches(x):
    def f(w, l):
        anym = sum(1 << i for i in range(32) if w[i] == w[l])
        same = len(set(w)) == 1
        allm = M32 if same else 0
        return [anym, allm, int(same), anym, allm, int(same)]
    return per_thread(x, 6, f)


def reduxes(x):
    def f(w, l):
        s = [s32(v) for v in w]
        r_and = M32
        r_or = r_xor = 0
        for v in w:
            r_and &= v
            r_or |= v
            r_xor ^= v
        if l & 1:
            div = max(w[i] for i in range(1, 32, 2))
        else:
            div = min(s[i] for i in range(0, 32, 2)) & M32
        return [sum(w) & M32, min(w), max(w), sum(s) & M32, min(s) & M32,
                max(s) & M32, r_and, r_or, r_xor, div]
    return per_thread(x, 10, f)


def f32_is_nan(b):
    return (b & 0x7f800000) == 0x7f800000 and (b & 0x7fffff) != 0


def f32_order(b):
    """Sort key of a non-NaN float's bits: by value, -0 below +0."""
    v = struct.unpack("<f", struct.pack("<I", b))[0]
    return (v, 0 if b >> 31 else 1)


def f32_min_max(bits, pick, nan_wins):
    """min.f32/max.f32 of several values (the PTX ISA's min/max): NaNs are
    ignored unless nan_wins or all are NaN; a NaN result is 0x7fffffff."""
    nans = [b for b in bits if f32_is_nan(b)]
    if nans and (nan_wins or len(nans) == len(bits)):
        return 0x7fffffff
    return pick((b for b in bits if not f32_is_nan(b)), key=f32_order)


def redux_floats(x):
    def f(w, l):
        mags = [b & 0x7fffffff for b in w]
        own = [mags[i] for i in range(l % 2, 32, 2)]
        return [f32_min_max(w, min, False), f32_min_max(w, max, False),
                f32_min_max(mags, min, False), f32_min_max(w, max, True),
                f32_min_max(mags, min, True), f32_min_max(own, max, False)]
    return per_thread(x, 6, f)


def half_masks(x):
    def f(w, l):
        half = range(0, 16) if l < 16 else range(16, 32)
        p = {i: w[i] % 3 == 0 for i in half}
        return [sum(1 << i for i in half if p[i]), int(all(p.values())),
                int(any(p.values())),
                sum(1 << i for i in half if w[i] % 4 == w[l] % 4),
                sum(w[i] for i in half) & M32, w[half[0]]]
    return per_thread(x, 6, f)


def gen(kind, path, n):
    """Inputs whose warps cover the interesting cases (n a multiple of 32)."""
    rng = random.Random(len(kind) * 7919)
    vals = []
    for w in range(n // 32):
        c = w % 4
        for l in range(32):
            if kind == "votes":
                v = [rng.randint(1, 9), -rng.randint(0, 9), rng.randint(-3, 3),
                     1 if l == 7 else 0][c]
            elif kind == "floats":
                # Warp 0: signed zeros, infinities, a subnormal, one NaN;
                # warp 1: a NaN (both signs, payloads) in every odd lane.
                special = [0x80000000, 0x00000000, 0xff800000, 0x7f800000,
                           0x00000001, 0x80000001, 0x7fc00000]
                if w % 2 == 0:
                    v = special[l] if l < len(special) else rng.getrandbits(32)
                    if f32_is_nan(v) and l != 6:
                        v &= 0xff7fffff
                else:
                    v = ([0x7fc00001, 0xffc00000, 0x7f800001][l % 3] if l % 2
                         else rng.getrandbits(32) & 0xbf7fffff)
            elif kind == "matches":
                v = [42, rng.randint(0, 3), 1000 + l, l % 2][c]
            else:  # "words": full 32-bit range, small, negative, equal
                v = [rng.getrandbits(32), rng.randint(0, 100),
                     (-rng.randint(1, 1000)) & M32, 0x80000000][c]
            vals.append(v & M32)
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(vals), *vals))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1].startswith("gen-"):
        gen(sys.argv[1][4:], sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)


def ptx_shfl(mode, a, lane, b, c):
    """shfl.sync as the PTX ISA's pseudocode defines it: (d, p) of one lane,
    with a the 32 source values and b, c this lane's operands."""
    bval = b & 31
    cval = c & 31
    segmask = (c >> 8) & 31
    max_lane = (lane & segmask) | (cval & ~segmask & 31)
    min_lane = lane & segmask
    if mode == "up":
        j = lane - bval
        p = j >= max_lane
    elif mode == "down":
        j = lane + bval
        p = j <= max_lane
    elif mode == "bfly":
        j = lane ^ bval
        p = j <= max_lane
    else:
        j = min_lane | (bval & ~segmask & 31)
        p = j <= max_lane
    if not p:
        j = lane
    return a[j], int(p)
