#!/usr/bin/env python3
"""The B offsets validation/h100/writeback_map's pairs run used (seeded, so the run can be
repeated): every 20th a baseline (-1: set A alone); otherwise a random line with address bit 7 set
(not in A) whose home is the reading SM's partition, 200 inside A's 8 MB and 40 in the 8 MB after it."""
import random

def near(o):
    return ((o >> 12) ^ (o >> 13) ^ (o >> 16) ^ (o >> 17) ^ (o >> 19)) & 1 == 0

rng = random.Random(10)
out = []
while len(out) < 240:
    region = 0 if len(out) < 200 else 1
    line = rng.randrange(region * 65536, (region + 1) * 65536) | 1
    if near(line << 7):
        out.append(line << 7)
for i in range(0, len(out) + 13, 20):
    out.insert(i, -1)
print(" ".join(str(o) for o in out))
