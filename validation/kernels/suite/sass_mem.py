import re,sys
MEM = re.compile(r"^(LDG|STG|LDS|STS|LDSM|LDL|STL|LD|ST|ATOM|ATOMS|ATOMG|RED|REDG|LDC|ULDC)(\.|$)")
func=None; ops=[]; out=[]
def flush():
    if func: out.append("%s: %s" % (func, " | ".join(ops) or "(none)"))
for line in open(sys.argv[1]):
    m = re.search(r"Function\s*:\s*(\S+)", line)
    if m: flush(); func, ops = m.group(1), []; continue
    m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
    if not m or func is None: continue
    text = m.group(1).strip(); pred=""
    if text.startswith("@"): pred, text = text.split(None, 1)
    op = text.split()[0]
    if MEM.match(op):
        if "c[0x0]" in text: continue
        ops.append((pred+" " if pred else "") + op)
flush(); print("\n".join(out))
