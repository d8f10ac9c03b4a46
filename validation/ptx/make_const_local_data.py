#!/usr/bin/env python3
# Reproduces validation/kernels/suite/const_local.cu's host index table exactly and writes
# data/const_local_idx.bin: kThreads = 64*256 int32 words, s = s*1664525 + 1013904223 (mod 2^32) from
# s = 12345, word i = (int)(s >> 8) (little endian).
import os
import struct

K_THREADS = 64 * 256
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "data"), exist_ok=True)
s = 12345
words = []
for _ in range(K_THREADS):
    s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
    words.append(s >> 8)
with open(os.path.join(here, "data", "const_local_idx.bin"), "wb") as f:
    f.write(struct.pack("<%dI" % K_THREADS, *words))
