# probe_common.sh -- sourced by the single-mechanism probes (l1_geometry.sh, write_probe.sh,
# carveout_probe.sh) and tracer_overhead.sh: the GPU's compute capability and a probe's build.

# sm_XX digits of the first GPU ("90"), or $ARCH when set.
gpu_arch() { echo "${ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)}"; }

# build_probe OUTDIR NAME: validation/kernels/NAME/NAME.cu -> OUTDIR/NAME, and OUTDIR/environment.txt
# (GPU, driver, ECC mode, ncu version).
build_probe() {
    local out=$1 name=$2 dir
    dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    nvcc -O3 -arch="sm_$(gpu_arch)" -o "$out/$name" "$dir/kernels/$name/$name.cu" || return 1
    { nvidia-smi --query-gpu=name,driver_version,ecc.mode.current --format=csv,noheader; ncu --version | tail -1; } \
        >"$out/environment.txt" 2>&1
}
