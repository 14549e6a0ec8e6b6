"""Reference models of the CUDA kernels in test/Inputs/cuda/barriers_*.cu,
written from their source (not from ptx-jit output), for expect.py:

  expect.py --list OUT TYPE 'models.NAME(...)' 'x=load(IN, TYPE)' ...

and input generators:  python3 models.py gen-NAME FILE ARGS...
Standard library only.
"""
import random
import struct
import sys

M32 = 0xffffffff


def sync_reduce(x, T):
    """syncReduce: per thread (cnt, all, any) of its block, flattened."""
    out = []
    for b in range(len(x) // T):
        blk = x[b * T:(b + 1) * T]
        r = [sum(v > 0 for v in blk), int(all(v != 0 for v in blk)),
             int(any(v < 0 for v in blk))]
        out += r * T
    return out


def gen_sync_reduce(path, T, G):
    """Blocks: all positive; random in [-2, 2]; all zero; positive but one -1."""
    rng = random.Random(5)
    vals = []
    for b in range(G):
        kind = b % 4
        for t in range(T):
            if kind == 0:
                vals.append(rng.randint(1, 9))
            elif kind == 1:
                vals.append(rng.randint(-2, 2))
            elif kind == 2:
                vals.append(0)
            else:
                vals.append(-1 if t == (b * 7) % T else rng.randint(1, 9))
    with open(path, "wb") as f:
        f.write(struct.pack("<%di" % len(vals), *vals))


def sync_or_loop(x, T, what):
    """syncOrLoop: 'rounds' = longest bit length in the block; 'counts' = sum
    of the bit lengths in the block. Every thread of a block gets it."""
    out = []
    for b in range(len(x) // T):
        blk = x[b * T:(b + 1) * T]
        r = max(v.bit_length() for v in blk)
        c = sum(v.bit_length() for v in blk)
        out += [r if what == "rounds" else c] * T
    return out


def uniform_loops(x, T, iters):
    out = []
    for b in range(len(x) // T):
        v = list(x[b * T:(b + 1) * T])
        if b % 2 == 0:
            for i in range(iters):
                v = [(v[(t + 1) % T] + i) & M32 for t in range(T)]
        else:
            for i in range(iters // 2):
                r = [v[T - 1 - t] for t in range(T)]
                v = [(r[t] + r[(t + T - 1) % T]) & M32 for t in range(T)]
        if iters > 4:
            s0 = v[0]
            v = [(u + s0) & M32 for u in v]
        out += v
    return out


def warps_exit(x, T, exit_mask):
    out = []
    nw = (T + 31) // 32
    for b in range(len(x) // T):
        blk = x[b * T:(b + 1) * T]
        sums = []
        for t in range(T):
            sums.append(sum(blk[w * 32 + t % 32] for w in range(nw)
                            if not exit_mask >> w & 1) & M32)
        for t in range(T):
            if exit_mask >> (t // 32) & 1:
                out.append(0)
            else:
                out.append((sums[t ^ 1] + 1) & M32)
    return out


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gen-sync-reduce":
        gen_sync_reduce(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit("unknown command " + cmd)
