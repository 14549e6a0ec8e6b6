"""Video instructions: the scalar vadd vsub vabsdiff vmin vmax vshl vshr vmad
vset with every selector, signedness, .sat, secondary operation and merge,
and the SIMD vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4
with selectors, masks, .sat and .add."""

import random

from testgen import Test, Op, Input, test
import ptxref as R

# Bytes and half-words at the edges of their signed and unsigned ranges
# (0x00 0x01 0x7f 0x80 0xff, 0x7fff 0x8000 0xffff) in every position, then
# random words.
EDGE_A = [0x00000000, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x80FF7F00,
          0x7F80FF01, 0xFFFF8000, 0x00017FFF, 0x01020304, 0xFEFDFCFB,
          0x8000FFFF, 0x7FFF0001, 0x00000001, 0x12345678, 0xF0F0F0F0,
          0x0000FFFF]
EDGE_B = [0x00000000, 0x00000001, 0x7FFFFFFF, 0x80000000, 0x7F80FF01,
          0x80FF7F00, 0x00017FFF, 0xFFFF8000, 0x04030201, 0x01020304,
          0xFFFF8000, 0x80007FFF, 0xFFFFFFFF, 0x9ABCDEF0, 0x0F0F0F0F,
          0xFFFF0000]
EDGE_C = [0x00000000, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x11223344,
          0xAABBCCDD, 0x00000005, 0xFFFFFFFB, 0x55555555, 0xDEADBEEF,
          0x00010001, 0x01010101, 0x7FFF7FFF, 0x80808080, 0x000000FF,
          0x12345678]
LANES = 32


def words(fixed, seed):
    rng = random.Random(seed)
    return fixed + [rng.getrandbits(32) for _ in range(LANES - len(fixed))]


def inputs(seed):
    return [Input("a", "u32", words(EDGE_A, seed)),
            Input("b", "u32", words(EDGE_B, seed + 1)),
            Input("c", "u32", words(EDGE_C, seed + 2))]


def sel(s):
    return "" if s is None else "." + s


def scalar(name, op, types, asel=None, bsel=None, dsel=None, sat=False,
           secop=None, mode=None, cmp=None):
    """One scalar video instruction on a, b (and c when it has a secondary
    operation or a merge)."""
    mods = (("." + cmp) if cmp else "") + (".sat" if sat else "") + \
        (("." + mode) if mode else "") + (("." + secop) if secop else "")
    three = secop is not None or dsel is not None
    ptx = "v%s.%s%s {d}%s, {a}%s, {b}%s%s;" % (
        op, types, mods, sel(dsel), sel(asel), sel(bsel), ", {c}" if three else "")
    return Op(name, "u32", ptx,
              lambda a, b, c: R.video_scalar(op, types, a, b, c, asel, bsel, dsel,
                                             sat, secop, mode, cmp))


def simd(name, op, n, types, asel=None, bsel=None, mask=None, sat=False,
         add=False, cmp=None):
    mods = (("." + cmp) if cmp else "") + (".sat" if sat else "") + \
        (".add" if add else "")
    ptx = "v%s%d.%s%s {d}%s, {a}%s, {b}%s, {c};" % (
        op, n, types, mods, sel(mask), sel(asel), sel(bsel))
    return Op(name, "u32", ptx,
              lambda a, b, c: R.video_simd(op, n, types, a, b, c, asel, bsel, mask,
                                           sat, add, cmp))


@test
def video_scalar_arith():
    ops = []
    # Every operation on whole words in each signedness of d, a and b.
    for op in ("add", "sub", "absdiff", "min", "max"):
        for types in ("u32.u32.u32", "s32.s32.s32", "u32.s32.u32", "s32.u32.s32"):
            ops.append(scalar("%s_%s" % (op, types.replace(".", "")), op, types))
    # .sat clamps to the destination's range: unsigned results below 0 or
    # above 0xffffffff, signed ones beyond 32 bits.
    for op in ("add", "sub", "absdiff"):
        for types in ("u32.u32.u32", "s32.s32.s32", "u32.s32.s32", "s32.u32.u32"):
            ops.append(scalar("%s_sat_%s" % (op, types.replace(".", "")), op, types,
                              sat=True))
    return Test("video-scalar-arith", """
The scalar video instructions on whole words: each source is extended by its
own type to 33 bits, the operation is exact, and the low 32 bits are the
result; .sat clamps the exact result to the destination type's range (an
unsigned difference below zero is 0, a signed sum beyond 32 bits the
nearest bound).
""", inputs(90), ops)


@test
def video_scalar_selectors():
    ops = []
    # Every source selector, in both signednesses.
    for s in ("b0", "b1", "b2", "b3", "h0", "h1"):
        ops.append(scalar("add_a_%s_s" % s, "add", "s32.s32.u32", asel=s))
        ops.append(scalar("sub_b_%s_u" % s, "sub", "s32.u32.u32", bsel=s))
        ops.append(scalar("max_ab_%s_s" % s, "max", "s32.s32.s32", asel=s,
                          bsel=s[0] + str(int(s[1]) ^ 1)))
    # Merges: the result's low byte or half replaces that part of c; with
    # .sat it is first clamped to the byte's or half's range.
    for s in ("b0", "b1", "b2", "b3", "h0", "h1"):
        ops.append(scalar("absdiff_merge_%s" % s, "absdiff", "u32.u32.u32",
                          asel="b1", bsel="b2", dsel=s))
        ops.append(scalar("add_sat_merge_%s_s" % s, "add", "s32.s32.s32",
                          asel="h1", bsel="b0", dsel=s, sat=True))
        ops.append(scalar("sub_sat_merge_%s_u" % s, "sub", "u32.u32.s32",
                          asel="b3", bsel="h0", dsel=s, sat=True))
    return Test("video-scalar-selectors", """
Scalar video selectors: .b0-.b3 and .h0/.h1 pick a byte or half-word of a
source, sign- or zero-extended by the source's type; a destination selector
merges the low byte or half of the (optionally byte- or half-clamped)
result into that position of c, keeping c's other bits.
""", inputs(91), ops)


@test
def video_scalar_secondary():
    ops = []
    for secop in ("add", "min", "max"):
        for types in ("u32.u32.u32", "s32.s32.s32", "s32.u32.s32", "u32.s32.u32"):
            ops.append(scalar("sub_%s_%s" % (secop, types.replace(".", "")), "sub",
                              types, secop=secop))
        ops.append(scalar("add_sat_%s_s" % secop, "add", "s32.s32.s32", sat=True,
                          secop=secop))
        ops.append(scalar("max_sat_%s_u" % secop, "max", "u32.s32.s32", sat=True,
                          secop=secop, asel="h1", bsel="b2"))
    return Test("video-scalar-secondary", """
The secondary operations of the scalar video instructions: c, extended by
the destination's type, is added to, or compared with, the intermediate
result (exact and, with .sat, clamped first); the low 32 bits are the
result. An unsigned destination makes c unsigned, so a negative exact
difference is the minimum of any c.
""", inputs(92), ops)


@test
def video_shift_set():
    ops = []
    for op in ("shl", "shr"):
        for mode in ("clamp", "wrap"):
            for types in ("u32.u32.u32", "s32.s32.u32", "u32.s32.u32"):
                ops.append(scalar("%s_%s_%s" % (op, mode, types.replace(".", "")),
                                  op, types, mode=mode))
        ops.append(scalar("%s_sat_clamp_s" % op, op, "s32.s32.u32", mode="clamp",
                          sat=True))
        ops.append(scalar("%s_sat_wrap_u_b" % op, op, "u32.s32.u32", mode="wrap",
                          sat=True, asel="b1", bsel="b0"))
        ops.append(scalar("%s_merge_h1" % op, op, "u32.u32.u32", mode="clamp",
                          asel="h0", bsel="b0", dsel="h1"))
        ops.append(scalar("%s_max" % op, op, "s32.s32.u32", mode="wrap",
                          bsel="b0", secop="max"))
    for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
        ops.append(scalar("set_%s_ss" % cmp, "set", "s32.s32", cmp=cmp))
        ops.append(scalar("set_%s_us_b" % cmp, "set", "u32.s32", cmp=cmp,
                          asel="b3", bsel="b1"))
    ops += [
        scalar("set_lt_su_add", "set", "s32.u32", cmp="lt", secop="add"),
        scalar("set_ge_uu_min", "set", "u32.u32", cmp="ge", bsel="h1", secop="min"),
        scalar("set_ne_ss_max", "set", "s32.s32", cmp="ne", asel="h0", secop="max"),
        scalar("set_gt_merge_b2", "set", "s32.s32", cmp="gt", asel="b0", bsel="b1",
               dsel="b2"),
    ]
    return Test("video-shift-set", """
vshl and vshr shift a (extended by its type) by the unsigned b: .clamp
limits the amount to 32, .wrap takes it modulo 32; vshr of a signed source
fills with its sign. vset compares the extended sources and gives 1 or 0,
which is unsigned, as its c is.
""", inputs(93), ops)


@test
def video_mad():
    ops = []

    def mad(name, types, asel=None, bsel=None, na=False, nb=False, nc=False,
            po=False, scale=None, sat=False):
        mods = (".po" if po else "") + ((".shr%d" % scale) if scale else "") + \
            (".sat" if sat else "")
        ptx = "vmad.%s%s {d}, %s{a}%s, %s{b}%s, %s{c};" % (
            types, mods, "-" if na else "", sel(asel), "-" if nb else "", sel(bsel),
            "-" if nc else "")
        ops.append(Op(name, "u32", ptx,
                      lambda a, b, c: R.video_mad(types, a, b, c, asel, bsel, na, nb,
                                                  nc, po, scale, sat)))
    for types in ("u32.u32.u32", "s32.s32.s32", "s32.u32.s32", "u32.s32.u32"):
        mad("mad_%s" % types.replace(".", ""), types)
        mad("mad_sat_%s" % types.replace(".", ""), types, sat=True)
    mad("mad_neg_a_u", "s32.u32.u32", na=True)
    mad("mad_neg_b_sat_u", "s32.u32.u32", nb=True, sat=True, asel="h0", bsel="h1")
    mad("mad_neg_c_u", "s32.u32.u32", nc=True)
    mad("mad_neg_c_sat_s", "s32.s32.s32", nc=True, sat=True)
    mad("mad_neg_ab_u", "u32.u32.u32", na=True, nb=True, nc=True)
    mad("mad_po_u", "u32.u32.u32", po=True, asel="b0", bsel="b1")
    mad("mad_po_shr7_s", "s32.s32.s32", po=True, scale=7, asel="h1", bsel="h0")
    mad("mad_shr15_u", "u32.u32.u32", scale=15, asel="h0", bsel="h0")
    mad("mad_shr15_sat_s", "s32.s32.u32", scale=15, sat=True, asel="h1", bsel="h1")
    mad("mad_shr7_neg_a_sat", "s32.u32.u32", scale=7, na=True, sat=True, asel="b2",
        bsel="b3")
    return Test("video-mad", """
vmad computes a*b + c exactly: the result is signed when a source type is or
something is negated; negating the product (a or b) or c takes its one's
complement and adds one; .po adds one; .shr7/.shr15 shift the sum
(arithmetically when signed); .sat clamps to the 32-bit range of the
result's sign.
""", inputs(94), ops)


@test
def video_simd2():
    ops = []
    for op in ("add", "sub", "avrg", "absdiff", "min", "max"):
        for types in ("u32.u32.u32", "s32.s32.s32", "s32.u32.s32"):
            ops.append(simd("%s2_%s" % (op, types.replace(".", "")), op, 2, types))
        ops.append(simd("%s2_sat_s" % op, op, 2, "s32.s32.u32", sat=True))
        ops.append(simd("%s2_sat_u" % op, op, 2, "u32.s32.s32", sat=True))
        ops.append(simd("%s2_add_s" % op, op, 2, "s32.s32.s32", add=True))
    ops += [
        simd("add2_sel", "add", 2, "u32.u32.s32", asel="h32", bsel="h01"),
        simd("sub2_mask_h0", "sub", 2, "s32.s32.s32", mask="h0", asel="h21",
             bsel="h13"),
        simd("max2_mask_h1_sat", "max", 2, "u32.s32.s32", mask="h1", sat=True),
        simd("absdiff2_add_mask_h1", "absdiff", 2, "u32.u32.u32", mask="h1",
             add=True, asel="h00", bsel="h33"),
        simd("avrg2_mask_h10", "avrg", 2, "s32.s32.s32", mask="h10", asel="h12",
             bsel="h30"),
    ]
    for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
        ops.append(simd("set2_%s_ss" % cmp, "set", 2, "s32.s32", cmp=cmp))
        ops.append(simd("set2_%s_uu" % cmp, "set", 2, "u32.u32", cmp=cmp))
    ops += [
        simd("set2_lt_us_add", "set", 2, "u32.s32", cmp="lt", add=True),
        simd("set2_ge_su_mask_h1", "set", 2, "s32.u32", cmp="ge", mask="h1",
             asel="h02", bsel="h31"),
    ]
    return Test("video-simd2", """
The dual half-word SIMD video instructions: each lane's half-words come from
a:b by the selectors (a defaults to .h10, b to .h32; digits are written
from the high lane), extended by their type; .sat clamps each lane to the
destination's 16-bit range; lanes outside the mask keep c's half, and .add
sums the masked lanes' exact results into c instead. vavrg rounds halves
away from zero; vset gives 1 or 0 per lane.
""", inputs(95), ops)


@test
def video_simd4():
    ops = []
    for op in ("add", "sub", "avrg", "absdiff", "min", "max"):
        for types in ("u32.u32.u32", "s32.s32.s32", "u32.s32.u32"):
            ops.append(simd("%s4_%s" % (op, types.replace(".", "")), op, 4, types))
        ops.append(simd("%s4_sat_s" % op, op, 4, "s32.s32.u32", sat=True))
        ops.append(simd("%s4_sat_u" % op, op, 4, "u32.s32.s32", sat=True))
        ops.append(simd("%s4_add_u" % op, op, 4, "u32.u32.u32", add=True))
    for mask in ("b0", "b1", "b2", "b3", "b10", "b20", "b21", "b210", "b30",
                 "b31", "b310", "b32", "b320", "b321"):
        ops.append(simd("sub4_mask_%s" % mask, "sub", 4, "s32.s32.s32", mask=mask))
    ops += [
        simd("add4_sel", "add", 4, "u32.u32.u32", asel="b7654", bsel="b3210"),
        simd("max4_sel_sat", "max", 4, "s32.s32.u32", asel="b0427", bsel="b6153",
             sat=True),
        simd("absdiff4_add_mask_b31", "absdiff", 4, "u32.s32.s32", mask="b31",
             add=True, asel="b7777", bsel="b0000"),
        simd("avrg4_sel_mask", "avrg", 4, "u32.u32.u32", mask="b210", asel="b1032",
             bsel="b4567"),
    ]
    for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
        ops.append(simd("set4_%s_ss" % cmp, "set", 4, "s32.s32", cmp=cmp))
        ops.append(simd("set4_%s_uu" % cmp, "set", 4, "u32.u32", cmp=cmp))
    ops += [
        simd("set4_gt_us_add", "set", 4, "u32.s32", cmp="gt", add=True),
        simd("set4_ne_su_mask", "set", 4, "s32.u32", cmp="ne", mask="b320",
             asel="b5140", bsel="b3762"),
    ]
    return Test("video-simd4", """
The quad byte SIMD video instructions: each lane's bytes come from a:b by
the selectors (a defaults to .b3210, b to .b7654), extended by their type;
.sat clamps to the destination's byte range; lanes outside the mask (every
mask from .b0 to .b321) keep c's byte, and .add sums the masked lanes'
exact results into c (vabsdiff4.add is a sum of absolute differences).
""", inputs(96), ops)


def packed_int(op, t, a, b, sat=False, relu=False):
    """add, sub, min and max on .u16x2 .s16x2 .u8x4 .s8x4: each half-word or
    byte on its own, wrapping (or clamped with .sat); .relu clamps negative
    results to 0."""
    w = 16 if "16" in t else 8
    signed = t[0] == "s"
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    d = 0
    for i in range(32 // w):
        x, y = (a >> (i * w)) & ((1 << w) - 1), (b >> (i * w)) & ((1 << w) - 1)
        if signed:
            x, y = R.to_signed(x, w), R.to_signed(y, w)
        r = {"add": x + y, "sub": x - y, "min": min(x, y), "max": max(x, y)}[op]
        if sat:
            r = max(lo, min(hi, r))
        if relu:
            r = max(r, 0)
        d |= (r & ((1 << w) - 1)) << (i * w)
    return d


@test
def int_packed_simd():
    ops = []
    for t in ("u16x2", "s16x2", "u8x4", "s8x4"):
        for op in ("add", "sub", "min", "max"):
            ops.append(Op("%s_%s" % (op, t), "u32", "%s.%s {d}, {a}, {b};" % (op, t),
                          lambda a, b, c, o=op, t=t: packed_int(o, t, a, b)))
        for op in ("add", "sub"):
            ops.append(Op("%s_sat_%s" % (op, t), "u32",
                          "%s.sat.%s {d}, {a}, {b};" % (op, t),
                          lambda a, b, c, o=op, t=t: packed_int(o, t, a, b, sat=True)))
    for t in ("s16x2", "s8x4"):
        for op in ("min", "max"):
            ops.append(Op("%s_relu_%s" % (op, t), "u32",
                          "%s.relu.%s {d}, {a}, {b};" % (op, t),
                          lambda a, b, c, o=op, t=t: packed_int(o, t, a, b, relu=True)))
    ops.append(Op("max_relu_s32", "u32", "max.relu.s32 {d}, {a}, {b};",
                  lambda a, b, c: max(R.to_signed(a, 32), R.to_signed(b, 32), 0)))
    return Test("int-packed-simd", """
add, sub, min and max on packed integers (.u16x2 .s16x2 .u8x4 .s8x4; nvcc
uses them for __vadd2, __vmins2 ... from sm_90): each half-word or byte
wraps on its own, or with .sat clamps to its type's range; .relu makes
negative results 0.
""", inputs(97), ops)
