#!/usr/bin/env python3
"""Fits the L2 home-partition hash to partition_probe's `homes` latency maps.

Usage: home_bits_fit.py homes_a0b2.txt.gz [more maps...]
Each map has "home LINE CYCLES" lines: the latency of loading line LINE from an SM of the other
partition after SM A read every line. Loads above the threshold (the fabric) are lines homed in A's
partition. Prints, per map, the line-index bits whose XOR predicts which lines are homed in A's partition,
and how many lines the XOR of those bits mispredicts (0: the hash is linear in those bits).
Line bit k is address bit k + 7 (128 B lines; the probe's buffer is 2 MB aligned)."""
import gzip
import sys

THRESHOLD = 375  # cycles: near hits measure 250-300, fabric loads 400-450


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [1 if int(l.split()[2]) >= THRESHOLD else 0 for l in f if l.startswith("home ")]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        far = load(path)
        n = len(far)
        # Bit k is in the hash when flipping it flips the home of most lines (robust to a few
        # outliers, e.g. a first load that also misses the TLB).
        bits = [k for k in range(n.bit_length() - 1) if sum(far[i] != far[i ^ (1 << k)] for i in range(n)) > n // 2]
        mask = sum(1 << k for k in bits)
        parity = [bin(i & mask).count("1") & 1 for i in range(n)]
        flip = 1 if sum(p != f for p, f in zip(parity, far)) > n // 2 else 0
        wrong = sum(1 for i in range(n) if (parity[i] ^ flip) != far[i])
        print(f"{path}: {n} lines, {sum(far)} over the fabric; line bits {bits} "
              f"(address bits {[b + 7 for b in bits]}); mispredicted {wrong}")


if __name__ == "__main__":
    main()
