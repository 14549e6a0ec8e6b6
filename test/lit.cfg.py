# -*- Python -*-
import os

import lit.formats
import lit.util
from lit.llvm import llvm_config

config.name = "ptx-jit"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".ptx", ".test", ".cu"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptxjit_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["ptx-jit"], [config.ptxjit_tools_dir])
if config.have_fuzzer:
    llvm_config.add_tool_substitutions(["ptx-parse-fuzzer", "ptx-irgen-fuzzer"],
                                       [config.ptxjit_tools_dir])
    config.available_features.add("fuzzer")
    # The dictionary is generated at build time from the .def tables.
    config.substitutions.append(
        ("%ptxdict", os.path.join(config.ptxjit_obj_root, "fuzz", "ptx.dict")))
    # Seconds the bounded fuzzing test runs: lit -Dfuzz_time=600 for longer.
    config.substitutions.append(
        ("%fuzz_time", lit_config.params.get("fuzz_time", "60")))

# A sanitizer build (PTXJIT_SANITIZE): the few tests that cannot work under
# a sanitizer say UNSUPPORTED: asan (or ubsan), with the reason.
if config.sanitize_address:
    config.available_features.add("asan")
if config.sanitize_undefined:
    config.available_features.add("ubsan")

# ptxas, from a CUDA toolkit, is optional: with it, tests check that the PTX
# the printer writes is also valid for NVIDIA's assembler.
cuda_bin = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin")
ptxas = lit.util.which("ptxas", os.pathsep.join([cuda_bin, os.environ.get("PATH", "")]))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# nvcc, also optional: CUDA programs built at test time run through
# `ptx-jit exec` with ptx-jit's libcudart.so.13.
nvcc = lit.util.which("nvcc", os.pathsep.join([cuda_bin, os.environ.get("PATH", "")]))
if nvcc:
    config.available_features.add("nvcc")
    # sm_90a first: %nvcc is a prefix of it. The 'a' features (wgmma,
    # tensor-map copies) build for compute_90a alone.
    config.substitutions.append(
        ("%nvcc-sm90a", nvcc + " -cudart shared -gencode "
         "arch=compute_90a,code=compute_90a -O2 -std=c++17"))
    config.substitutions.append(
        ("%nvcc", nvcc + " -cudart shared -arch=sm_80 -O2 -std=c++17"))

# gdb, for the GDB JIT interface test (PTXJIT_GDB).
if lit.util.which("gdb"):
    config.available_features.add("gdb")

# A CUDA installation as ptx-jit looks for one (CUDA_PATH, /usr/local/cuda):
# with it, .cu inputs get CUDA's headers and libdevice; without, ptx-jit's
# own device headers (tests force that with --no-cuda-installation).
llvm_config.with_system_environment(["CUDA_PATH", "PTXJIT_PARALLEL_FRONTEND"])
def is_cuda_installation(path):
    return (os.path.isfile(os.path.join(path, "include", "cuda_runtime.h")) and
            os.path.isfile(os.path.join(path, "nvvm", "libdevice", "libdevice.10.bc")))
if any(is_cuda_installation(p) for p in
       [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"] if p):
    config.available_features.add("cuda-installation")

config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%srcroot", config.ptxjit_src_root))
# The build's shared libraries: the CUDA libraries and the CUDA source
# compiler module.
config.substitutions.append(
    ("%ptxjit_libdir", os.path.join(config.ptxjit_obj_root, "lib")))

# The kernel cache is off unless a test turns it on (test/Cache): results
# must not depend on what earlier runs left in the user's cache.
config.environment["PTXJIT_CACHE_DIR"] = "off"
