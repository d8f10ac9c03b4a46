#!/usr/bin/env python3
"""Fit an L1 geometry (sets, ways, set-index hash, replacement) to the l1_geometry measurements.

validation/kernels/l1_geometry chases k lines spaced `stride` bytes apart twice; the CSV holds the
L1 hits of the second pass. Every line of one pass is distinct and both passes visit the lines in
the same order, so inside one set the access stream is "n_s distinct lines, twice, same order": the
hits of a set depend only on (policy, n_s, ways). For these chain rows the simulator

  1. hashes the line addresses of each (carveout, stride) chain once per (sets, hash),
  2. counts the lines per set for every measured k (prefix counts),
  3. sums f(policy, n_s, W) over the sets, with f memoised (random policies: the mean over
     --trials seeded runs),

and scores a candidate as sum |model hits - hw hits| over the rows. The ways of each carveout are
fitted separately (the usable capacity per carveout is a result, not an input).

Sequence rows (mode=seq, kernel chase_seq: fills, re-touches, reversed or permuted passes) are
replayed access by access (parse_seq reproduces the kernel's parser and shuffle) for the best
candidates, after the fit on the chain rows.

Index functions of the line address a (2^b sets): modulo; xorfold (XOR of b-bit fields = warpscope's
`xor`); xorfold_wN (N-bit fields, low b bits); xor2_sN (a ^ a>>N); xor3_sN_M (a ^ a>>N ^ a>>M, with
--xor3); ipoly (a(x) mod an irreducible polynomial of degree b over GF(2)); bitsel_oN (bits N..).
Policies: lru, fifo, random, plru (tree, power-of-two ways), nru, mru, randmM (victim uniform among
the M least recently used lines of the set; randm/D: M = ways / D). randm and nru are not simulated
beyond 256 ways.

usage: l1_geometry_fit.py [CSV] [--top N] [--trials T] [--sets 1,2,4,...] [--policies ...]
                          [--hashes ...] [--xor3] [--carveout C] [--show SPEC]
       l1_geometry_fit.py --check SPEC [--max-rel F] [--max-abs N] [--worst N] [CSV ...]
SPEC: 'S=32 hash=xor3_s6_11 policy=randm8 sh32=55 sh64=47 sh132=29 sh164=19 sh196=12 sh228=5'
  ways per row: W<carveout %>=.. first, then sh<shared KB>=.. (the row's shared_mem_config, e.g.
  sh32 for carveouts 0..14 %), then R=<KB> (fixed reserve: ways = (256 KB - shared - R) / (S x 128 B)).
  --show SPEC prints that model row by row (one CSV, default the first run).
  --check SPEC prints its residuals on both runs (default l1_geometry.csv and l1_geometry_b.csv),
  grouped by shared size and row kind (chain128 / chain2^n / chainodd / seq-rev / seq-perm /
  seq-order), and exits 1 if a file's sum |model - hw| exceeds --max-rel (default 0.10) of its hw
  hits or --max-abs, or a row has no ways; 0 otherwise. A few seconds per model.
Default fit (all of the above but --xor3): ~1 minute on one core.
"""
import argparse
import collections
import csv
import functools
import pathlib
import random
import sys

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_CSV = HERE.parent / "h100" / "l1_geometry" / "l1_geometry.csv"
DEFAULT_CSV_B = HERE.parent / "h100" / "l1_geometry" / "l1_geometry_b.csv"
LINE = 128
ADDR_BITS = 28  # line-address bits hashed (byte addresses below 2^35)


# ---------------------------------------------------------------- set-index functions
def h_mod(a, b):
    return a & ((1 << b) - 1)


def h_xorfold(a, b, w=None):
    """XOR of successive w-bit fields of the line address (w = b: the classic fold), low b bits."""
    w = w or b
    if b == 0:
        return 0
    m = (1 << max(w, b)) - 1
    s = 0
    while a:
        s ^= a & m
        a >>= w
    return s & ((1 << b) - 1)


def h_xor2(a, b, sh):
    """Two-term XOR: (a ^ (a >> sh)) low b bits (index bits XORed with one higher field)."""
    return (a ^ (a >> sh)) & ((1 << b) - 1)


def h_bitsel(a, b, o):
    """Plain bit selection starting at line-address bit o (o = 0 is modulo)."""
    return (a >> o) & ((1 << b) - 1)


# irreducible polynomials over GF(2), degree 1..9 (x^d + ... + 1), for I-Poly indexing
# (Rau 1991; GPGPU-Sim's 'P' set index function is of this kind).
IRRED = {1: 0b11, 2: 0b111, 3: 0b1011, 4: 0b10011, 5: 0b100101, 6: 0b1000011, 7: 0b10000011,
         8: 0b100011101, 9: 0b1000010001}


def h_ipoly(a, b):
    if b == 0:
        return 0
    p = IRRED[b]
    a &= (1 << ADDR_BITS) - 1
    for bit in range(ADDR_BITS - 1, b - 1, -1):
        if a >> bit & 1:
            a ^= p << (bit - b)
    return a


def hash_family(b):
    """(name, function of the line address) for 2^b sets."""
    out = [("modulo", lambda a: h_mod(a, b))]
    if b == 0:
        return out
    out.append(("xorfold", lambda a: h_xorfold(a, b)))
    for w in range(1, 13):
        if w != b:
            out.append((f"xorfold_w{w}", lambda a, w=w: h_xorfold(a, b, w)))
    for sh in range(1, 15):
        if sh != b:
            out.append((f"xor2_s{sh}", lambda a, sh=sh: h_xor2(a, b, sh)))
    if XOR3:
        for s1 in range(1, 15):
            for s2 in range(s1 + 1, 16):
                out.append((f"xor3_s{s1}_{s2}", lambda a, s1=s1, s2=s2: (a ^ (a >> s1) ^ (a >> s2)) & ((1 << b) - 1)))
    for o in (1, 2, 3):
        out.append((f"bitsel_o{o}", lambda a, o=o: h_bitsel(a, b, o)))
    if b in IRRED:
        out.append(("ipoly", lambda a: h_ipoly(a, b)))
    return out


# ---------------------------------------------------------------- replacement: hits of one set
def _sim(policy, n, W, rng):
    """Hits of the second pass over n distinct lines (same order both passes) in one W-way set."""
    if n <= W:
        return n
    if policy in ("lru", "fifo"):
        return 0  # cyclic over n > W lines: everything is evicted before reuse
    ways = [-1] * W
    where = {}

    def fill_and_evict(victim, touch=lambda v: None):
        """Two passes: a hit touches its way; a miss takes a free way, else victim()'s."""
        hits = fill = 0
        for p in range(2):
            for x in range(n):
                if x in where:
                    hits += p
                    touch(where[x])
                    continue
                if fill < W:
                    v = fill
                    fill += 1
                else:
                    v = victim()
                    del where[ways[v]]
                ways[v] = x
                where[x] = v
                touch(v)
        return hits

    if policy == "random":
        return fill_and_evict(lambda: rng.randrange(W))
    if policy == "plru":  # tree pseudo-LRU, W a power of two
        bits = [0] * W  # heap-ordered node bits, 1..W-1; bit 0: go left is "0"
        levels = W.bit_length() - 1

        def touch(v):
            node = 1
            for l in range(levels - 1, -1, -1):
                d = v >> l & 1
                bits[node] = 1 - d  # point away from v
                node = 2 * node + d

        def victim():
            node = 1
            for _ in range(levels):
                node = 2 * node + bits[node]
            return node - W

        return fill_and_evict(victim, touch)
    if policy == "nru":  # one reference bit per way, victim = lowest way with bit clear
        ref = [0] * W

        def nru_victim():
            if all(ref):
                ref[:] = [0] * W
            return ref.index(0)

        def nru_touch(v):
            ref[v] = 1

        return fill_and_evict(nru_victim, nru_touch)
    if policy == "mru":  # evict the most recently used line
        last = [None]

        def mru_touch(v):
            last[0] = v

        return fill_and_evict(lambda: last[0], mru_touch)
    hits = 0
    if policy.startswith("randm"):  # victim uniformly random among the m least recently used lines
        m = int(policy[5:]) if policy[5:].isdigit() else max(1, W // int(policy.split("/")[1]))
        order = []  # least recently used first
        for p in range(2):
            for x in range(n):
                if x in where:
                    hits += p
                    order.remove(x)
                    order.append(x)
                    continue
                if len(order) >= W:
                    del where[order.pop(rng.randrange(min(m, len(order))))]
                order.append(x)
                where[x] = 1
        return hits
    raise ValueError(policy)


HASHES = None  # --hashes: only these index functions
XOR3 = False  # --xor3: add the three-term XOR family (a ^ a>>s1 ^ a>>s2)
POLICIES = ("lru", "fifo", "random", "plru", "nru", "mru", "randm2", "randm4", "randm8", "randm16")
TRIALS = 8


@functools.lru_cache(maxsize=None)
def set_hits(policy, n, W):
    if (policy == "random" or policy.startswith("randm")) and n > W:
        return sum(_sim(policy, n, W, random.Random(1000 * t + n * 7 + W)) for t in range(TRIALS)) / TRIALS
    return _sim(policy, n, W, None)


def policy_ok(policy, W):
    """plru needs a power-of-two W; randm*/nru cost O(W) a step: not simulated beyond 256 ways."""
    if W < 1 or (policy == "plru" and W & (W - 1)):
        return False
    return not ((policy.startswith("randm") or policy == "nru") and W > 256)


# ---------------------------------------------------------------- data and loads
def read_rows(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            rows.append(dict(carveout=int(r["carveout_pct"]), stride=int(r["stride_bytes"]),
                             k=int(r["k_lines"]), hits=float(r["l1_hit_sectors"]),
                             mode=r.get("mode") or "chain", spec=r.get("spec") or "-",
                             shared=int(r.get("shared_mem_config") or 0) // 1024))
    return rows


def chain_rows(rows):
    return [r for r in rows if r["mode"] == "chain"]


# ---------------------------------------------------------------- sequence mode (chase_seq)
def parse_seq(spec):
    """The line numbers of an l1_geometry.cu sequence SEG+SEG... (same parser, same shuffle)."""
    lines = []
    for seg in spec.split("+"):
        perm = seg.startswith("p")
        seg = seg[1:] if perm else seg
        seed, step = 1, 1
        if "@" in seg:
            seg, seed = seg.split("@")
            seed = int(seed)
        if "/" in seg:
            seg, step = seg.split("/")
            step = int(step)
        a, b = map(int, seg.split(".."))
        part = list(range(a, b + 1, step)) if a <= b else list(range(a, b - 1, -step))
        if perm:  # Fisher-Yates with xorshift64*, as l1_geometry.cu
            M = (1 << 64) - 1
            x = 0x9E3779B97F4A7C15 ^ seed
            for i in range(len(part), 1, -1):
                x ^= x >> 12
                x ^= (x << 25) & M
                x ^= x >> 27
                r = (((x * 0x2545F4914F6CDD1D) & M) >> 33) % i
                part[i - 1], part[r] = part[r], part[i - 1]
        lines += part
    return lines


def replay(seq_lines, stride, fn, policy, W, rng):
    """Hits of a whole access sequence (line numbers) in a cache of sets fn(line address) x W ways."""
    sets = {}
    hits = 0
    for x in seq_lines:
        a = (x * stride) // LINE
        st = sets.setdefault(fn(a), {"order": [], "ins": [], "ref": {}})
        order = st["order"]  # recency order, least recent first
        if a in st["ref"]:
            hits += 1
            if policy not in ("fifo", "random"):
                order.remove(a)
                order.append(a)
            st["ref"][a] = 1
            continue
        if len(order) >= W:
            if policy == "lru":
                v = order[0]
            elif policy == "fifo":
                v = st["ins"][0]
            elif policy == "random":
                v = order[rng.randrange(len(order))]
            elif policy.startswith("randm"):
                m = int(policy[5:]) if policy[5:].isdigit() else max(1, W // int(policy.split("/")[1]))
                v = order[rng.randrange(min(m, len(order)))]
            else:
                raise ValueError(f"replay: policy {policy} not supported")
            order.remove(v)
            st["ins"].remove(v)
            del st["ref"][v]
        order.append(a)
        st["ins"].append(a)
        st["ref"][a] = 1
    return hits


def seq_hits(row, fn, policy, W, trials):
    lines = parse_seq(row["spec"])
    if policy in ("lru", "fifo"):
        return replay(lines, row["stride"], fn, policy, W, None)
    return sum(replay(lines, row["stride"], fn, policy, W, random.Random(t)) for t in range(trials)) / trials


def row_loads(rows, fn):
    """For each row, a Counter {lines in a set: number of sets} (sets with 0 lines omitted)."""
    by_chain = collections.defaultdict(list)
    for i, r in enumerate(rows):
        by_chain[(r["carveout"], r["stride"])].append(i)
    out = [None] * len(rows)
    for (c, stride), idx in by_chain.items():
        idx.sort(key=lambda i: rows[i]["k"])
        cnt = collections.Counter()
        done = 0
        for i in idx:
            k = rows[i]["k"]
            for j in range(done, k):
                cnt[fn((j * stride) // LINE)] += 1
            done = k
            out[i] = collections.Counter(cnt.values())
        # rows with the same chain and k share the Counter object: fine, read-only
    return out


def model_hits(loads, policy, W):
    return sum(m * set_hits(policy, n, W) for n, m in loads.items())


def fit(rows, sets_list, policies, top, cap_range):
    results = []
    carveouts = sorted({r["carveout"] for r in rows})
    for S in sets_list:
        b = S.bit_length() - 1
        for hname, fn in hash_family(b):
            if HASHES and hname not in HASHES:
                continue
            loads = row_loads(rows, fn)
            for pol in policies:
                best = {}
                total = 0.0
                for c in carveouts:
                    lo, hi = cap_range[c]
                    cand = []
                    step = max(1, 32 // S)  # capacity grid: 32 lines or one way
                    for W in range(max(1, lo // S), hi // S + 1, step if c == 0 else max(1, 8 // S)):
                        if not policy_ok(pol, W):
                            continue
                        err = sum(abs(model_hits(loads[i], pol, W) - r["hits"])
                                  for i, r in enumerate(rows) if r["carveout"] == c)
                        cand.append((err, W))
                    if not cand:
                        break
                    err, W = min(cand)
                    best[c] = W
                    total += err
                else:
                    results.append((total, S, hname, pol, best))
    results.sort(key=lambda t: t[0])
    return results[:top], results


def show(rows, m, trials):
    """Every row (chain and sequence) of one model: hw, model, difference."""
    pred = evaluate(rows, m, trials)
    tot = 0
    print(f"{'carveout':>8} {'shared':>6} {'stride':>6} {'k':>5} {'hw':>6} {'model':>7} {'diff':>7}  spec")
    for r, p in zip(rows, pred):
        if p is None:
            continue
        tot += abs(p - r["hits"])
        print(f"{r['carveout']:>8} {r['shared']:>6} {r['stride']:>6} {r['k']:>5} {r['hits']:>6.0f} {p:>7.1f}"
              f" {p - r['hits']:>7.1f}  {r['spec']}")
    skipped = sum(p is None for p in pred)
    print(f"sum |diff| = {tot:.0f} over {len(rows) - skipped} rows" + (f" ({skipped} rows without ways skipped)" if skipped else ""))


# ---------------------------------------------------------------- regression check (--check)
L1_SHARED_TOTAL_KB = 256  # H100: L1 + shared memory per SM


def parse_spec(spec):
    """'S=32 hash=xorfold policy=randm8 W0=55 sh32=54 R=8' -> dict. Ways per row: W<carveout %>
    first, then sh<shared KB>=ways (by the row's shared_mem_config), then R=<KB>: a fixed reserve,
    ways = (256 KB - shared - R) / (S x 128 B), rounded down."""
    kv = dict(t.split("=", 1) for t in spec.split())
    m = {"S": int(kv.pop("S")), "hash": kv.pop("hash"), "policy": kv.pop("policy"),
         "W": {}, "sh": {}, "R": None}
    if "R" in kv:
        m["R"] = float(kv.pop("R"))
    for k, v in kv.items():
        if k.startswith("W") and k[1:].isdigit():
            m["W"][int(k[1:])] = int(v)
        elif k.startswith("sh") and k[2:].isdigit():
            m["sh"][int(k[2:])] = int(v)
        else:
            raise SystemExit(f"--check/--show: unknown key {k!r} in {spec!r}")
    return m


def ways_for(m, r):
    if r["carveout"] in m["W"]:
        return m["W"][r["carveout"]]
    if r["shared"] in m["sh"]:
        return m["sh"][r["shared"]]
    if m["R"] is not None and r["shared"]:
        return int((L1_SHARED_TOTAL_KB - r["shared"] - m["R"]) * 1024 // (LINE * m["S"]))
    return None


def hash_fn(S, hname):
    fams = dict(hash_family(S.bit_length() - 1))
    if hname not in fams and hname.startswith("xor3_"):
        s1, s2 = map(int, hname[6:].split("_"))
        return lambda a: (a ^ (a >> s1) ^ (a >> s2)) & (S - 1)
    if hname not in fams:
        raise SystemExit(f"unknown hash {hname} for S={S}; known: {', '.join(sorted(fams))}")
    return fams[hname]


def evaluate(rows, m, trials):
    """Model hits for every row (chain rows through the memoised per-set model, sequence rows replayed).
    Rows whose ways the spec does not give get None."""
    fn = hash_fn(m["S"], m["hash"])
    pol = m["policy"]
    chain = [r for r in rows if r["mode"] == "chain"]
    loads = dict(zip(map(id, chain), row_loads(chain, fn)))
    out = []
    for r in rows:
        W = ways_for(m, r)
        if W is None or not policy_ok(pol, W):
            out.append(None)
        elif r["mode"] == "chain":
            out.append(model_hits(loads[id(r)], pol, W))
        else:
            out.append(seq_hits(r, fn, pol, W, trials))
    return out


def row_kind(r):
    """Residual groups: chain stride 128 / other power-of-two strides / other strides; sequences:
    reverse second pass, permuted orders, fill-re-touch-stream-probe (order)."""
    if r["mode"] == "chain":
        s = r["stride"] // LINE
        return "chain128" if s == 1 else ("chain2^n" if s & (s - 1) == 0 else "chainodd")
    if "p" in r["spec"]:
        return "seq-perm"
    return "seq-rev" if r["spec"].count("+") == 1 else "seq-order"


def check(paths, spec, trials, max_rel, max_abs, verbose):
    m = parse_spec(spec)
    print(f"model: {spec}")
    worst_rel = 0.0
    failed = False
    for path in paths:
        rows = read_rows(path)
        pred = evaluate(rows, m, trials)
        skipped = sum(p is None for p in pred)
        groups = collections.OrderedDict()
        for r, p in zip(rows, pred):
            if p is None:
                continue
            g = groups.setdefault((r["shared"], row_kind(r)), [0, 0.0, 0.0, 0.0])
            g[0] += 1
            g[1] += r["hits"]
            g[2] += abs(p - r["hits"])
            g[3] = max(g[3], abs(p - r["hits"]))
        tot_hw = sum(g[1] for g in groups.values())
        tot_err = sum(g[2] for g in groups.values())
        rel = tot_err / tot_hw if tot_hw else 0.0
        worst_rel = max(worst_rel, rel)
        bad = rel > max_rel or (max_abs is not None and tot_err > max_abs) or skipped
        failed |= bool(bad)
        print(f"{path}: {len(rows) - skipped} rows, sum |model - hw| = {tot_err:.0f} of {tot_hw:.0f} hw hits"
              f" ({100 * rel:.1f} %)" + (f"; {skipped} rows without ways (give W<pct>, sh<KB> or R)" if skipped else "")
              + ("  FAIL" if bad else "  ok"))
        print(f"  {'shared KB':>9} {'rows':>10} {'n':>4} {'hw hits':>8} {'sum|diff|':>9} {'max|diff|':>9}")
        for (sh, kind), (n, hw, err, mx) in sorted(groups.items()):
            print(f"  {sh:>9} {kind:>10} {n:>4} {hw:>8.0f} {err:>9.0f} {mx:>9.0f}")
        if verbose:
            ranked = sorted(((abs(p - r["hits"]), r, p) for r, p in zip(rows, pred) if p is not None),
                            key=lambda t: -t[0])[:verbose]
            for d, r, p in ranked:
                print(f"    c{r['carveout']} sh{r['shared']} stride {r['stride']} k {r['k']} {r['spec'][:40]}:"
                      f" hw {r['hits']:.0f} model {p:.0f}")
    limit = f"{100 * max_rel:.1f} % per file" + (f", {max_abs:.0f} hits" if max_abs is not None else "")
    print(f"worst file: {100 * worst_rel:.1f} % (limit {limit}) -> {'FAIL' if failed else 'PASS'}")
    return 1 if failed else 0


def main():
    global TRIALS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="*", help="default: l1_geometry.csv (fit) / both runs (--check)")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--sets", default="1,2,4,8,16,32,64,128,256,512")
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--cap0", default="1280,2048", help="usable-line range searched for carveout 0")
    ap.add_argument("--cap100", default="128,288", help="usable-line range searched for carveout 100")
    ap.add_argument("--carveout", type=int, help="fit the rows of this carveout only")
    ap.add_argument("--hashes", help="comma-separated index functions to try (default: all)")
    ap.add_argument("--xor3", action="store_true", help="also try (a ^ a>>s1 ^ a>>s2) indexing")
    ap.add_argument("--show", help="print one model row by row (same SPEC as --check)")
    ap.add_argument("--check", metavar="SPEC", help="regression check of one model on the CSVs (default: "
                    "both runs): 'S=32 hash=xorfold policy=randm8 sh32=54 sh228=5 R=8'; exit 1 if a file's "
                    "sum |model - hw| exceeds --max-rel of its hw hits (or --max-abs)")
    ap.add_argument("--max-rel", type=float, default=0.10, help="--check: limit, fraction of hw hits per file")
    ap.add_argument("--max-abs", type=float, help="--check: limit on sum |model - hw| per file")
    ap.add_argument("--worst", type=int, default=0, help="--check: list the N worst rows per file")
    ap.add_argument("--best-per", choices=["none", "policy", "sets", "hash"], default="policy",
                    help="also print the best candidate for each policy / set count / hash")
    a = ap.parse_args()
    TRIALS = a.trials
    global XOR3, HASHES
    XOR3 = a.xor3
    HASHES = set(a.hashes.split(",")) if a.hashes else None
    if a.check:
        paths = a.csv or [str(DEFAULT_CSV), str(DEFAULT_CSV_B)]
        return check(paths, a.check, a.trials, a.max_rel, a.max_abs, a.worst)
    if len(a.csv) > 1:
        ap.error("fit / --show take one CSV")
    allrows = read_rows(a.csv[0] if a.csv else str(DEFAULT_CSV))
    if a.carveout is not None:
        allrows = [r for r in allrows if r["carveout"] == a.carveout]
    rows = chain_rows(allrows)
    seqrows = [r for r in allrows if r["mode"] == "seq"]
    if a.show:
        show(allrows, parse_spec(a.show), a.trials)
        return
    cap = {0: tuple(map(int, a.cap0.split(","))), 100: tuple(map(int, a.cap100.split(",")))}
    for c in {r["carveout"] for r in rows} - set(cap):
        cap[c] = (1, 2048)
    top, allres = fit(rows, [int(s) for s in a.sets.split(",")], a.policies.split(","), a.top, cap)
    print(f"{len(rows)} rows; {len(allres)} candidates; score = sum |model - hw| hits "
          f"(total hw hits {sum(r['hits'] for r in rows):.0f})")
    for total, S, h, p, Ws in top:
        print(f"{total:9.0f}  S={S} hash={h} policy={p} " + " ".join(
            f"W{c}={W} (usable {S * W} lines = {S * W * LINE // 1024} KB)" for c, W in sorted(Ws.items())))
    if seqrows:
        print(f"sequence-mode rows ({len(seqrows)}), replayed for the {a.top} best candidates "
              "(carveouts without a fitted W are skipped):")
        for total, S, h, p, Ws in top:
            if not p in ("lru", "fifo", "random") and not p.startswith("randm"):
                continue
            fn = dict(hash_family(S.bit_length() - 1))[h]
            err = sum(abs(seq_hits(r, fn, p, Ws[r["carveout"]], TRIALS) - r["hits"])
                      for r in seqrows if r["carveout"] in Ws)
            print(f"{total:9.0f} + seq {err:9.0f}  S={S} hash={h} policy={p}")
    if a.best_per != "none":
        key = {"policy": 3, "sets": 1, "hash": 2}[a.best_per]
        seen = {}
        for t in allres:
            seen.setdefault(t[key], t)
        print(f"best per {a.best_per}:")
        for t in sorted(seen.values(), key=lambda t: t[0]):
            total, S, h, p, Ws = t
            print(f"{total:9.0f}  S={S} hash={h} policy={p} " + " ".join(f"W{c}={W}" for c, W in sorted(Ws.items())))


if __name__ == "__main__":
    sys.exit(main())
