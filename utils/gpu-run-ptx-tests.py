#!/usr/bin/env python3
"""Runs the `ptx-jit run` lit tests' kernels on a real GPU and checks the
GPU's outputs with the tests' own CHECK lines: a test whose expected values
the hardware does not produce has a wrong reference (or ptx-jit and its
reference agree on a wrong semantics). Three steps, so that the GPU machine
needs only the driver (libcuda) and Python:

  utils/gpu-run-ptx-tests.py prepare DIR [TEST...]  # here: ptx-jit makes the
                                                     # inputs' bytes
  utils/gpu-run-ptx-tests.py run DIR                 # on the GPU machine
  utils/gpu-run-ptx-tests.py check DIR               # here: FileCheck

`prepare` takes every `ptx-jit run %s ... | ...` RUN line of the tests (by
default those under test/Run, test/WarpSync, test/Barriers, test/Calls and
test/Async) whose arguments are scalars and buffers, and lets ptx-jit write
each buffer's initial bytes (so `rand`, `iota` and lists mean exactly what
they mean to ptx-jit). `run` loads each PTX with the driver's JIT, launches
the kernel, and saves the output buffers. `check` prints those bytes with
ptx-jit's own printer (a kernel of the same signature that does nothing,
its buffers initialised from the GPU's bytes) and pipes them through the
rest of the RUN line. Launches with clusters, textures, output files or
`not` are left out; the summary says how many.
"""
import concurrent.futures
import ctypes
import json
import os
import re
import shlex
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTXJIT = os.environ.get("PTXJIT", os.path.join(ROOT, "build", "bin", "ptx-jit"))
LLVM_BIN = "/usr/lib/llvm-22/bin"
DEFAULT_DIRS = ["Run", "WarpSync", "Barriers", "Calls", "Async"]

BUFFER = re.compile(
    r"^(?:(\w+)=)?(u8|s8|u16|s16|u32|s32|u64|s64|f16|bf16|f32|f64)"
    r"\[(\d+)\](?:=([^>]*))?(?:>(.*))?$")
ELEMENT_BYTES = {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
                 "u32": 4, "s32": 4, "f32": 4, "u64": 8, "s64": 8, "f64": 8}
PARAM_BYTES = {"8": 1, "16": 2, "32": 4, "64": 8}


def run_commands(path):
    """The RUN lines of a test, continuation lines joined."""
    commands, current = [], ""
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        text = m.group(1).rstrip()
        if text.endswith("\\"):
            current += text[:-1] + " "
            continue
        commands.append(current + text)
        current = ""
    return commands


def entries(ptx):
    """{name: (parameter text, [(name, bytes, type)])} of the .entry kernels."""
    result = {}
    for m in re.finditer(r"\.entry\s+([\w$.]+)\s*\((.*?)\)", ptx, re.S):
        params = []
        for p in [p.strip() for p in m.group(2).split(",") if p.strip()]:
            words = p.split()
            name = words[-1]
            array = re.match(r"(\w+)\[(\d+)\]", name)
            kind = next((w for w in words if re.match(
                r"\.(u|s|b|f)(8|16|32|64)$", w)), None)
            if kind is None:
                return None
            size = PARAM_BYTES[kind[2:]]
            if array:
                name, size = array.group(1), size * int(array.group(2))
            params.append((name, size, kind[1:]))
        result[m.group(1)] = (m.group(2), params)
    return result


def scalar_bytes(text, size, kind):
    if kind[0] == "f":
        value = float(text)
        return struct.pack({2: "<e", 4: "<f", 8: "<d"}[size], value)
    value = int(text, 0)
    return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def noop_ptx(ptx, name, params_text):
    header = "\n".join(l for l in ptx.splitlines()
                       if re.match(r"\s*\.(version|target|address_size)\b", l))
    return f"{header}\n.visible .entry {name}({params_text})\n{{\n  ret;\n}}\n"


def prepare(work, tests):
    os.makedirs(work, exist_ok=True)
    manifest, skipped = [], {}
    if not tests:
        tests = sorted(os.path.join(ROOT, "test", d, f) for d in DEFAULT_DIRS
                       for f in os.listdir(os.path.join(ROOT, "test", d))
                       if f.endswith(".ptx"))
    for test in tests:
        ptx = open(test, encoding="utf-8").read()
        found = entries(ptx)
        for index, command in enumerate(run_commands(test)):
            if not command.startswith("ptx-jit run %s") or "|" not in command:
                continue
            run_part, rest = command.split("|", 1)
            ident = f"{os.path.basename(os.path.dirname(test))}." \
                    f"{os.path.basename(test)}.{index}"
            why = describe_skip(run_part, found)
            if why:
                skipped[why] = skipped.get(why, 0) + 1
                continue
            job = make_job(work, ident, test, ptx, found,
                           shlex.split(run_part)[3:], rest)
            if isinstance(job, str):
                skipped[job] = skipped.get(job, 0) + 1
                continue
            manifest.append(job)
    json.dump(manifest, open(os.path.join(work, "manifest.json"), "w"),
              indent=1)
    print(f"{len(manifest)} launches prepared; left out: {skipped}")


def describe_skip(run_part, found):
    if found is None:
        return "struct or unusual parameters"
    for option in ("--cluster", "--check", ":", "--shared"):
        if option in run_part:
            return {"--cluster": "clusters", "--check": "checking mode",
                    ":": "textures or surfaces", "--shared": "dynamic shared"
                    }[option]
    return None


def make_job(work, ident, test, ptx, found, argv, rest):
    grid, block, kernel, specs, extra = None, None, None, [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        value = argv[i + 1] if i + 1 < len(argv) else None
        if a in ("-g", "--grid"):
            grid, i = value, i + 2
        elif a.startswith("--grid="):
            grid, i = a.split("=", 1)[1], i + 1
        elif a in ("-b", "--block"):
            block, i = value, i + 2
        elif a in ("-k", "--kernel"):
            kernel, i = value, i + 2
        elif a.startswith("--kernel="):
            kernel, i = a.split("=", 1)[1], i + 1
        elif a == "--arg":
            specs.append(value)
            i += 2
        elif a.startswith("--arg="):
            specs.append(a.split("=", 1)[1])
            i += 1
        elif a in ("--threads", "--timeout", "-O"):
            i += 2
        elif a.startswith(("--threads=", "--timeout=", "-O")):
            i += 1
        elif a.startswith("--print-limit"):
            extra.append(a if "=" in a else f"{a}={value}")
            i += 1 if "=" in a else 2
        else:
            return f"option {a}"
    if kernel is None:
        if len(found) != 1:
            return "kernel not named"
        kernel = next(iter(found))
    if kernel not in found:
        return "kernel named by C++ name"
    params_text, params = found[kernel]
    if len(specs) != len(params) or grid is None:
        return "arguments"
    if block is None:
        m = re.search(r"\.reqntid\s+([\d\s,]+)", ptx)
        if not m:
            return "no block"
        block = m.group(1).replace(" ", "")
    dims = lambda s: ([int(x) for x in s.split(",")] + [1, 1])[:3]
    noop = os.path.join(work, ident + ".noop.ptx")
    open(noop, "w").write(noop_ptx(ptx, kernel, params_text))
    args, init_specs, print_specs = [], [], []
    for n, (spec, (pname, size, kind)) in enumerate(zip(specs, params)):
        m = BUFFER.match(spec)
        if not m:
            try:
                args.append({"scalar": scalar_bytes(spec, size, kind).hex()})
            except ValueError:
                return "scalar literal"
            init_specs.append(spec)
            print_specs.append(spec)
            continue
        name, etype, count, init, out = m.groups()
        if out is not None and out != "-":
            return "output file"
        raw = os.path.join(work, f"{ident}.arg{n}")
        prefix = f"{name}=" if name else ""
        init_part = f"={init}" if init is not None else ""
        init_specs.append(f"{prefix}{etype}[{count}]{init_part}>{raw}.in")
        print_specs.append(f"{prefix}{etype}[{count}]=@{raw}.gpu>-"
                           if out == "-" else spec)
        args.append({"buffer": int(count) * ELEMENT_BYTES[etype],
                     "init": os.path.basename(raw) + ".in",
                     "out": os.path.basename(raw) + ".gpu" if out else None})
    made = subprocess.run(
        [PTXJIT, "run", noop, "-g", "1", "-b", "1"] +
        [x for s in init_specs for x in ("--arg", s)],
        capture_output=True, text=True)
    if made.returncode != 0:
        return "inputs: " + made.stderr.strip().splitlines()[-1][:60]
    return {"id": ident, "test": test, "ptx": ident + ".ptx",
            "kernel": kernel, "grid": dims(grid), "block": dims(block),
            "args": args, "print": print_specs, "extra": extra,
            "rest": rest, "noop": os.path.basename(noop)}


# --- on the GPU machine -----------------------------------------------------

def gpu_run(work):
    manifest = json.load(open(os.path.join(work, "manifest.json")))
    # Each launch in its own process (a faulting kernel spoils its
    # context), eight at a time.
    def launch(job):
        try:
            status = subprocess.run([sys.executable, __file__, "one", work,
                                     job["id"]], capture_output=True,
                                    text=True, timeout=120)
            text = (status.stdout + status.stderr).strip() or \
                f"exit {status.returncode}"
        except subprocess.TimeoutExpired:
            text = "timed out"
        open(os.path.join(work, job["id"] + ".status"), "w").write(text)
        return job["id"] + " " + text.splitlines()[-1]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for line in pool.map(launch, manifest):
            print(line)


def gpu_one(work, ident):
    job = next(j for j in json.load(open(os.path.join(work, "manifest.json")))
               if j["id"] == ident)
    ptx_path = os.path.join(work, "ptx", job["ptx"])
    cuda = ctypes.CDLL("libcuda.so.1")

    def check(result, what):
        if result != 0:
            name = ctypes.c_char_p()
            cuda.cuGetErrorName(result, ctypes.byref(name))
            raise SystemExit(f"{what}: {name.value.decode()}")

    check(cuda.cuInit(0), "cuInit")
    device, context = ctypes.c_int(), ctypes.c_void_p()
    check(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device),
          "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    log = ctypes.create_string_buffer(8192)
    options = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER(+_SIZE)
    values = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p).value,
                                   8192)
    # Tests written for a newer .target than the GPU's still run when they
    # use nothing newer (ptxas says so otherwise).
    image = re.sub(rb"\.target\s+sm_1\d\d[af]?", b".target " +
                   os.environ.get("GPU_TARGET", "sm_90").encode(),
                   open(ptx_path, "rb").read()) + b"\0"
    result = cuda.cuModuleLoadDataEx(ctypes.byref(module), image, 2, options,
                                     values)
    if result != 0:
        check(result, "cuModuleLoadDataEx: " +
              " ".join(log.value.decode(errors="replace").split())[:300])
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module,
                                   job["kernel"].encode()),
          "cuModuleGetFunction")
    storage, pointers, outputs = [], [], []
    for arg in job["args"]:
        if "scalar" in arg:
            data = bytes.fromhex(arg["scalar"])
            cell = ctypes.create_string_buffer(data, len(data))
        else:
            address = ctypes.c_uint64()
            size = max(arg["buffer"], 1)
            check(cuda.cuMemAlloc_v2(ctypes.byref(address), size), "cuMemAlloc")
            data = open(os.path.join(work, arg["init"]), "rb").read()
            check(cuda.cuMemcpyHtoD_v2(address, data, len(data)), "cuMemcpyHtoD")
            if arg["out"]:
                outputs.append((address, arg))
            cell = ctypes.create_string_buffer(
                address.value.to_bytes(8, "little"), 8)
        storage.append(cell)
        pointers.append(ctypes.cast(cell, ctypes.c_void_p).value)
    params = (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
    g, b = job["grid"], job["block"]
    check(cuda.cuLaunchKernel(function, g[0], g[1], g[2], b[0], b[1], b[2], 0,
                              None, params, None), "cuLaunchKernel")
    check(cuda.cuCtxSynchronize(), "kernel")
    for address, arg in outputs:
        data = ctypes.create_string_buffer(arg["buffer"])
        check(cuda.cuMemcpyDtoH_v2(data, address, arg["buffer"]),
              "cuMemcpyDtoH")
        open(os.path.join(work, arg["out"]), "wb").write(data.raw)
    print("ok")


def cpu_run(work):
    """The same launches under ptx-jit: a test of this script itself (its
    `check` must then find every launch right)."""
    manifest = json.load(open(os.path.join(work, "manifest.json")))
    for job in manifest:
        specs = []
        for spec, arg in zip(job["print"], job["args"]):
            if "scalar" in arg:
                specs.append(spec)
                continue
            m = BUFFER.match(spec)
            base = f"{m.group(2)}[{m.group(3)}]=@{os.path.join(work, arg['init'])}"
            specs.append(base + (f">{os.path.join(work, arg['out'])}"
                                 if arg["out"] else ""))
        command = [PTXJIT, "run", os.path.join(work, "ptx", job["ptx"]), "-k",
                   job["kernel"], "-g", ",".join(map(str, job["grid"])), "-b",
                   ",".join(map(str, job["block"])), "--timeout", "60"]
        result = subprocess.run(command + [x for s in specs
                                           for x in ("--arg", s)],
                                capture_output=True, text=True)
        text = "ok" if result.returncode == 0 else result.stderr.strip()
        open(os.path.join(work, job["id"] + ".status"), "w").write(text)


# --- back here ----------------------------------------------------------------

def check(work):
    manifest = json.load(open(os.path.join(work, "manifest.json")))
    good, bad = 0, []
    for job in manifest:
        status_path = os.path.join(work, job["id"] + ".status")
        status = open(status_path).read().strip() if os.path.exists(
            status_path) else "not run"
        if status.splitlines()[-1:] != ["ok"]:
            bad.append((job["id"], status.splitlines()[-1][:200]))
            continue
        test = job["test"]
        rest = job["rest"]
        for key, value in (("%python", sys.executable),
                           ("%S", os.path.dirname(test)), ("%s", test),
                           ("%inputs", os.path.join(ROOT, "test", "Inputs")),
                           ("%t", os.path.join(work, job["id"] + ".tmp"))):
            rest = rest.replace(key, value)
        printed = [x for s in job["print"] for x in ("--arg", s)]
        command = shlex.join(
            [PTXJIT, "run", os.path.join(work, job["noop"]), "-g", "1", "-b",
             "1"] + printed + job["extra"]) + " |" + rest
        env = dict(os.environ, PATH=LLVM_BIN + os.pathsep + os.environ["PATH"])
        result = subprocess.run(["bash", "-o", "pipefail", "-c", command],
                                capture_output=True, text=True, cwd=work,
                                env=env)
        if result.returncode == 0:
            good += 1
        else:
            bad.append((job["id"], (result.stdout + result.stderr)[-1500:]))
    for ident, text in bad:
        print(f"=== MISMATCH {ident}\n{text}\n")
    print(f"{good} launches give what their tests expect, {len(bad)} do not")
    return 1 if bad else 0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    step, work = sys.argv[1], os.path.abspath(sys.argv[2])
    if step == "prepare":
        prepare(work, [os.path.abspath(t) for t in sys.argv[3:]])
        os.makedirs(os.path.join(work, "ptx"), exist_ok=True)
        for job in json.load(open(os.path.join(work, "manifest.json"))):
            subprocess.run(["cp", job["test"],
                            os.path.join(work, "ptx", job["ptx"])], check=True)
        return 0
    if step == "run":
        gpu_run(work)
        return 0
    if step == "cpu-run":
        cpu_run(work)
        return 0
    if step == "one":
        gpu_one(work, sys.argv[3])
        return 0
    if step == "check":
        return check(work)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
