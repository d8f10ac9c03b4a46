#!/usr/bin/env python3
# make_local_memory_data.py -- writes data/local_memory_sel.bin: the `sel` array of examples/cuda/local_memory.cu
# at its default size (small = 4 MiB: n = 1M ints), as its device_filled<int>(n, 6) makes it
# (example_common.cuh: s = seed; s = s * 1664525 + 1013904223 (mod 2^32); value = (s >> 9) & 1023).
# sel[i] & 31 decides which local address each lane loads, so those bits must be exact. They are bits 9-13
# of the generator's state, whose period is 2^14: the file holds the first 16384 words (64 KB), and
# local_memory.run repeats it to the program's 1M (`buffer sel=4M:@data/local_memory_sel.bin`); the
# words' other bits, which differ from the program's after the first 16384, decide nothing.
import os
import struct

N = 16384
SEED = 6

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(os.path.join(here, "data"), exist_ok=True)
    s = SEED
    vals = []
    for _ in range(N):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        vals.append((s >> 9) & 1023)
    with open(os.path.join(here, "data", "local_memory_sel.bin"), "wb") as f:
        f.write(struct.pack("<%di" % N, *vals))

if __name__ == "__main__":
    main()
