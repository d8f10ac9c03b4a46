#!/usr/bin/env python3
"""Writes wgmma_ops.cuh: the inline-asm wrappers of wgmma.mma_async that wgmma_probe.cu uses, one per instruction
form and N (their operand lists run to 64 registers, too long to write by hand).  Run: python3 make_wgmma_ops.py"""

FORMS = [
    # name, PTX types, D registers' C type and constraint, N values, A from registers?, trans operands?, scale-a/b?
    ("f16_f32", "f32.f16.f16", "float", "f", [16, 64, 128], False, True, True),
    ("f16_f32_rega", "f32.f16.f16", "float", "f", [16], True, True, True),
    ("bf16_f32", "f32.bf16.bf16", "float", "f", [16], False, True, True),
    ("f16_f16", "f16.f16.f16", "unsigned", "r", [16], False, True, True),
    ("tf32_f32", "f32.tf32.tf32", "float", "f", [16], False, False, True),
    ("e4m3_e5m2_f32", "f32.e4m3.e5m2", "float", "f", [16], False, False, True),
    ("s8_s8_s32", "s32.s8.s8", "int", "r", [16], False, False, False),
    ("u8_s8_s32_sat", "satfinite.s32.u8.s8", "int", "r", [16], False, False, False),
]


def k_of(types):
    return 8 if "tf32" in types else 32 if any(t in types for t in ("e4m3", "s8", "u8")) else 16


def form(name, types, ctype, con, n, rega, trans, scale):
    dregs = n // 4 if types.startswith("f16.") else n // 2
    k = k_of(types)
    d = ", ".join(f"%{i}" for i in range(dregs))
    i = dregs
    if rega:
        a = "{" + ", ".join(f"%{j}" for j in range(i, i + 4)) + "}"
        i += 4
    else:
        a = f"%{i}"
        i += 1
    b = f"%{i}"
    sd = i + 1
    rest = ""
    if scale:
        rest += f", %{sd + 1}, %{sd + 2}"
    if trans:
        rest += (f", %{sd + 3}, %{sd + 4}" if not rega else f", %{sd + 3}")
    outs = ", ".join(f'"+{con}"(d[{j}])' for j in range(dregs))
    ins = []
    if rega:
        ins += [f'"r"(a[{j}])' for j in range(4)]
    else:
        ins.append('"l"(da)')
    ins.append('"l"(db)')
    ins.append('"r"(scale_d)')
    if scale:
        ins += ['"n"(SA)', '"n"(SB)']
    if trans:
        ins += (['"n"(TA)', '"n"(TB)'] if not rega else ['"n"(TB)'])
    tparams = []
    if scale:
        tparams += ["int SA", "int SB"]
    if trans:
        tparams += ["int TA", "int TB"] if not rega else ["int TB"]
    tmpl = f"template <{', '.join(tparams)}>\n" if tparams else ""
    aparam = "const unsigned (&a)[4]" if rega else "unsigned long long da"
    return (f"{tmpl}__device__ __forceinline__ void wgmma_{name}_n{n}({ctype} (&d)[{dregs}], {aparam}, unsigned long long db, int scale_d) {{\n"
            f"  asm volatile(\n"
            f"      \"{{\\n .reg .pred p;\\n setp.ne.b32 p, %{sd}, 0;\\n\"\n"
            f"      \"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{types} {{{d}}}, {a}, {b}, p{rest};\\n}}\\n\"\n"
            f"      : {outs}\n"
            f"      : {', '.join(ins)});\n"
            f"}}\n")


def main():
    out = ["// wgmma_ops.cuh -- written by make_wgmma_ops.py (do not edit): wgmma.mma_async wrappers for wgmma_probe.cu.",
           "// wgmma_<A/B types>_<D type>_n<N>(d, a-desc or A registers, b-desc, scale_d); template arguments: imm-scale-a/b",
           "// (1 or -1) and imm-trans-a/b (0: K-major, 1: M/N-major) where the form has them.",
           "#pragma once", ""]
    for name, types, ctype, con, ns, rega, trans, scale in FORMS:
        for n in ns:
            out.append(form(name, types, ctype, con, n, rega, trans, scale))
    open("wgmma_ops.cuh", "w").write("\n".join(out))


if __name__ == "__main__":
    main()
