#!/usr/bin/env python3
"""Inputs and expected outputs for the kernels of
test/Inputs/cuda/mma_sparse.cu (one mma.sp form each, its fragments read
from buffers as families_matrix.MmaSp lays them out).

    mma-sp-corpus.py OUT_DIR KERNEL

writes a.bin, b.bin, c.bin and e.bin (A's kept elements, B, C and the
metadata registers) and args (the --arg options of `ptx-jit run` that
pass them) to OUT_DIR and prints the line `ptx-jit run` prints
for D, computed by mmaref.py (never by ptx-jit)."""

import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from families_matrix import MmaSp, buffer, near_limit  # noqa: E402

FORMS = {
    "sp_f16_k16_sel1": lambda: MmaSp("m16n8k16", "f32", "f16", "f16", "f32",
                                     1, seed=200),
    "sp_tf32_k16_sel1": lambda: MmaSp("m16n8k16", "f32", "tf32", "tf32",
                                      "f32", 1, seed=201),
    "sp_tf32_k8_sel3": lambda: MmaSp("m16n8k8", "f32", "tf32", "tf32", "f32",
                                     3, ordered=True, seed=202),
    "sp_bf16_k32_sel0": lambda: MmaSp("m16n8k32", "f32", "bf16", "bf16",
                                      "f32", 0, seed=203),
    "sp_s8_u8_k64_satfinite": lambda: MmaSp("m16n8k64", "s32", "s8", "u8",
                                            "s32", 0, satfinite=True,
                                            seed=204, csel=near_limit),
    "sp_u4_k128_ordered": lambda: MmaSp("m16n8k128", "s32", "u4", "u4", "s32",
                                        0, ordered=True, seed=205),
    "sp_f16_k32_f16_sel1_ordered": lambda: MmaSp("m16n8k32", "f16", "f16",
                                                 "f16", "f16", 1,
                                                 ordered=True, seed=206),
    "sp_s4_k64_sel1": lambda: MmaSp("m16n8k64", "s32", "s4", "s4", "s32", 1,
                                    seed=207),
    "sp_e5m2_e4m3_k64": lambda: MmaSp("m16n8k64", "f32", "e5m2", "e4m3",
                                      "f32", 0, seed=208),
}


def write(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(values), *values))


def main():
    out_dir, kernel = sys.argv[1], sys.argv[2]
    form = FORMS[kernel]()
    write(os.path.join(out_dir, "a.bin"), buffer(form.A))
    write(os.path.join(out_dir, "b.bin"), buffer(form.B))
    write(os.path.join(out_dir, "c.bin"), buffer(form.C))
    write(os.path.join(out_dir, "e.bin"), form.E)
    d = buffer(form.expected())
    print("%s_param_4 = [%s]" % (kernel, ", ".join(str(v) for v in d)))
    # The arguments `ptx-jit run` takes for them, for the test's RUN lines.
    args = ["--arg u32[%d]=@%s" % (len(buffer(v)), os.path.join(out_dir, n))
            for v, n in ((form.A, "a.bin"), (form.B, "b.bin"),
                         (form.C, "c.bin"))]
    args += ["--arg u32[32]=@%s" % os.path.join(out_dir, "e.bin"),
             "--arg u32[%d]>-" % len(d)]
    with open(os.path.join(out_dir, "args"), "w") as f:
        f.write(" ".join(args) + "\n")


if __name__ == "__main__":
    main()
