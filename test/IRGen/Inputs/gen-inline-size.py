#!/usr/bin/env python3
"""Writes the PTX of inline-size-limit.ptx: a kernel that calls big (20001
instructions) once, mid (6000 instructions) five times and small once."""
import sys

def func(name, n):
    body = "\n".join("  add.u32 %s_x, %s_x, 1;" % (name, name) for _ in range(n - 1))
    return (".func (.reg .b32 %s_r) %s(.reg .b32 %s_x)\n{\n%s\n"
            "  mov.u32 %s_r, %s_x;\n  ret;\n}\n"
            % (name, name, name, body, name, name))

out = [".version 8.0", ".target sm_80", ".address_size 64", ""]
out.append(func("big", 20001))
out.append(func("mid", 6000))
out.append(func("small", 2))
out.append(""".visible .entry k(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  call (%r2), big, (%r1);
  call (%r3), mid, (%r2);
  call (%r4), mid, (%r3);
  call (%r5), mid, (%r4);
  call (%r6), mid, (%r5);
  call (%r7), mid, (%r6);
  call (%r8), small, (%r7);
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
}""")
sys.stdout.write("\n".join(out) + "\n")
