#!/usr/bin/env python3
"""Writes a kernel of N if/else diamonds on bits of %tid.x, each writing a
register of its own on both sides (unoptimized PTX's shape: many registers
and divergent branches), or, with --expect, the values it stores as `run` prints them:
v = tid; for i in 1..N: v = v ^ 3i if bit i % 5 of tid is set, else v + i."""
import sys

N = 400
if sys.argv[1:] == ["--expect"]:
    values = []
    for t in range(64):
        v = t
        for i in range(1, N + 1):
            v = v ^ (3 * i) if (t >> (i % 5)) & 1 else (v + i) & 0xFFFFFFFF
        values.append(str(v))
    print("out = [" + ", ".join(values) + "]")
    sys.exit(0)

out = [".version 8.0", ".target sm_80", ".address_size 64", "",
       ".visible .entry chain(.param .u64 out)", "{",
       "  .reg .pred %%p<%d>;" % (N + 1), "  .reg .b32 %%r<%d>;" % (N + 1),
       "  .reg .b32 %%bit<%d>;" % (N + 1), "  .reg .b64 %rd<4>;",
       "  mov.u32 %r0, %tid.x;"]
for i in range(1, N + 1):
    out += ["  shr.u32 %%bit%d, %%r0, %d;" % (i, i % 5),
            "  and.b32 %%bit%d, %%bit%d, 1;" % (i, i),
            "  setp.ne.u32 %%p%d, %%bit%d, 0;" % (i, i),
            "  @%%p%d bra ODD%d;" % (i, i),
            "  add.u32 %%r%d, %%r%d, %d;" % (i, i - 1, i),
            "  bra.uni JOIN%d;" % i,
            "ODD%d:" % i,
            "  xor.b32 %%r%d, %%r%d, %d;" % (i, i - 1, 3 * i),
            "JOIN%d:" % i]
out += ["  ld.param.u64 %rd1, [out];",
        "  mul.wide.u32 %rd2, %r0, 4;",
        "  add.u64 %rd3, %rd1, %rd2;",
        "  st.global.u32 [%%rd3], %%r%d;" % N,
        "  ret;", "}"]
print("\n".join(out))
