"""Tests of the warp-level matrix instructions: mma for every shape and type,
ldmatrix, stmatrix and movmatrix. One warp; each lane reads its fragment
registers from buffers (register r of lane L at element 32*r + L), runs the
instruction, and writes its result registers back the same way. The expected
registers come from mmaref.py, which lays the fragments out by the PTX ISA's
tables and computes the products by its stated model."""

from testgen import CustomTest, Run, test
import mmaref as M
import ptxref as R
from ptxref import F16, BF16, F32, F64


class Random:
    """A small deterministic generator (the tests must not change)."""

    def __init__(self, seed):
        self.state = seed * 2654435761 + 1

    def bits(self, n):
        self.state = (self.state * 6364136223846793005 +
                      1442695040888963407) & ((1 << 64) - 1)
        return (self.state >> 17) & ((1 << n) - 1)

    def pick(self, items):
        return items[self.bits(16) % len(items)]


def float_bits(rng, t):
    """A finite element of type t: mostly normal values from 1/64 to 64 (so
    that sums round), sometimes a zero or a subnormal."""
    kind = rng.bits(5)
    if t == "f16":
        f, lo, hi = F16, 9, 21
    elif t == "bf16":
        f, lo, hi = BF16, 121, 133
    elif t in ("f32", "tf32"):
        f, lo, hi = F32, 121, 133
    else:
        f, lo, hi = F64, 1017, 1029
    sign = rng.bits(1) << (f.bits - 1)
    mant = rng.bits(f.mbits)
    if t == "tf32":
        mant &= ~0x1FFF  # .tf32 keeps 10 mantissa bits
    if kind == 0:
        return sign  # a zero
    if kind == 1 and t != "tf32":
        return sign | (mant or 1)  # a subnormal
    exp = lo + rng.bits(5) % (hi - lo + 1)
    return sign | exp << f.mbits | mant


def fp8_bits(rng, t):
    while True:
        b = rng.bits(8)
        if t == "e4m3" and b & 0x7F == 0x7F:
            continue  # NaN
        if t == "e5m2" and (b >> 2) & 0x1F == 0x1F:
            continue  # infinity or NaN
        return b


def element(rng, t):
    if t in ("f16", "bf16", "tf32", "f32", "f64"):
        return float_bits(rng, t)
    if t in ("e4m3", "e5m2"):
        return fp8_bits(rng, t)
    if t == "s32":
        return rng.bits(32) if rng.bits(1) else R.to_unsigned(
            R.to_signed(rng.bits(12), 12), 32)
    return rng.bits(M.BITS[t])


def fragments(rng, t, count, special=None):
    """32 lanes' registers holding count elements of type t each."""
    out = []
    for lane in range(32):
        regs = [0] * M.registers(count, t)
        for i in range(count):
            v = special(lane, i) if special else None
            M.set_element(regs, i, t, element(rng, t) if v is None else v)
        out.append(regs)
    return out


def buffer(frags):
    """Register r of lane L at element 32*r + L."""
    n = len(frags[0])
    return [frags[lane][r] for r in range(n) for lane in range(32)]


REG_TYPE = {"f16": "b32", "f32": "f32", "s32": "s32", "f64": "f64"}


class Mma:
    """One mma form and its operands."""

    def __init__(self, shape, d, a, b, c, layouts=("row", "col"),
                 satfinite=False, bitop=None, rnd=None, seed=1, csel=None):
        self.shape, self.d, self.a, self.b, self.c = shape, d, a, b, c
        self.layouts, self.satfinite = layouts, satfinite
        self.bitop, self.rnd = bitop, rnd
        na, nb, nc = M.count_elements(shape, a)
        rng = Random(seed)
        self.A = fragments(rng, a, na)
        self.B = fragments(rng, b, nb)
        self.C = fragments(rng, c, nc, csel)
        self.name = "_".join([shape] + list(layouts) + [d, a, b, c] +
                             (["satfinite"] if satfinite else []) +
                             ([bitop] if bitop else []) +
                             ([rnd] if rnd else []))

    def spelling(self):
        s = "mma.sync.aligned.%s.%s.%s" % (self.shape, *self.layouts)
        if self.satfinite:
            s += ".satfinite"
        s += ".%s.%s.%s.%s" % (self.d, self.a, self.b, self.c)
        if self.bitop:
            s += ".%s.popc" % self.bitop
        if self.rnd:
            s += "." + self.rnd
        return s

    def expected(self):
        return M.mma(self.shape, self.a, self.b, self.c, self.d, self.A,
                     self.B, self.C, self.layouts[0], self.layouts[1],
                     self.satfinite, self.bitop, self.rnd or "rn")

    def kernel(self):
        def wide(t):
            return t == "f64"
        def regtype(t, role):
            if role in "ab":
                return "f64" if wide(t) else "b32"
            return REG_TYPE[t]
        counts = M.count_elements(self.shape, self.a)
        n = {"a": M.registers(counts[0], self.a),
             "b": M.registers(counts[1], self.b),
             "c": M.registers(counts[2], self.c),
             "d": M.registers(counts[2], self.d)}
        types = {"a": self.a, "b": self.b, "c": self.c, "d": self.d}
        lines = [".visible .entry %s(" % self.name,
                 "  .param .u64 pa, .param .u64 pb, .param .u64 pc, "
                 ".param .u64 d", ")", "{",
                 "  .reg .u32 %lane;",
                 "  .reg .u64 %p, %off;"]
        for r in "abcd":
            lines.append("  .reg .%s %%%s<%d>;" % (regtype(types[r], r), r,
                                                   n[r]))
        lines.append("  mov.u32 %lane, %tid.x;")
        for r in "abcd":
            w = 8 if wide(types[r]) else 4
            lines.append("  mul.wide.u32 %%off, %%lane, %d;" % w)
            lines.append("  ld.param.u64 %%p, [%s];" % ("d" if r == "d"
                                                       else "p" + r))
            lines.append("  add.u64 %p, %p, %off;")
            if r == "d":
                continue
            for k in range(n[r]):
                lines.append("  ld.global.b%d %%%s%d, [%%p+%d];" %
                             (8 * w, r, k, 32 * w * k))
        ops = ["{%s}" % ", ".join("%%%s%d" % (r, k) for k in range(n[r]))
               for r in "dabc"]
        lines.append("  %s\n    %s;" % (self.spelling(), ",\n    ".join(ops)))
        w = 8 if wide(self.d) else 4
        for k in range(n["d"]):
            lines.append("  st.global.b%d [%%p+%d], %%d%d;" % (8 * w, 32 * w * k,
                                                               k))
        lines += ["  ret;", "}"]
        return "\n".join(lines)

    def run(self, prefix):
        def arg(frags, t):
            ty = "u64" if t == "f64" else "u32"
            vals = buffer(frags)
            return "--arg '%s[%d]=[%s]'" % (ty, len(vals),
                                           ",".join(map(str, vals)))
        d = buffer(self.expected())
        ty = "u64" if self.d == "f64" else "u32"
        args = ["-k %s -b 32" % self.name, arg(self.A, self.a),
                arg(self.B, self.b), arg(self.C, self.c),
                "--arg '%s[%d]>-'" % (ty, len(d))]
        return Run(args, [("d", d)], prefix=prefix)


def mma_test(name, doc, forms, version="8.8", target="sm_100"):
    ptx = ".version %s\n.target %s\n.address_size 64\n\n" % (version, target)
    ptx += "\n\n".join(f.kernel() for f in forms)
    runs = [f.run("CHECK%d" % k if k else "CHECK")
            for k, f in enumerate(forms)]
    return CustomTest(name, doc, ptx, runs)


@test
def mma_f16():
    forms = [Mma("m16n8k16", "f32", "f16", "f16", "f32", seed=1),
             Mma("m16n8k16", "f16", "f16", "f16", "f16", seed=2),
             Mma("m16n8k8", "f32", "f16", "f16", "f32", seed=3),
             Mma("m16n8k8", "f16", "f16", "f16", "f16", seed=4)]
    return mma_test("mma-f16", """
mma with .f16 multiplicands, shapes .m16n8k16 and .m16n8k8, .f32 and .f16
accumulators: each lane's A, B and C registers are laid out as the ISA's
fragment tables say; .f32 sums follow the tensor-core rule
(docs/TensorCoreNumerics.md), .f16 ones the K-order model of mmaref.py.
""", forms)


@test
def mma_m8n8k4():
    forms = []
    seed = 10
    for al in ("row", "col"):
        for bl in ("row", "col"):
            forms.append(Mma("m8n8k4", "f32", "f16", "f16", "f32",
                             layouts=(al, bl), seed=seed))
            seed += 1
    forms += [Mma("m8n8k4", "f16", "f16", "f16", "f16", layouts=("col", "row"),
                  seed=20),
              Mma("m8n8k4", "f32", "f16", "f16", "f16", layouts=("row", "col"),
                  seed=21)]
    return mma_test("mma-m8n8k4-f16", """
mma.m8n8k4 with .f16 multiplicands: four products at once, one per quad
pair (lanes 0-3 with 16-19, ...), for every layout of A and B and for .f16
and .f32 accumulators (whose fragments differ).
""", forms)


@test
def mma_bf16_tf32():
    forms = [Mma("m16n8k16", "f32", "bf16", "bf16", "f32", seed=30),
             Mma("m16n8k8", "f32", "bf16", "bf16", "f32", seed=31),
             Mma("m16n8k8", "f32", "tf32", "tf32", "f32", seed=32),
             Mma("m16n8k4", "f32", "tf32", "tf32", "f32", seed=33)]
    return mma_test("mma-bf16-tf32", """
mma with .bf16 and .tf32 multiplicands and .f32 accumulators (m16n8k4:
the unverified K-order model; the others: docs/TensorCoreNumerics.md).
""", forms)


@test
def mma_f64():
    forms = [Mma("m8n8k4", "f64", "f64", "f64", "f64", seed=40),
             Mma("m16n8k4", "f64", "f64", "f64", "f64", seed=41),
             Mma("m16n8k8", "f64", "f64", "f64", "f64", seed=42),
             Mma("m16n8k16", "f64", "f64", "f64", "f64", seed=43),
             Mma("m16n8k8", "f64", "f64", "f64", "f64", rnd="rz", seed=44),
             Mma("m16n8k8", "f64", "f64", "f64", "f64", rnd="rm", seed=45),
             Mma("m16n8k8", "f64", "f64", "f64", "f64", rnd="rp", seed=46)]
    return mma_test("mma-f64", """
mma with .f64: fused multiply-adds in K order, rounded to nearest or by
.rz, .rm, .rp.
""", forms)


def near_limit(lane, i):
    """Accumulators next to the .s32 limits, so that sums overflow."""
    return [0x7FFFFF00, 0x80000100, None, 0x7FFFFFF0][(lane + i) % 4]


@test
def mma_int8():
    forms = [Mma("m8n8k16", "s32", "s8", "s8", "s32", seed=50),
             Mma("m8n8k16", "s32", "u8", "s8", "s32", seed=51),
             Mma("m16n8k16", "s32", "s8", "u8", "s32", seed=52),
             Mma("m16n8k32", "s32", "u8", "u8", "s32", seed=53),
             Mma("m16n8k32", "s32", "s8", "s8", "s32", seed=54,
                 csel=near_limit),
             Mma("m16n8k32", "s32", "s8", "s8", "s32", satfinite=True,
                 seed=54, csel=near_limit),
             Mma("m8n8k16", "s32", "u8", "u8", "s32", satfinite=True,
                 seed=55, csel=near_limit)]
    return mma_test("mma-int8", """
mma with .s8 and .u8 multiplicands (mixed signedness too): exact sums that
wrap to 32 bits, or with .satfinite clamp to the .s32 range.
""", forms)


@test
def mma_int4():
    forms = [Mma("m8n8k32", "s32", "s4", "s4", "s32", seed=60),
             Mma("m8n8k32", "s32", "u4", "s4", "s32", seed=61),
             Mma("m16n8k32", "s32", "s4", "u4", "s32", seed=62),
             Mma("m16n8k64", "s32", "u4", "u4", "s32", seed=63),
             Mma("m16n8k64", "s32", "s4", "s4", "s32", satfinite=True,
                 seed=64, csel=near_limit)]
    return mma_test("mma-int4", """
mma with .s4 and .u4 multiplicands, eight to a register.
""", forms)


@test
def mma_b1():
    forms = [Mma("m8n8k128", "s32", "b1", "b1", "s32", bitop="xor", seed=70),
             Mma("m8n8k128", "s32", "b1", "b1", "s32", bitop="and", seed=71),
             Mma("m16n8k128", "s32", "b1", "b1", "s32", bitop="xor", seed=72),
             Mma("m16n8k256", "s32", "b1", "b1", "s32", bitop="and", seed=73),
             Mma("m16n8k256", "s32", "b1", "b1", "s32", bitop="xor", seed=74)]
    return mma_test("mma-b1", """
mma with .b1 multiplicands: the population count of each row of A combined
(.xor or .and) with each column of B, added to C.
""", forms)


@test
def mma_fp8():
    forms = [Mma("m16n8k32", "f32", "e4m3", "e5m2", "f32", seed=80),
             Mma("m16n8k32", "f16", "e5m2", "e5m2", "f16", seed=81),
             Mma("m16n8k16", "f32", "e4m3", "e4m3", "f32", seed=82)]
    return mma_test("mma-fp8", """
mma with .e4m3 and .e5m2 multiplicands (sm_89) and .f32 or .f16
accumulators.
""", forms)


# --- mma.sp -------------------------------------------------------------------

# Metadata fields: every ordered pair of distinct indices (mma.sp takes
# either order), the increasing ones for ::ordered_metadata, and the two
# meaningful .tf32 indices.
ALL_PAIRS = [i0 | i1 << 2 for i0 in range(4) for i1 in range(4) if i0 != i1]
SORTED_PAIRS = [f for f in ALL_PAIRS if (f & 3) < (f >> 2)]
TF32_FIELDS = [0b0100, 0b1110]


class MmaSp:
    """One mma.sp form, its operands and its metadata: the fields the
    selector's lanes hold cycle through every pattern; every other bit of
    every lane is random, so that reading the wrong lane or field shows."""

    def __init__(self, shape, d, a, b, c, selector, ordered=False,
                 satfinite=False, seed=1, csel=None):
        self.shape, self.d, self.a, self.b, self.c = shape, d, a, b, c
        self.selector, self.ordered, self.satfinite = selector, ordered, \
            satfinite
        m, n, k = M.dims(shape)
        rng = Random(seed)
        self.na, self.nb, self.nc = m * k // 2 // 32, k * n // 32, m * n // 32
        self.A = fragments(rng, a, self.na)
        self.B = fragments(rng, b, self.nb)
        self.C = fragments(rng, c, self.nc, csel)
        self.E = [rng.bits(32) for _ in range(32)]
        fields = TF32_FIELDS if a == "tf32" else \
            SORTED_PAIRS if ordered else ALL_PAIRS
        chunks = k // M.sparse_chunk(a)
        for row in range(m):
            for q in range(chunks):
                lane, bit = M.sparse_metadata_at(shape, a, selector, row, q)
                f = fields[(row * chunks + q + seed) % len(fields)]
                self.E[lane] = self.E[lane] & ~(0xF << bit) | f << bit
        self.name = "_".join(["sp", shape, d, a, b, c, "sel%d" % selector] +
                             (["ordered"] if ordered else []) +
                             (["satfinite"] if satfinite else []))

    def spelling(self):
        s = "mma.sp%s.sync.aligned.%s.row.col" % (
            "::ordered_metadata" if self.ordered else "", self.shape)
        if self.satfinite:
            s += ".satfinite"
        return s + ".%s.%s.%s.%s" % (self.d, self.a, self.b, self.c)

    def expected(self):
        return M.mma_sp(self.shape, self.a, self.b, self.c, self.d, self.A,
                        self.B, self.C, self.E, self.selector,
                        self.satfinite)

    def kernel(self):
        n = {"a": M.registers(self.na, self.a),
             "b": M.registers(self.nb, self.b),
             "c": M.registers(self.nc, self.c),
             "d": M.registers(self.nc, self.d)}
        types = {"a": "b32", "b": "b32", "c": REG_TYPE[self.c],
                 "d": REG_TYPE[self.d]}
        lines = [".visible .entry %s(" % self.name,
                 "  .param .u64 pa, .param .u64 pb, .param .u64 pc, "
                 ".param .u64 pe, .param .u64 d", ")", "{",
                 "  .reg .u32 %lane;",
                 "  .reg .u64 %p, %off;",
                 "  .reg .b32 %e;"]
        for r in "abcd":
            lines.append("  .reg .%s %%%s<%d>;" % (types[r], r, n[r]))
        lines += ["  mov.u32 %lane, %tid.x;",
                  "  mul.wide.u32 %off, %lane, 4;"]
        for r in "abcde":
            lines.append("  ld.param.u64 %%p, [%s];" % ("d" if r == "d"
                                                       else "p" + r))
            lines.append("  add.u64 %p, %p, %off;")
            if r == "e":
                lines.append("  ld.global.b32 %e, [%p];")
                continue
            if r == "d":
                lines.append("  mov.u64 %rd_out, %p;")
                continue
            for j in range(n[r]):
                lines.append("  ld.global.b32 %%%s%d, [%%p+%d];" %
                             (r, j, 128 * j))
        lines.insert(lines.index("  .reg .b32 %e;") + 1, "  .reg .u64 %rd_out;")
        ops = ["{%s}" % ", ".join("%%%s%d" % (r, j) for j in range(n[r]))
               for r in "dabc"] + ["%e", "%d" % self.selector]
        lines.append("  %s\n    %s;" % (self.spelling(), ",\n    ".join(ops)))
        for j in range(n["d"]):
            lines.append("  st.global.b32 [%%rd_out+%d], %%d%d;" % (128 * j, j))
        lines += ["  ret;", "}"]
        return "\n".join(lines)

    def run(self, prefix):
        def arg(vals):
            return "--arg 'u32[%d]=[%s]'" % (len(vals), ",".join(map(str, vals)))
        d = buffer(self.expected())
        args = ["-k %s -b 32" % self.name, arg(buffer(self.A)),
                arg(buffer(self.B)), arg(buffer(self.C)), arg(self.E),
                "--arg 'u32[%d]>-'" % len(d)]
        return Run(args, [("d", d)], prefix=prefix)


def mma_sp_test(name, doc, forms):
    return mma_test(name, doc, forms, version="8.5", target="sm_89")


@test
def mma_sp_f16():
    forms = [MmaSp("m16n8k16", "f32", "f16", "f16", "f32", sel, seed=100 + sel)
             for sel in range(4)]
    forms += [MmaSp("m16n8k16", "f16", "f16", "f16", "f16", 2, ordered=True,
                    seed=104),
              MmaSp("m16n8k32", "f32", "f16", "f16", "f32", 0, seed=105),
              MmaSp("m16n8k32", "f32", "f16", "f16", "f32", 1, seed=106),
              MmaSp("m16n8k32", "f16", "f16", "f16", "f16", 1, ordered=True,
                    seed=107)]
    return mma_sp_test("mma-sp-f16", """
mma.sp and mma.sp::ordered_metadata with .f16 multiplicands: A's fragment
holds the kept half of each row, the metadata fields place each kept
element in its chunk of four (every pair of indices, in either order for
mma.sp), and each sparsity selector the shape takes names the lanes that
hold the metadata (m16n8k16: one of four; m16n8k32: a pair). The result is
the dense mma of the expanded A (mmaref.py), with the tensor-core rule for
.f32 sums of K = 16 (docs/TensorCoreNumerics.md).
""", forms)


@test
def mma_sp_bf16_tf32():
    forms = [MmaSp("m16n8k16", "f32", "bf16", "bf16", "f32", sel,
                   seed=110 + sel) for sel in (0, 3)]
    forms += [MmaSp("m16n8k32", "f32", "bf16", "bf16", "f32", 1, seed=112,
                    ordered=True)]
    forms += [MmaSp("m16n8k8", "f32", "tf32", "tf32", "f32", sel,
                    seed=113 + sel) for sel in range(4)]
    forms += [MmaSp("m16n8k16", "f32", "tf32", "tf32", "f32", sel,
                    seed=117 + sel) for sel in range(2)]
    return mma_sp_test("mma-sp-bf16-tf32", """
mma.sp with .bf16 and .tf32 multiplicands: .tf32 rows are cut into chunks
of two with one kept element, whose 4-bit field is 0b0100 or 0b1110; every
selector of m16n8k8 (one lane of four) and m16n8k16 (a pair).
""", forms)


@test
def mma_sp_int():
    forms = [MmaSp("m16n8k32", "s32", "u8", "s8", "s32", 0, seed=120),
             MmaSp("m16n8k32", "s32", "s8", "s8", "s32", 1, satfinite=True,
                   seed=121, csel=near_limit),
             MmaSp("m16n8k64", "s32", "s8", "u8", "s32", 0, seed=122,
                   csel=near_limit),
             MmaSp("m16n8k64", "s32", "s8", "u8", "s32", 0, satfinite=True,
                   seed=122, csel=near_limit),
             MmaSp("m16n8k64", "s32", "u8", "u8", "s32", 0, ordered=True,
                   seed=123),
             MmaSp("m16n8k64", "s32", "s4", "u4", "s32", 0, seed=124),
             MmaSp("m16n8k64", "s32", "s4", "s4", "s32", 1, satfinite=True,
                   seed=125, csel=near_limit),
             MmaSp("m16n8k128", "s32", "u4", "s4", "s32", 0, seed=126),
             MmaSp("m16n8k128", "s32", "s4", "s4", "s32", 0, ordered=True,
                   satfinite=True, seed=127, csel=near_limit)]
    return mma_sp_test("mma-sp-int", """
mma.sp with .s8/.u8 (chunks of four, two kept) and .s4/.u4 multiplicands
(chunks of eight, two pairs kept): exact sums that wrap, or clamp with
.satfinite (accumulators next to the .s32 limits); every selector.
""", forms)


@test
def mma_sp_fp8():
    forms = [MmaSp("m16n8k64", "f32", "e4m3", "e4m3", "f32", 0, seed=130),
             MmaSp("m16n8k64", "f32", "e5m2", "e4m3", "f32", 0, seed=131),
             MmaSp("m16n8k64", "f32", "e4m3", "e5m2", "f32", 0, ordered=True,
                   seed=132)]
    return mma_sp_test("mma-sp-fp8", """
mma.sp with .e4m3 and .e5m2 multiplicands (sm_89), m16n8k64, .f32
accumulators (the K-order model of mmaref.py).
""", forms)


# --- ldmatrix, stmatrix, movmatrix ----------------------------------------------

SHARED_BYTES = 1024


def words_of(memory):
    return [memory[4 * w] | memory[4 * w + 1] << 8 | memory[4 * w + 2] << 16 |
            memory[4 * w + 3] << 24 for w in range(len(memory) // 4)]


def row_offsets(seed):
    """A row address for each lane: distinct 16-byte slots of the shared
    array, in no particular order."""
    rng = Random(seed)
    slots = list(range(SHARED_BYTES // 16))
    out = []
    for lane in range(32):
        k = rng.bits(16) % len(slots)
        out.append(16 * slots.pop(k))
    return out


def copy_in(lines, src, dst_reg):
    """Lane L copies words L, L+32, ... of global buffer src to shared."""
    lines += ["  ld.param.u64 %%p, [%s];" % src,
              "  mul.wide.u32 %off, %lane, 4;",
              "  add.u64 %p, %p, %off;",
              "  mad.lo.u32 %s, %lane, 4, " + dst_reg + ";"]
    for k in range(SHARED_BYTES // 128):
        lines.append("  ld.global.u32 %%w, [%%p+%d];" % (128 * k))
        lines.append("  st.shared.u32 [%%s+%d], %%w;" % (128 * k))


def ldst_kernel(name, load, num, trans, generic):
    regs = ", ".join("%%r%d" % k for k in range(num))
    lines = [".visible .entry %s(" % name,
             "  .param .u64 mem, .param .u64 offs, .param .u64 regs, "
             ".param .u64 out", ")", "{",
             "  .shared .align 16 .b8 smem[%d];" % SHARED_BYTES,
             "  .reg .u32 %lane, %w, %s, %base, %a, %r<4>;",
             "  .reg .u64 %p, %off, %g;",
             "  mov.u32 %lane, %tid.x;",
             "  mov.u32 %base, smem;"]
    copy_in(lines, "mem", "%base")
    lines += ["  bar.warp.sync -1;",
              "  ld.param.u64 %p, [offs];",
              "  mul.wide.u32 %off, %lane, 4;",
              "  add.u64 %p, %p, %off;",
              "  ld.global.u32 %a, [%p];",
              "  add.u32 %a, %a, %base;"]
    space = ".shared"
    addr = "%a"
    if generic:
        lines += ["  cvt.u64.u32 %g, %a;", "  cvta.shared.u64 %g, %g;"]
        space, addr = "", "%g"
    spelling = "%s.sync.aligned.m8n8.x%d%s%s.b16" % (
        "ldmatrix" if load else "stmatrix", num, ".trans" if trans else "",
        space)
    if load:
        lines.append("  %s {%s}, [%s];" % (spelling, regs, addr))
        lines += ["  ld.param.u64 %p, [out];", "  add.u64 %p, %p, %off;"]
        for k in range(num):
            lines.append("  st.global.u32 [%%p+%d], %%r%d;" % (128 * k, k))
    else:
        lines += ["  ld.param.u64 %p, [regs];", "  add.u64 %p, %p, %off;"]
        for k in range(num):
            lines.append("  ld.global.u32 %%r%d, [%%p+%d];" % (k, 128 * k))
        lines.append("  %s [%s], {%s};" % (spelling, addr, regs))
        lines += ["  bar.warp.sync -1;",
                  "  ld.param.u64 %p, [out];", "  add.u64 %p, %p, %off;"]
        for k in range(SHARED_BYTES // 128):
            lines.append("  ld.shared.u32 %%w, [%%s+%d];" % (128 * k))
            lines.append("  st.global.u32 [%%p+%d], %%w;" % (128 * k))
    lines += ["  ret;", "}"]
    return "\n".join(lines)


def u32_list(vals):
    return "u32[%d]=[%s]" % (len(vals), ",".join(map(str, vals)))


@test
def ldmatrix_stmatrix():
    forms = []
    seed = 90
    for load in (True, False):
        for num in (1, 2, 4):
            for trans in (False, True):
                forms.append((load, num, trans, False, seed))
                seed += 1
    forms += [(True, 4, True, True, 99), (False, 2, False, True, 100)]
    kernels, runs = [], []
    for k, (load, num, trans, generic, seed) in enumerate(forms):
        name = "%s_x%d%s%s" % ("ldmatrix" if load else "stmatrix", num,
                               "_trans" if trans else "",
                               "_generic" if generic else "")
        kernels.append(ldst_kernel(name, load, num, trans, generic))
        rng = Random(seed)
        offs = row_offsets(seed)
        if load:
            memory = [rng.bits(8) for _ in range(SHARED_BYTES)]
            regs = [[0] * num for _ in range(32)]
            got = M.ldmatrix(memory, offs, num, trans)
            out = [got[lane][r] for r in range(num) for lane in range(32)]
        else:
            memory = [0] * SHARED_BYTES
            regs = [[rng.bits(32) for _ in range(num)] for _ in range(32)]
            M.stmatrix(memory, offs, regs, num, trans)
            out = words_of(memory)
        args = ["-k %s -b 32" % name,
                "--arg '%s'" % u32_list(words_of(
                    memory if load else [0] * SHARED_BYTES)),
                "--arg '%s'" % u32_list(offs),
                "--arg '%s'" % u32_list(buffer(regs)),
                "--arg 'u32[%d]>-'" % len(out)]
        runs.append(Run(args, [("out", out)],
                        prefix="CHECK%d" % k if k else "CHECK"))
    ptx = ".version 8.8\n.target sm_100\n.address_size 64\n\n" + \
        "\n\n".join(kernels)
    return CustomTest("ldmatrix-stmatrix", """
ldmatrix and stmatrix .m8n8 .b16, .x1, .x2 and .x4, with and without .trans:
lane 8m+r gives the address of row r of matrix m (rows in no order in
shared memory), and lane t holds row t/4, columns 2(t%4) and 2(t%4)+1 of
each matrix (of its transpose with .trans); also through generic addresses.
""", ptx, runs)


MOVMATRIX_PTX = r"""
.version 8.8
.target sm_100
.address_size 64

.visible .entry movmatrix(.param .u64 a, .param .u64 d)
{
  .reg .u32 %lane, %x, %y;
  .reg .u64 %p, %off;
  mov.u32 %lane, %tid.x;
  mul.wide.u32 %off, %lane, 4;
  ld.param.u64 %p, [a];
  add.u64 %p, %p, %off;
  ld.global.u32 %x, [%p];
  movmatrix.sync.aligned.m8n8.trans.b16 %y, %x;
  ld.param.u64 %p, [d];
  add.u64 %p, %p, %off;
  st.global.u32 [%p], %y;
  ret;
}
"""


@test
def movmatrix():
    rng = Random(110)
    a = [rng.bits(32) for _ in range(32)]
    d = M.movmatrix(a)
    args = ["-b 32 --arg '%s'" % u32_list(a), "--arg 'u32[32]>-'"]
    return CustomTest("movmatrix", """
movmatrix.m8n8.trans.b16: the 8x8 matrix of 16-bit elements the lanes hold
(lane t: row t/4, columns 2(t%4) and 2(t%4)+1) becomes its transpose, held
the same way.
""", MOVMATRIX_PTX, [Run(args, [("d", d)])])


# --- wmma ---------------------------------------------------------------------------

WMMA_SHAPES = {"m16n16k16": (16, 16, 16), "m32n8k16": (32, 8, 16),
               "m8n32k16": (8, 32, 16), "m16n16k8": (16, 16, 8),
               "m8n8k4": (8, 8, 4), "m8n8k32": (8, 8, 32),
               "m8n8k128": (8, 8, 128)}

# PTX ISA "Matrix Fragments for WMMA": registers per fragment.
WMMA_REGS = {
    ("f16", "a"): 8, ("f16", "b"): 8,
    ("bf16", "a", "m16n16k16"): 4, ("bf16", "b", "m16n16k16"): 4,
    ("bf16", "a", "m8n32k16"): 2, ("bf16", "b", "m8n32k16"): 8,
    ("bf16", "a", "m32n8k16"): 8, ("bf16", "b", "m32n8k16"): 2,
    ("u8", "a", "m16n16k16"): 2, ("u8", "b", "m16n16k16"): 2,
    ("u8", "a", "m8n32k16"): 1, ("u8", "b", "m8n32k16"): 4,
    ("u8", "a", "m32n8k16"): 4, ("u8", "b", "m32n8k16"): 1,
    ("tf32", "a"): 4, ("tf32", "b"): 4, ("f64", "a"): 1, ("f64", "b"): 1,
    ("u4", "a"): 1, ("u4", "b"): 1, ("b1", "a"): 1, ("b1", "b"): 1,
}


def wmma_regs(t, role, shape):
    if role in "cd":
        m, n, _ = WMMA_SHAPES[shape]
        if t == "f64":
            return m * n // 32
        return m * n * M.BITS[t] // 1024
    key = {"s8": "u8", "s4": "u4"}.get(t, t)
    return WMMA_REGS.get((key, role, shape), WMMA_REGS.get((key, role)))


def storage_type(t):
    """How a test buffer holds elements of t."""
    return {"f16": "u16", "bf16": "u16", "s8": "u8", "u8": "u8",
            "f64": "u64"}.get(t, "u32")


class Wmma:
    """wmma.load of A, B and C, wmma.mma, wmma.store of D, with the given
    memory layouts and strides (None: the default)."""

    def __init__(self, shape, d, a, b, c, al, bl, cl, dl, strides=(None,) * 4,
                 satfinite=False, bitop=None, rnd=None, double_c=False,
                 seed=1, space="global"):
        self.shape, self.d, self.a, self.b, self.c = shape, d, a, b, c
        self.layouts = (al, bl, cl, dl)
        self.strides, self.satfinite = strides, satfinite
        self.bitop, self.rnd, self.double_c = bitop, rnd, double_c
        self.space = space
        m, n, k = WMMA_SHAPES[shape]
        self.dims = {"a": (m, k), "b": (k, n), "c": (m, n), "d": (m, n)}
        self.types = {"a": a, "b": b, "c": c, "d": d}
        rng = Random(seed)
        self.mem = {}
        for r in "abc":
            t = self.types[r]
            size = self.size(r)
            if M.BITS[t] < 8:
                self.mem[r] = [rng.bits(32) for _ in range(size * M.BITS[t]
                                                          // 32)]
            else:
                self.mem[r] = [element(rng, t) for _ in range(size)]
        self.name = "wmma_" + "_".join(
            [shape, al, bl, cl, dl, d, a, b, c] +
            ["s%d" % s if s else "s_" for s in strides] +
            (["satfinite"] if satfinite else []) + ([bitop] if bitop else []) +
            ([rnd] if rnd else []) + (["x2"] if double_c else []) +
            ([space] if space != "global" else []))

    def lead(self, r):
        rows, cols = self.dims[r]
        stride = self.strides["abcd".index(r)]
        row_major = self.layouts["abcd".index(r)] == "row"
        default = cols if row_major else rows
        return stride or default, row_major

    def size(self, r):
        rows, cols = self.dims[r]
        stride, row_major = self.lead(r)
        return stride * (rows if row_major else cols)

    def expected(self):
        m, n, k = WMMA_SHAPES[self.shape]
        mats = {}
        for r in "abc":
            rows, cols = self.dims[r]
            stride, row_major = self.lead(r)
            mats[r] = M.load_matrix(self.mem[r], self.types[r], rows, cols,
                                    row_major, stride)
        if self.double_c:  # the kernel adds C to itself, element by element
            for key, v in mats["c"].items():
                mats["c"][key] = R.f_add(v, v, F32)
        D = M.multiply(mats["a"], mats["b"], mats["c"], 1, m, n, k, self.a,
                       self.b, self.c, self.d, self.satfinite, self.bitop,
                       self.rnd or "rn")
        out = [0] * self.size("d")
        stride, row_major = self.lead("d")
        M.store_matrix(out, D, m, n, row_major, stride)
        return out

    def kernel(self):
        def regtype(r):
            t = self.types[r]
            if r in "ab":
                return "f64" if t == "f64" else "b32"
            return REG_TYPE[t]
        n = {r: wmma_regs(self.types[r], r, self.shape) for r in "abcd"}
        lines = [".visible .entry %s(" % self.name,
                 "  .param .u64 pa, .param .u64 pb, .param .u64 pc, "
                 ".param .u64 d", ")", "{",
                 "  .reg .u64 %p;"]
        if self.space == "shared":
            lines.append("  .shared .align 128 .b8 tile[%d];" %
                         (self.size("a") * max(M.BITS[self.a], 8) // 8))
            lines.append("  .reg .u32 %lane, %w, %s;")
            lines.append("  .reg .u64 %off;")
        for r in "abcd":
            lines.append("  .reg .%s %%%s<%d>;" % (regtype(r), r, n[r]))
        sp = ".global"
        for r in "abc":
            t = self.types[r]
            stride, _ = self.lead(r)
            given = self.strides["abc".index(r)]
            lines.append("  ld.param.u64 %%p, [p%s];" % r)
            addr = "[%p]"
            rsp = sp
            if r == "a" and self.space == "shared":
                # A goes through shared memory: each lane copies words.
                words = self.size("a") * max(M.BITS[t], 8) // 8 // 4
                lines += ["  mov.u32 %lane, %tid.x;",
                          "  mul.wide.u32 %off, %lane, 4;",
                          "  add.u64 %p, %p, %off;",
                          "  mov.u32 %s, tile;",
                          "  mad.lo.u32 %s, %lane, 4, %s;"]
                for w in range(0, words, 32):
                    lines.append("  ld.global.u32 %%w, [%%p+%d];" % (4 * w))
                    lines.append("  st.shared.u32 [%%s+%d], %%w;" % (4 * w))
                lines += ["  bar.warp.sync -1;", "  mov.u32 %s, tile;"]
                addr, rsp = "[%s]", ".shared"
            regs = ", ".join("%%%s%d" % (r, k) for k in range(n[r]))
            lines.append("  wmma.load.%s.sync.aligned.%s.%s%s.%s {%s}, %s%s;" %
                         (r, self.layouts["abc".index(r)], self.shape, rsp, t,
                          regs, addr, ", %d" % given if given else ""))
        if self.double_c:
            for k in range(n["c"]):
                lines.append("  add.f32 %%c%d, %%c%d, %%c%d;" % (k, k, k))
        types = ".%s.%s" % (self.d, self.c) if self.a == "f16" else \
            ".%s.%s.%s.%s" % (self.d, self.a, self.b, self.c)
        mods = ""
        if self.bitop:
            mods = ".%s.popc" % self.bitop
        spelling = "wmma.mma%s.sync.aligned.%s.%s.%s%s%s%s" % (
            mods, self.layouts[0], self.layouts[1], self.shape, types,
            ".satfinite" if self.satfinite else "",
            "." + self.rnd if self.rnd else "")
        ops = ["{%s}" % ", ".join("%%%s%d" % (r, k) for k in range(n[r]))
               for r in "dabc"]
        lines.append("  %s\n    %s;" % (spelling, ",\n    ".join(ops)))
        given = self.strides[3]
        lines.append("  ld.param.u64 %p, [d];")
        lines.append("  wmma.store.d.sync.aligned.%s.%s.global.%s [%%p], %s%s;"
                     % (self.layouts[3], self.shape, self.d, ops[0],
                        ", %d" % given if given else ""))
        lines += ["  ret;", "}"]
        return "\n".join(lines)

    def run(self, prefix):
        args = ["-k %s -b 32" % self.name]
        for r in "abc":
            vals = self.mem[r]
            args.append("--arg '%s[%d]=[%s]'" % (storage_type(self.types[r])
                                                 if M.BITS[self.types[r]] >= 8
                                                 else "u32", len(vals),
                                                 ",".join(map(str, vals))))
        d = self.expected()
        args.append("--arg '%s[%d]>-'" % (storage_type(self.d), len(d)))
        return Run(args, [("d", d)], prefix=prefix)


@test
def wmma_float():
    forms = [
        Wmma("m16n16k16", "f32", "f16", "f16", "f32", "row", "col", "row",
             "row", seed=120),
        Wmma("m16n16k16", "f16", "f16", "f16", "f16", "col", "row", "col",
             "row", strides=(32, 32, 24, 40), seed=121),
        Wmma("m32n8k16", "f32", "f16", "f16", "f16", "row", "row", "col",
             "col", seed=122),
        Wmma("m8n32k16", "f16", "f16", "f16", "f32", "col", "col", "row",
             "col", strides=(16, None, 40, None), seed=123),
        Wmma("m16n16k16", "f32", "f16", "f16", "f32", "row", "col", "row",
             "row", double_c=True, seed=124),
        Wmma("m16n16k16", "f32", "f16", "f16", "f32", "row", "col", "row",
             "row", strides=(32, None, None, None), seed=125, space="shared"),
        Wmma("m16n16k16", "f32", "bf16", "bf16", "f32", "row", "col", "col",
             "row", seed=126),
        Wmma("m32n8k16", "f32", "bf16", "bf16", "f32", "col", "row", "row",
             "row", strides=(48, 16, None, 16), seed=127),
        Wmma("m8n32k16", "f32", "bf16", "bf16", "f32", "row", "row", "row",
             "col", seed=128),
        Wmma("m16n16k8", "f32", "tf32", "tf32", "f32", "row", "col", "row",
             "row", strides=(12, None, 24, None), seed=129),
        Wmma("m16n16k8", "f32", "tf32", "tf32", "f32", "col", "row", "col",
             "col", seed=130),
        Wmma("m8n8k4", "f64", "f64", "f64", "f64", "row", "col", "row", "row",
             seed=131),
        Wmma("m8n8k4", "f64", "f64", "f64", "f64", "col", "row", "col", "row",
             strides=(10, 12, None, 10), rnd="rm", seed=132),
    ]
    return mma_test("wmma-float", """
wmma.load, wmma.mma and wmma.store with .f16, .bf16, .tf32 and .f64
matrices of every shape, row- and column-major, with default and larger
strides (multiples of the fragment size, as the ISA requires), through
global and shared memory; the fragments' element
registers may be changed uniformly (C doubled). The fragment layout is the
implementation's; the stored D must be A * B + C by the model.
""", forms)


@test
def wmma_integer():
    forms = [
        Wmma("m16n16k16", "s32", "s8", "s8", "s32", "row", "col", "row", "row",
             seed=140),
        Wmma("m32n8k16", "s32", "u8", "u8", "s32", "col", "row", "col", "row",
             strides=(48, None, None, 16), seed=141),
        Wmma("m8n32k16", "s32", "s8", "s8", "s32", "row", "row", "row", "col",
             satfinite=True, seed=142),
        Wmma("m8n8k32", "s32", "s4", "s4", "s32", "row", "col", "row", "row",
             seed=143),
        Wmma("m8n8k32", "s32", "u4", "u4", "s32", "row", "col", "col", "row",
             strides=(64, 40, 12, None), seed=144),
        Wmma("m8n8k128", "s32", "b1", "b1", "s32", "row", "col", "row", "row",
             bitop="xor", seed=145),
        Wmma("m8n8k128", "s32", "b1", "b1", "s32", "row", "col", "row", "col",
             strides=(160, 256, None, None), bitop="and", seed=146),
    ]
    return mma_test("wmma-integer", """
wmma with .s8 and .u8 (every shape, .satfinite), .s4 and .u4 (A row-major,
B column-major, eight to a 32-bit word) and .b1 (.xor.popc, .and.popc).
""", forms)


DIVERGENT_PTX = r"""
.version 8.8
.target sm_100
.address_size 64

// Lanes reach the mma by different paths: each runs a loop of lane%4+1
// steps, then lanes 0-15 and 16-31 read their A registers in separate
// blocks. The mma then runs for all 32 lanes; a second one, guarded by a
// uniform kernel parameter, adds A * B again when the flag is set.
.visible .entry divergent(
  .param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 d,
  .param .u32 flag
)
{
  .reg .u32 %lane, %n, %i, %f;
  .reg .u64 %p, %off;
  .reg .pred %q, %g;
  .reg .b32 %a<4>, %b<2>;
  .reg .f32 %c<4>, %d<4>;
  mov.u32 %lane, %tid.x;
  mul.wide.u32 %off, %lane, 4;
  and.b32 %n, %lane, 3;
  add.u32 %n, %n, 1;
  mov.u32 %i, 0;
SPIN:
  add.u32 %i, %i, 1;
  setp.lt.u32 %q, %i, %n;
  @%q bra SPIN;
  ld.param.u64 %p, [pa];
  add.u64 %p, %p, %off;
  setp.lt.u32 %q, %lane, 16;
  @%q bra LOW;
  ld.global.b32 %a0, [%p];
  ld.global.b32 %a1, [%p+128];
  ld.global.b32 %a2, [%p+256];
  ld.global.b32 %a3, [%p+384];
  bra.uni MMA;
LOW:
  ld.global.b32 %a3, [%p+384];
  ld.global.b32 %a2, [%p+256];
  ld.global.b32 %a1, [%p+128];
  ld.global.b32 %a0, [%p];
MMA:
  ld.param.u64 %p, [pb];
  add.u64 %p, %p, %off;
  ld.global.b32 %b0, [%p];
  ld.global.b32 %b1, [%p+128];
  ld.param.u64 %p, [pc];
  add.u64 %p, %p, %off;
  ld.global.b32 %c0, [%p];
  ld.global.b32 %c1, [%p+128];
  ld.global.b32 %c2, [%p+256];
  ld.global.b32 %c3, [%p+384];
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
    {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1},
    {%c0, %c1, %c2, %c3};
  ld.param.u32 %f, [flag];
  setp.ne.u32 %g, %f, 0;
  @%g mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
    {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1},
    {%d0, %d1, %d2, %d3};
  ld.param.u64 %p, [d];
  add.u64 %p, %p, %off;
  st.global.b32 [%p], %d0;
  st.global.b32 [%p+128], %d1;
  st.global.b32 [%p+256], %d2;
  st.global.b32 [%p+384], %d3;
  ret;
}
"""


@test
def mma_divergent():
    form = Mma("m16n8k16", "f32", "f16", "f16", "f32", seed=150)
    once = form.expected()
    twice = M.mma("m16n8k16", "f16", "f16", "f32", "f32", form.A, form.B,
                  once)
    runs = []
    for k, (flag, d) in enumerate([(0, once), (1, twice)]):
        def arg(frags):
            vals = buffer(frags)
            return "--arg '%s'" % u32_list(vals)
        args = ["-b 32", arg(form.A), arg(form.B), arg(form.C),
                "--arg 'u32[128]>-'", "--arg %d" % flag]
        runs.append(Run(args, [("d", buffer(d))],
                        prefix="CHECK%d" % k if k else "CHECK"))
    return CustomTest("mma-divergent", """
mma reached by lanes that took different paths (a lane-dependent loop, then
separate blocks for the two half-warps), and an mma under a uniform guard:
with the flag clear D keeps A * B + C, with it set D becomes A * B + D.
""", DIVERGENT_PTX, runs)
