#!/usr/bin/env python3
"""Seeds the `warpscope validate` suite directory (validation/h100/suite) from the committed
cache measurements (validation/h100/cache), as one application "cache_kernels":

  environment.txt           gpu, gpu_model, arch, driver, cuda, ncu, date (from cache/device.txt)
  cache_kernels.ncu.csv     cache/ncu_raw.csv as it is (six launches, IDs 0-5)
  cache_kernels.wst         the six cache/<kernel>.wstrace traces in launch order (cache/launches.csv),
                            one native trace, kernel i = ncu launch i

tolerances.toml is written by hand and left alone. validation/run_on_gpu.sh replaces this seed with
real recordings (ncu + `warpscope trace` of the same runs).

usage: seed_suite_from_cache.py [WARPSCOPE_BINARY] [OUT_DIR]
       (defaults: build/release/warpscope, validation/h100/suite; run from the repository root)
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

CACHE = "validation/h100/cache"


def device_facts(path):
    lines = open(path).read().splitlines()
    section = {}
    name = None
    for line in lines:
        if line.startswith("== "):
            name = line[3:]
            section[name] = []
        elif name:
            section[name].append(line)
    smi = section["nvidia-smi --query-gpu"][1].split(", ")
    ncu = re.search(r"Version (\S+)", "\n".join(section["ncu --version"])).group(1)
    cuda = re.search(r"release (\S+), V(\S+)", "\n".join(section["nvcc --version"])).group(2)
    return {"gpu": smi[0], "gpu_model": "h100-sxm", "arch": "sm_90", "driver": smi[1], "cuda": cuda,
            "ncu": ncu, "date": section["date (UTC)"][0]}


def main():
    warpscope = sys.argv[1] if len(sys.argv) > 1 else "build/release/warpscope"
    out = sys.argv[2] if len(sys.argv) > 2 else "validation/h100/suite"
    os.makedirs(out, exist_ok=True)
    env = device_facts(os.path.join(CACHE, "device.txt"))
    with open(os.path.join(out, "environment.txt"), "w") as f:
        f.write("# seeded from validation/h100/cache by validation/tools/seed_suite_from_cache.py\n")
        for k, v in env.items():
            f.write(f"{k}: {v}\n")
    shutil.copyfile(os.path.join(CACHE, "ncu_raw.csv"), os.path.join(out, "cache_kernels.ncu.csv"))

    kernels = [r["kernel"] for r in csv.DictReader(open(os.path.join(CACHE, "launches.csv")))]
    with tempfile.TemporaryDirectory() as tmp:
        merged = os.path.join(tmp, "cache_kernels.txt")
        with open(merged, "w") as m:
            m.write("wstrace 1\n")
            for i, k in enumerate(kernels):
                text = os.path.join(tmp, k + ".txt")
                subprocess.run([warpscope, "convert", os.path.join(CACHE, k + ".wstrace"), text], check=True,
                               stdout=subprocess.DEVNULL)
                for line in open(text):
                    if line.startswith("wstrace "):
                        continue
                    if line.startswith("kernel 0 "):
                        line = f"kernel {i} " + line[len("kernel 0 "):]
                    elif line.startswith("rec k=0 "):
                        line = f"rec k={i} " + line[len("rec k=0 "):]
                    elif line.strip() and not line.startswith("#"):
                        sys.exit(f"{text}: unexpected line {line!r}")
                    m.write(line)
        subprocess.run([warpscope, "convert", merged, os.path.join(out, "cache_kernels.wst")], check=True)


if __name__ == "__main__":
    main()
