"""Special registers in 1-D and 3-D launches, partial warps included."""

from testgen import CustomTest, Run, test

SREG_PTX = r"""
.version 8.8
.target sm_100
.address_size 64

// Thread t of CTA c writes element c * (threads per CTA) + t of each buffer.
.visible .entry sregs(
  .param .u64 tids, .param .u64 ctaids, .param .u64 ntids, .param .u64 nctaids,
  .param .u64 lanes, .param .u64 masks
)
{
  .reg .u32 %tx, %ty, %tz, %nx, %ny, %nz, %cx, %cy, %cz, %gx, %gy, %gz;
  .reg .u32 %lane, %warp, %nwarp, %lin, %cta, %v, %w, %eq, %lt, %le, %gt, %ge;
  .reg .u64 %addr, %off;
  .reg .pred %ok;

  mov.u32 %tx, %tid.x;
  mov.u32 %ty, %tid.y;
  mov.u32 %tz, %tid.z;
  mov.u32 %nx, %ntid.x;
  mov.u32 %ny, %ntid.y;
  mov.u32 %nz, %ntid.z;
  mov.u32 %cx, %ctaid.x;
  mov.u32 %cy, %ctaid.y;
  mov.u32 %cz, %ctaid.z;
  mov.u32 %gx, %nctaid.x;
  mov.u32 %gy, %nctaid.y;
  mov.u32 %gz, %nctaid.z;
  mov.u32 %lane, %laneid;
  mov.u32 %warp, %warpid;
  mov.u32 %nwarp, %nwarpid;

  // Linear thread and CTA numbers, x fastest.
  mad.lo.u32 %lin, %tz, %ny, %ty;
  mad.lo.u32 %lin, %lin, %nx, %tx;
  mad.lo.u32 %cta, %cz, %gy, %cy;
  mad.lo.u32 %cta, %cta, %gx, %cx;
  mul.lo.u32 %v, %nx, %ny;
  mul.lo.u32 %v, %v, %nz;
  mad.lo.u32 %v, %cta, %v, %lin;
  mul.wide.u32 %off, %v, 4;

  // tids: tid.x | tid.y << 8 | tid.z << 16 | laneid << 24
  shl.b32 %v, %ty, 8;
  or.b32 %v, %v, %tx;
  shl.b32 %w, %tz, 16;
  or.b32 %v, %v, %w;
  shl.b32 %w, %lane, 24;
  or.b32 %v, %v, %w;
  ld.param.u64 %addr, [tids];
  add.u64 %addr, %addr, %off;
  st.global.u32 [%addr], %v;

  // ctaids: ctaid.x | ctaid.y << 8 | ctaid.z << 16 | warpid << 24
  shl.b32 %v, %cy, 8;
  or.b32 %v, %v, %cx;
  shl.b32 %w, %cz, 16;
  or.b32 %v, %v, %w;
  shl.b32 %w, %warp, 24;
  or.b32 %v, %v, %w;
  ld.param.u64 %addr, [ctaids];
  add.u64 %addr, %addr, %off;
  st.global.u32 [%addr], %v;

  // ntids: ntid.x | ntid.y << 8 | ntid.z << 16 | (warpid < nwarpid) << 24
  shl.b32 %v, %ny, 8;
  or.b32 %v, %v, %nx;
  shl.b32 %w, %nz, 16;
  or.b32 %v, %v, %w;
  setp.lt.u32 %ok, %warp, %nwarp;
  selp.u32 %w, 0x1000000, 0, %ok;
  or.b32 %v, %v, %w;
  ld.param.u64 %addr, [ntids];
  add.u64 %addr, %addr, %off;
  st.global.u32 [%addr], %v;

  // nctaids: nctaid.x | nctaid.y << 8 | nctaid.z << 16
  shl.b32 %v, %gy, 8;
  or.b32 %v, %v, %gx;
  shl.b32 %w, %gz, 16;
  or.b32 %v, %v, %w;
  ld.param.u64 %addr, [nctaids];
  add.u64 %addr, %addr, %off;
  st.global.u32 [%addr], %v;

  // lanes: the linear thread number modulo 32 must be %laneid, and the
  // warp the same for the 32 threads of each group.
  rem.u32 %v, %lin, 32;
  setp.eq.u32 %ok, %v, %lane;
  div.u32 %w, %lin, 32;
  setp.eq.and.u32 %ok, %w, %warp, %ok;
  selp.u32 %v, 1, 0, %ok;
  ld.param.u64 %addr, [lanes];
  add.u64 %addr, %addr, %off;
  st.global.u32 [%addr], %v;

  // masks: lanemask_eq, _lt, _le, _gt, _ge must be 1 << lane and its
  // neighbours; 1 if all five are right.
  mov.u32 %eq, %lanemask_eq;
  mov.u32 %lt, %lanemask_lt;
  mov.u32 %le, %lanemask_le;
  mov.u32 %gt, %lanemask_gt;
  mov.u32 %ge, %lanemask_ge;
  shl.b32 %v, 1, %lane;
  setp.eq.u32 %ok, %eq, %v;
  sub.u32 %w, %v, 1;
  setp.eq.and.u32 %ok, %lt, %w, %ok;
  or.b32 %w, %w, %v;
  setp.eq.and.u32 %ok, %le, %w, %ok;
  not.b32 %w, %w;
  setp.eq.and.u32 %ok, %gt, %w, %ok;
  or.b32 %w, %w, %v;
  setp.eq.and.u32 %ok, %ge, %w, %ok;
  selp.u32 %v, 1, 0, %ok;
  ld.param.u64 %addr, [masks];
  add.u64 %addr, %addr, %off;
  st.global.u32 [%addr], %v;
  ret;
}
"""


def sreg_run(grid, block, prefix):
    gx, gy, gz = grid
    nx, ny, nz = block
    per = nx * ny * nz
    total = gx * gy * gz * per
    tids, ctaids, ntids, nctaids = [], [], [], []
    for cz in range(gz):
        for cy in range(gy):
            for cx in range(gx):
                for tz in range(nz):
                    for ty in range(ny):
                        for tx in range(nx):
                            lin = (tz * ny + ty) * nx + tx
                            tids.append(tx | ty << 8 | tz << 16 | (lin % 32) << 24)
                            ctaids.append(cx | cy << 8 | cz << 16 | (lin // 32) << 24)
                            ntids.append(nx | ny << 8 | nz << 16 | 1 << 24)
                            nctaids.append(gx | gy << 8 | gz << 16)
    args = "-g %s -b %s" % (",".join(map(str, grid)), ",".join(map(str, block)))
    return Run([args, " ".join(["--arg 'u32[%d]>-'" % total] * 6)], [
        ("tids", tids), ("ctaids", ctaids), ("ntids", ntids),
        ("nctaids", nctaids), ("lanes", [1] * total), ("masks", [1] * total)],
        prefix=prefix)


@test
def special_registers():
    return CustomTest("special-registers", """
%tid, %ntid, %ctaid, %nctaid in 1-D and 3-D launches (x varies fastest,
threads of a CTA form warps of 32 in that order, the last one partial),
%laneid and %warpid consistent with that numbering, %warpid < %nwarpid,
and every %lanemask_*.
""", SREG_PTX, [
        sreg_run((2, 3, 2), (4, 2, 3), "GRID3D"),
        sreg_run((1, 2, 1), (8, 4, 2), "Y_IN_WARP"),
        sreg_run((3, 1, 1), (40, 1, 1), "PARTIAL"),
        sreg_run((2, 1, 1), (5, 3, 7), "ODD"),
    ])
