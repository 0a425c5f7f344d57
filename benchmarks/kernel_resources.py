"""Register use, stack and spills of the CUDA ensemble kernels, from the compiler.

Compiles the CUDA kernels (kernels/cuda/kernel_part.cuh, all of them as one part) for sm_90 with
the flags CMakeLists.txt gives them, with `-Xptxas -v`, and
reads ptxas's report for every kernel variant (simulate.hpp: Variant, one kernel per model,
table and precision; the names of the enum values are read from the headers): registers per thread, stack frame, spill stores and loads. From the
registers it computes the block size the CUDA backend launches each kernel with (block_threads in
kernel_part.cuh asks cudaOccupancyMaxPotentialBlockSize: the most resident warps, the largest block
among equals, at most kMaxBlockThreads = 256) and the register-limited occupancy at it (and at 256) on an sm_90 multiprocessor (65536 registers, at most 64 resident
warps, registers allocated per warp in units of 256). This needs nvcc, not a GPU; it is a
static figure, not Nsight's achieved occupancy (scripts/gpu_check.sh records that where ncu
exists). Takes several minutes (ptxas). Writes JSON to stdout.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_BLOCK_THREADS = 256  # kMaxBlockThreads of kernels/cuda/kernel_launch.hpp, the kernels' __launch_bounds__


def enum_names(header, enum):
    """The enumerators of `enum class <enum>` in include/skipstone/<header>, indexed by value (None
    where a value is skipped)."""
    text = open(os.path.join(ROOT, "include", "skipstone", header)).read()
    m = re.search(r"enum class " + enum + r"\b[^{;]*\{(.*?)\};", text, re.S)
    if not m:
        raise ValueError(f"no enum class {enum} in {header}")
    names, value = {}, 0
    for item in re.sub(r"//[^\n]*", "", m.group(1)).split(","):
        name, _, given = (part.strip() for part in item.partition("="))
        if not name:
            continue
        value = int(given) if given else value
        if value in names:
            raise ValueError(f"{enum}: {names[value]} and {name} have the same value {value}")
        names[value] = name
        value += 1
    if sorted(names)[0] != 0:
        raise ValueError(f"{enum}: values do not start at 0: {names}")
    return [names.get(k) for k in range(max(names) + 1)]  # None: a value no enumerator has


# The template arguments of Variant (simulate.hpp), read from the headers that define them.
MODELS = enum_names("scan_spec.hpp", "ModelKind")
TABLES = enum_names("scan_spec.hpp", "TableKind")
PRECISIONS = [{"float64": "double", "float32": "float"}[p] for p in enum_names("precision.hpp", "Precision")]
GRAVITY = enum_names("noslip_trajectory.hpp", "GravityKind")  # none: the no-slip kernel of scans with g = 0


def occupancy(registers, block_threads):
    warps_per_block = (block_threads + 31) // 32
    regs_per_warp = ((registers * 32 + 255) // 256) * 256
    blocks = min(65536 // (regs_per_warp * warps_per_block), 32, 64 // warps_per_block)
    return blocks * warps_per_block / 64.0


def launch_block(registers):
    """The block size the runtime's occupancy calculator picks from the registers (no shared
    memory): the most resident warps, the largest block among equals."""
    return max(range(32, MAX_BLOCK_THREADS + 1, 32), key=lambda b: (occupancy(registers, b), b))


def variant_of(name):
    m = re.search(r"Variant.*?ModelKindE(\d+)E.*?TableKindE(\d+)E.*?PrecisionE(\d+)E.*?GravityKindE(\d+)E(?:Lb([01])E)?", name)
    if not m:
        return None
    mk, tk, pk, gk = (int(x) for x in m.groups()[:4])
    return {"model": MODELS[mk], "table": TABLES[tk], "precision": PRECISIONS[pk], "gravity": GRAVITY[gk],
            "lyapunov": m.group(5) == "1"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--log", default="", help="parse this saved ptxas -v output instead of compiling")
    ap.add_argument("--enums", action="store_true", help="print the variant enums read from the headers and exit")
    a = ap.parse_args()
    if a.enums:
        json.dump({"models": MODELS, "tables": TABLES, "precisions": PRECISIONS, "gravity": GRAVITY}, sys.stdout)
        return 0
    nvcc = shutil.which(a.nvcc) or a.nvcc
    cccl = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "include", "cccl")  # CUDA_ROOT/include/cccl
    cmd = [nvcc, "-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr", "-Xcudafe", "--diag_suppress=20012",
           f"-arch={a.arch}", "-Xptxas", "-v", "-I", os.path.join(ROOT, "include"),
           "-I", os.path.join(ROOT, "kernels"), "-I", cccl, "-DSKIPSTONE_KERNEL_PARTS=1", "-DSKIPSTONE_KERNEL_PART=0",
           "-x", "cu", "-c", os.path.join(ROOT, "kernels", "cuda", "kernel_part.cuh"),
           "-o", os.devnull]
    t0 = time.perf_counter()
    if a.log:
        report, seconds = open(a.log).read(), None
    else:
        p = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        if p.returncode != 0:
            print(p.stderr, file=sys.stderr)
            return 1
        report = p.stderr
    kernels, current = [], None
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = {"name": m.group(1), "variant": variant_of(m.group(1))}
            kernels.append(current)
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and "stack_bytes" not in current:
            current["stack_bytes"], current["spill_store_bytes"], current["spill_load_bytes"] = map(int, m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = int(m.group(1))
            current["block_threads"] = launch_block(current["registers"])
            current["occupancy"] = occupancy(current["registers"], current["block_threads"])
            current["occupancy_256"] = occupancy(current["registers"], MAX_BLOCK_THREADS)
    variants = [k for k in kernels if k["variant"] and "registers" in k]
    for k in variants:
        print(f"{k['variant']['model']:>22} {k['variant']['table']:>9} {k['variant']['precision']:>6} "
              f"{k['variant']['gravity']:>4}{' lyapunov' if k['variant']['lyapunov'] else ''}: "
              f"{k['registers']:3d} registers, stack {k.get('stack_bytes', 0)} B, spills "
              f"{k.get('spill_store_bytes', 0)}/{k.get('spill_load_bytes', 0)} B, blocks of {k['block_threads']}, "
              f"occupancy {100 * k['occupancy']:.1f}% ({100 * k['occupancy_256']:.1f}% in blocks of 256)", file=sys.stderr)
    json.dump({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "arch": a.arch,
               "nvcc": subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1],
               "max_block_threads": MAX_BLOCK_THREADS, "compile_seconds": seconds,
               "kernels": [dict(k["variant"], registers=k["registers"], stack_bytes=k.get("stack_bytes", 0),
                                spill_store_bytes=k.get("spill_store_bytes", 0),
                                spill_load_bytes=k.get("spill_load_bytes", 0), block_threads=k["block_threads"],
                                occupancy=k["occupancy"], occupancy_256=k["occupancy_256"])
                           for k in variants]}, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
