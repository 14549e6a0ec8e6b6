"""Memory: ld/st widths, vectors and sign extension; every state space;
atomics and reductions; cvta and isspacep."""

import struct

from testgen import CustomTest, Run, test
from ptxref import to_signed

BYTES = [(i * 37 + 0x85) & 0xFF for i in range(256)]


def le(bs):
    return int.from_bytes(bytes(bs), "little")


def u8s(vals):
    return "u8[%d]=[%s]" % (len(vals), ",".join(map(str, vals)))


LD_ST_PTX = r"""
.version 8.8
.target sm_100
.address_size 64

// Lane L reads the bytes at 8*L of `bytes` in several widths and vector
// shapes; each result lands in element L of an output (two for the vectors).
.visible .entry widths(
  .param .u64 bytes, .param .u64 s8_s32, .param .u64 u8_u32, .param .u64 s16_s32,
  .param .u64 u16_u64, .param .u64 s8_s64, .param .u64 v2_u16, .param .u64 v4_u8,
  .param .u64 v2_u32, .param .u64 v4_u32, .param .u64 st_u8, .param .u64 st_v2_b16
)
{
  .reg .u32 %lane, %r<8>;
  .reg .s32 %s;
  .reg .u64 %in, %addr, %d, %e;
  .reg .s64 %sd;
  .reg .b16 %h<4>;

  mov.u32 %lane, %tid.x;
  ld.param.u64 %in, [bytes];
  mad.wide.u32 %in, %lane, 8, %in;

  ld.global.s8 %s, [%in+1];
  ld.param.u64 %addr, [s8_s32];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.s32 [%addr], %s;

  ld.global.u8 %r0, [%in+2];
  ld.param.u64 %addr, [u8_u32];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.u32 [%addr], %r0;

  ld.global.s16 %s, [%in+2];
  ld.param.u64 %addr, [s16_s32];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.s32 [%addr], %s;

  ld.global.u16 %d, [%in+6];
  ld.param.u64 %addr, [u16_u64];
  mad.wide.u32 %addr, %lane, 8, %addr;
  st.global.u64 [%addr], %d;

  ld.global.s8 %sd, [%in+3];
  ld.param.u64 %addr, [s8_s64];
  mad.wide.u32 %addr, %lane, 8, %addr;
  st.global.s64 [%addr], %sd;

  // Two halves, stored as two u16 elements: 2L and 2L+1.
  ld.global.v2.u16 {%h0, %h1}, [%in+4];
  ld.param.u64 %addr, [v2_u16];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.u16 [%addr], %h0;
  st.global.u16 [%addr+2], %h1;

  // Four bytes into 16-bit registers, stored back as bytes in reverse.
  ld.global.v4.u8 {%h0, %h1, %h2, %h3}, [%in];
  ld.param.u64 %addr, [v4_u8];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.v4.u8 [%addr], {%h3, %h2, %h1, %h0};

  ld.global.v2.u32 {%r0, %r1}, [%in];
  ld.param.u64 %addr, [v2_u32];
  mad.wide.u32 %addr, %lane, 8, %addr;
  st.global.v2.u32 [%addr], {%r1, %r0};

  // Lanes read 16 bytes at 8*L (overlapping their neighbours') and keep the
  // words in order; an odd lane's address is only 8-byte aligned, so only
  // even lanes take part.
  and.b32 %r7, %lane, 1;
  setp.eq.u32 %p, %r7, 0;
  ld.param.u64 %addr, [v4_u32];
  mad.wide.u32 %addr, %lane, 16, %addr;
  @%p ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%in];
  @%p st.global.v4.u32 [%addr], {%r0, %r1, %r2, %r3};

  // st.u8 keeps the low byte of a wider register.
  ld.global.u32 %r0, [%in];
  add.u32 %r0, %r0, 0x1234500;
  ld.param.u64 %addr, [st_u8];
  cvt.u64.u32 %e, %lane;
  add.u64 %addr, %addr, %e;
  st.global.u8 [%addr], %r0;

  // A vector store of 16-bit halves of one 32-bit value, {hi, lo}.
  mov.b32 {%h0, %h1}, %r0;
  ld.param.u64 %addr, [st_v2_b16];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.v2.b16 [%addr], {%h1, %h0};
  ret;
}
"""


@test
def ld_st_widths():
    n = 16
    bs = BYTES[:8 * n + 8]
    s8_s32 = [to_signed(bs[8 * i + 1], 8) for i in range(n)]
    u8_u32 = [bs[8 * i + 2] for i in range(n)]
    s16_s32 = [to_signed(le(bs[8 * i + 2:8 * i + 4]), 16) for i in range(n)]
    u16_u64 = [le(bs[8 * i + 6:8 * i + 8]) for i in range(n)]
    s8_s64 = [to_signed(bs[8 * i + 3], 8) for i in range(n)]
    v2_u16 = []
    for i in range(n):
        v2_u16 += [le(bs[8 * i + 4:8 * i + 6]), le(bs[8 * i + 6:8 * i + 8])]
    v4_u8 = []
    for i in range(n):
        v4_u8 += list(reversed(bs[8 * i:8 * i + 4]))
    v2_u32 = []
    for i in range(n):
        v2_u32 += [le(bs[8 * i + 4:8 * i + 8]), le(bs[8 * i:8 * i + 4])]
    v4_u32 = []
    for i in range(n):
        v4_u32 += ([le(bs[8 * i + 4 * k:8 * i + 4 * k + 4]) for k in range(4)]
                   if i % 2 == 0 else [0] * 4)
    st_u8 = [(le(bs[8 * i:8 * i + 4]) + 0x1234500) & 0xFF for i in range(n)]
    st_v2_b16 = []
    for i in range(n):
        w = (le(bs[8 * i:8 * i + 4]) + 0x1234500) & 0xFFFFFFFF
        st_v2_b16.append(((w & 0xFFFF) << 16) | (w >> 16))
    outs = [("s8_s32", "s32", s8_s32), ("u8_u32", "u32", u8_u32),
            ("s16_s32", "s32", s16_s32), ("u16_u64", "u64", u16_u64),
            ("s8_s64", "s64", s8_s64), ("v2_u16", "u16", v2_u16),
            ("v4_u8", "u8", v4_u8), ("v2_u32", "u32", v2_u32),
            ("v4_u32", "u32", v4_u32), ("st_u8", "u8", st_u8),
            ("st_v2_b16", "u32", st_v2_b16)]
    args = ["-b %d --arg '%s'" % (n, u8s(bs))]
    args += ["--arg '%s[%d]>-'" % (t, len(v)) for _, t, v in outs]
    return CustomTest("ld-st-widths", """
ld and st of every width: 8- and 16-bit loads sign- or zero-extend into
wider registers (.s8 into .s32 and .s64), st keeps the low bits, and .v2
and .v4 loads and stores move consecutive elements; predicated vector
accesses touch only their lanes' memory.
""", LD_ST_PTX.replace("  .reg .b16 %h<4>;", "  .reg .b16 %h<4>;\n  .reg .pred %p;"),
        [Run(args, [(name, v) for name, _, v in outs])])


SPACES_PTX = r"""
.version 8.8
.target sm_100
.address_size 64

.const .align 4 .u32 table[8] = {11, 22, 33, 44, 55, 66, 77, 88};
.const .f32 scale = 0f3FC00000;                 // 1.5
.global .align 8 .u64 gtab[4] = {0x1111222233334444, 5, -1, 0};
.global .align 4 .u32 counter;
.shared .align 4 .u32 sa[64];
.shared .align 8 .u64 sb[32];
.extern .shared .align 4 .b8 dyn[];

.visible .entry spaces(
  .param .u32 k, .param .f32 f, .param .u64 wide, .param .s16 small,
  .param .u64 out_const, .param .u64 out_global, .param .u64 out_param,
  .param .u64 out_shared, .param .u64 out_dyn, .param .u64 out_local,
  .param .u64 out_generic
)
{
  .local .align 4 .b32 priv[8];
  .reg .u32 %lane, %r<8>, %k;
  .reg .s16 %sm;
  .reg .f32 %f<4>;
  .reg .u64 %addr, %a<4>, %w;
  .reg .pred %p;

  mov.u32 %lane, %tid.x;

  // .const: a table indexed per lane, and a scalar.
  and.b32 %r0, %lane, 7;
  mul.wide.u32 %a0, %r0, 4;
  mov.u64 %a1, table;
  add.u64 %a1, %a1, %a0;
  ld.const.u32 %r1, [%a1];
  ld.const.f32 %f0, [scale];
  cvt.rn.f32.u32 %f1, %r1;
  mul.f32 %f1, %f1, %f0;
  cvt.rzi.u32.f32 %r1, %f1;
  ld.param.u64 %addr, [out_const];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.u32 [%addr], %r1;

  // .global variables with initializers, and an atomic counter.
  and.b32 %r0, %lane, 3;
  mul.wide.u32 %a0, %r0, 8;
  mov.u64 %a1, gtab;
  add.u64 %a1, %a1, %a0;
  ld.global.u64 %w, [%a1];
  atom.global.add.u32 %r2, [counter], 1;
  ld.param.u64 %addr, [out_global];
  mad.wide.u32 %addr, %lane, 8, %addr;
  st.global.u64 [%addr], %w;

  // .param scalars of several types.
  ld.param.u32 %k, [k];
  ld.param.f32 %f2, [f];
  ld.param.u64 %w, [wide];
  ld.param.s16 %sm, [small];
  cvt.s32.s16 %r3, %sm;
  add.u32 %r3, %r3, %k;
  cvt.rzi.s32.f32 %r4, %f2;
  add.u32 %r3, %r3, %r4;
  cvt.u32.u64 %r4, %w;
  add.u32 %r3, %r3, %r4;
  add.u32 %r3, %r3, %lane;
  ld.param.u64 %addr, [out_param];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.u32 [%addr], %r3;

  // Static .shared: two arrays that must not overlap. Each lane writes
  // and reads back only its own elements.
  mul.wide.u32 %a0, %lane, 4;
  mov.u64 %a1, sa;
  add.u64 %a1, %a1, %a0;
  mul.lo.u32 %r5, %lane, 3;
  st.shared.u32 [%a1], %r5;
  st.shared.u32 [%a1+128], %lane;
  mul.wide.u32 %a0, %lane, 8;
  mov.u64 %a2, sb;
  add.u64 %a2, %a2, %a0;
  cvt.u64.u32 %w, %lane;
  shl.b64 %w, %w, 40;
  st.shared.u64 [%a2], %w;
  ld.shared.u32 %r5, [%a1];
  ld.shared.u32 %r6, [%a1+128];
  ld.shared.u64 %w, [%a2];
  shr.u64 %w, %w, 32;
  cvt.u32.u64 %r7, %w;
  add.u32 %r5, %r5, %r7;
  mad.lo.u32 %r5, %r6, 1000, %r5;
  ld.param.u64 %addr, [out_shared];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.u32 [%addr], %r5;

  // Dynamic .shared after the static variables: bytes, then read as a word
  // (this lane's four bytes).
  mul.wide.u32 %a0, %lane, 4;
  mov.u64 %a1, dyn;
  add.u64 %a1, %a1, %a0;
  cvt.u16.u32 %sm, %lane;
  st.shared.u8 [%a1], %sm;
  st.shared.u8 [%a1+1], 0xaa;
  st.shared.u16 [%a1+2], 0xbeef;
  ld.shared.u32 %r0, [%a1];
  mov.u32 %r1, %dynamic_smem_size;
  ld.param.u64 %addr, [out_dyn];
  mad.wide.u32 %addr, %lane, 8, %addr;
  st.global.v2.u32 [%addr], {%r0, %r1};

  // .local: a private array per thread at the same addresses; a loop
  // fills it with lane-dependent values and sums every other element.
  mov.u32 %r0, 0;
fill:
  mul.wide.u32 %a0, %r0, 4;
  mov.u64 %a1, priv;
  add.u64 %a1, %a1, %a0;
  mad.lo.u32 %r1, %r0, 100, %lane;
  st.local.u32 [%a1], %r1;
  add.u32 %r0, %r0, 1;
  setp.lt.u32 %p, %r0, 8;
  @%p bra fill;
  ld.local.u32 %r1, [priv];
  ld.local.u32 %r2, [priv+8];
  add.u32 %r1, %r1, %r2;
  ld.local.v2.u32 {%r2, %r3}, [priv+16];
  add.u32 %r1, %r1, %r2;
  ld.local.u32 %r2, [priv+24];
  add.u32 %r1, %r1, %r2;
  ld.param.u64 %addr, [out_local];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.global.u32 [%addr], %r1;

  // Generic addresses of .shared and .local data work with plain ld/st.
  cvta.shared.u64 %a0, sa;
  mad.wide.u32 %a0, %lane, 4, %a0;
  ld.u32 %r0, [%a0];
  mov.u64 %a1, priv;
  cvta.local.u64 %a1, %a1;
  st.u32 [%a1+4], 7;
  ld.local.u32 %r1, [priv+4];
  add.u32 %r0, %r0, %r1;
  ld.param.u64 %addr, [out_generic];
  mad.wide.u32 %addr, %lane, 4, %addr;
  st.u32 [%addr], %r0;
  ret;
}
"""


@test
def state_spaces():
    n = 32
    table = [11, 22, 33, 44, 55, 66, 77, 88]
    gtab = [0x1111222233334444, 5, (1 << 64) - 1, 0]
    k, f, wide, small = 1000, 2.75, (7 << 32) | 9, -300
    out_const = [int(table[i & 7] * 1.5) for i in range(n)]
    out_global = [gtab[i & 3] for i in range(n)]
    out_param = [(small + k + int(f) + (wide & 0xFFFFFFFF) + i) & 0xFFFFFFFF
                 for i in range(n)]
    out_shared = [i * 3 + (i << 8) + i * 1000 for i in range(n)]
    out_dyn = []
    for i in range(n):
        out_dyn += [i | 0xAA << 8 | 0xBEEF << 16, 4 * n]
    out_local = [sum(j * 100 + i for j in (0, 2, 4, 6)) for i in range(n)]
    out_generic = [i * 3 + 7 for i in range(n)]
    outs = [("out_const", "u32", out_const), ("out_global", "u64", out_global),
            ("out_param", "u32", out_param), ("out_shared", "u32", out_shared),
            ("out_dyn", "u32", out_dyn), ("out_local", "u32", out_local),
            ("out_generic", "u32", out_generic)]
    args = ["-b %d --shared %d --arg %d --arg %s --arg %d --arg %d"
            % (n, 4 * n, k, f, wide, small)]
    args += ["--arg '%s[%d]>-'" % (t, len(v)) for _, t, v in outs]
    return CustomTest("state-spaces", """
Every state space: .const tables and scalars with initializers, .global
variables with initializers, kernel .param scalars of several types, two
static .shared arrays (which must not overlap), dynamic .shared after them
(%dynamic_smem_size is the --shared size), a private .local array per
thread, and generic addresses (cvta) of .shared and .local data.
""", SPACES_PTX, [Run(args, [(name, v) for name, _, v in outs])])


M32 = [0, 1, 5, 0xFFFFFFFF, 0x80000000, 7, 100, 3, 12, 0x7FFFFFFF, 2, 9, 0, 10,
       11, 0xFFFFFFFE]
B32 = [1, 0xFFFFFFFF, 5, 1, 0x80000000, 7, 50, 3, 11, 1, 2, 8, 0, 10, 3, 0xFFFFFFFF]
C32 = [0xAAAA0000 + i for i in range(16)]
M64 = [0, 1, (1 << 64) - 1, 1 << 63, 12345678901234, 7, 3, 1 << 40]
B64 = [5, (1 << 64) - 1, 1, 1 << 63, 12345678901234, 8, 3, 1 << 41]
F32V = ["1", "0.1", "-2.5", "1e30", "0x1p-149", "-0", "inf", "3"]
F32B = ["2", "0.2", "2.5", "-1e30", "0x1p-149", "-0", "1", "0x1p-24"]


def u32(x):
    return x & 0xFFFFFFFF


def u64(x):
    return x & 0xFFFFFFFFFFFFFFFF


def s32(x):
    return to_signed(x, 32)


def s64(x):
    return to_signed(x, 64)


ATOM32 = [
    ("add_u32", "add.u32", lambda m, b, c: u32(m + b)),
    ("add_s32", "add.s32", lambda m, b, c: u32(m + b)),
    ("min_u32", "min.u32", lambda m, b, c: min(m, b)),
    ("max_u32", "max.u32", lambda m, b, c: max(m, b)),
    ("min_s32", "min.s32", lambda m, b, c: u32(min(s32(m), s32(b)))),
    ("max_s32", "max.s32", lambda m, b, c: u32(max(s32(m), s32(b)))),
    ("inc_u32", "inc.u32", lambda m, b, c: 0 if m >= b else m + 1),
    ("dec_u32", "dec.u32", lambda m, b, c: b if (m == 0 or m > b) else m - 1),
    ("and_b32", "and.b32", lambda m, b, c: m & b),
    ("or_b32", "or.b32", lambda m, b, c: m | b),
    ("xor_b32", "xor.b32", lambda m, b, c: m ^ b),
    ("exch_b32", "exch.b32", lambda m, b, c: b),
    ("cas_b32", "cas.b32", lambda m, b, c: c if m == b else m),
]
ATOM64 = [
    ("add_u64", "add.u64", lambda m, b, c: u64(m + b)),
    ("min_s64", "min.s64", lambda m, b, c: u64(min(s64(m), s64(b)))),
    ("max_u64", "max.u64", lambda m, b, c: max(m, b)),
    ("exch_b64", "exch.b64", lambda m, b, c: b),
    ("cas_b64", "cas.b64", lambda m, b, c: c if m == b else m),
]


def atom_kernel(space, ops32, ops64, with_f32):
    """A kernel in which lane L applies each atomic to word L of that op's
    buffer (in .shared, a copy of it) and stores the old value."""
    params = ["  .param .u64 b32, .param .u64 c32, .param .u64 b64, .param .u64 c64,"
              " .param .u64 bf32"]
    names = [n for n, _, _ in ops32] + [n for n, _, _ in ops64] + \
        (["add_f32"] if with_f32 else [])
    for n in names:
        params.append("  .param .u64 mem_%s, .param .u64 old_%s" % (n, n))
    body = []
    shared = space == "shared"
    for n, op, _ in [(n, o, f) for n, o, f in ops32] + \
            ([("add_f32", "add.f32", None)] if with_f32 else []):
        body += [
            "  // %s" % op,
            "  ld.param.u64 %%m, [mem_%s];" % n,
            "  add.u64 %m, %m, %o4;",
        ]
        if shared:
            body += ["  ld.global.b32 %v, [%m];", "  st.shared.b32 [%s4], %v;",
                     "  mov.u64 %a, %s4;"]
        else:
            body += ["  mov.u64 %a, %m;"]
        ty = op.split(".")[1]
        if op.startswith("cas"):
            body.append("  atom.%s.%s %%old, [%%a], %%b, %%c;" % (space, op))
        elif ty == "f32":
            body.append("  atom.%s.%s %%oldf, [%%a], %%bf;" % (space, op))
            body.append("  mov.b32 %old, %oldf;")
        else:
            body.append("  atom.%s.%s %%old, [%%a], %%b;" % (space, op))
        if shared:
            body += ["  ld.shared.b32 %v, [%s4];", "  st.global.b32 [%m], %v;"]
        body += ["  ld.param.u64 %%m, [old_%s];" % n, "  add.u64 %m, %m, %o4;",
                 "  st.global.b32 [%m], %old;", ""]
    for n, op, _ in ops64:
        body += [
            "  // %s" % op,
            "  ld.param.u64 %%m, [mem_%s];" % n,
            "  add.u64 %m, %m, %o8;",
        ]
        if shared:
            body += ["  ld.global.b64 %w, [%m];", "  st.shared.b64 [%s8], %w;",
                     "  mov.u64 %a, %s8;"]
        else:
            body += ["  mov.u64 %a, %m;"]
        if op.startswith("cas"):
            body.append("  atom.%s.%s %%old64, [%%a], %%b64, %%c64;" % (space, op))
        else:
            body.append("  atom.%s.%s %%old64, [%%a], %%b64;" % (space, op))
        if shared:
            body += ["  ld.shared.b64 %w, [%s8];", "  st.global.b64 [%m], %w;"]
        body += ["  ld.param.u64 %%m, [old_%s];" % n, "  add.u64 %m, %m, %o8;",
                 "  st.global.b64 [%m], %old64;", ""]
    head = r"""
.version 8.8
.target sm_100
.address_size 64

.shared .align 8 .b8 words[512];

.visible .entry atomics(
%s
)
{
  .reg .u32 %%lane, %%b, %%c, %%old, %%v;
  .reg .f32 %%bf, %%oldf;
  .reg .u64 %%o4, %%o8, %%m, %%a, %%s4, %%s8, %%b64, %%c64, %%old64, %%w;

  mov.u32 %%lane, %%tid.x;
  mul.wide.u32 %%o4, %%lane, 4;
  mul.wide.u32 %%o8, %%lane, 8;
  mov.u64 %%s4, words;
  add.u64 %%s4, %%s4, %%o4;
  mov.u64 %%s8, words;
  add.u64 %%s8, %%s8, 256;
  add.u64 %%s8, %%s8, %%o8;
  ld.param.u64 %%m, [b32];
  add.u64 %%m, %%m, %%o4;
  ld.global.u32 %%b, [%%m];
  ld.param.u64 %%m, [c32];
  add.u64 %%m, %%m, %%o4;
  ld.global.u32 %%c, [%%m];
  ld.param.u64 %%m, [bf32];
  add.u64 %%m, %%m, %%o4;
  ld.global.f32 %%bf, [%%m];
  ld.param.u64 %%m, [b64];
  add.u64 %%m, %%m, %%o8;
  ld.global.u64 %%b64, [%%m];
  ld.param.u64 %%m, [c64];
  add.u64 %%m, %%m, %%o8;
  ld.global.u64 %%c64, [%%m];

""" % ",\n".join(params)
    return head + "\n".join(body) + "  ret;\n}\n"


def atom_test(name, space, ops32, ops64, lanes, doc):
    import ptxref as R
    from ptxref import F32
    m32 = (M32 * 4)[:lanes]
    b32 = (B32 * 4)[:lanes]
    c32 = (C32 * 4)[:lanes]
    m64 = (M64 * 8)[:lanes]
    b64 = (B64 * 8)[:lanes]
    c64 = [0xC0C0C0C000000000 + i for i in range(lanes)]
    mf = [R.parse_exact(x, F32) for x in (F32V * 8)[:lanes]]
    bf = [R.parse_exact(x, F32) for x in (F32B * 8)[:lanes]]

    def fmt_f32(bits):
        s_ = R.format_float(bits, F32)
        return "-0.0" if s_ == "-0" else s_
    args = ["-b %d" % lanes,
            "--arg 'u32[%d]=[%s]'" % (lanes, ",".join(map(str, b32))),
            "--arg 'u32[%d]=[%s]'" % (lanes, ",".join(map(str, c32))),
            "--arg 'u64[%d]=[%s]'" % (lanes, ",".join(map(str, b64))),
            "--arg 'u64[%d]=[%s]'" % (lanes, ",".join(map(str, c64))),
            "--arg 'f32[%d]=[%s]'" % (lanes, ",".join(fmt_f32(b) for b in bf))]
    outs = []
    for n, _, f in ops32:
        args.append("--arg 'u32[%d]=[%s]>-' --arg 'u32[%d]>-'"
                    % (lanes, ",".join(map(str, m32)), lanes))
        outs.append(("mem_" + n, [f(m, b, c) for m, b, c in zip(m32, b32, c32)]))
        outs.append(("old_" + n, m32))
    for n, _, f in ops64:
        args.append("--arg 'u64[%d]=[%s]>-' --arg 'u64[%d]>-'"
                    % (lanes, ",".join(map(str, m64)), lanes))
        outs.append(("mem_" + n, [f(m, b, c) for m, b, c in zip(m64, b64, c64)]))
        outs.append(("old_" + n, m64))
    args.append("--arg 'f32[%d]=[%s]>-' --arg 'u32[%d]>-'"
                % (lanes, ",".join(fmt_f32(b) for b in mf), lanes))
    # atom.add.f32 flushes subnormal inputs and results (the ISA; an H200).
    outs.append(("mem_add_f32", [R.format_float(R.f_add(m, b, F32, ftz=True),
                                                F32)
                                 for m, b in zip(mf, bf)]))
    outs.append(("old_add_f32", mf))
    return CustomTest(name, doc, atom_kernel(space, ops32, ops64, True),
                      [Run(args, outs)])


@test
def atomics_global():
    return atom_test("atomics-global", "global", ATOM32, ATOM64, 24, """
Every atom operation on .global memory, each lane on its own word, so that
the old value each lane gets back is defined: add (wrapping), min/max
signed and unsigned, inc/dec with their wrap-around bounds, and/or/xor,
exch, cas (swapping only on a match), 64-bit forms, and add.f32 (rounded
to nearest, subnormal inputs and results flushed to zero). 24 lanes: a partial warp, whose missing lanes must not touch
memory. The buffers are printed after the kernel (mem_*) with the values
returned (old_*, printed as bits for add.f32).
""")


@test
def atomics_shared():
    ops32 = [o for o in ATOM32 if o[0] in ("add_u32", "min_s32", "max_u32", "inc_u32",
                                          "dec_u32", "and_b32", "xor_b32",
                                          "exch_b32", "cas_b32")]
    ops64 = [o for o in ATOM64 if o[0] in ("add_u64", "cas_b64", "min_s64")]
    return atom_test("atomics-shared", "shared", ops32, ops64, 32, """
atom on .shared memory: each lane copies its word into shared memory,
applies the operation there, and copies it back; the old values come back
as for .global.
""")
