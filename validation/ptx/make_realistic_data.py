#!/usr/bin/env python3
"""Writes data/realistic_*.bin: the inputs of validation/kernels/suite/realistic.cu whose values decide
addresses or banks, reproduced exactly from its host code (32-bit little-endian words):

  realistic_hist.bin    r_histogram256_shared_atomics's 64*256*4 words (LCG from 99, v = s ^ (s >> 13))
  realistic_rowptr.bin  suite_common.cuh spmv_matrix(16384): rowptr (16385 ints)
  realistic_col.bin     its column indices (nnz ints)

The CSR values (val) are arithmetic only; realistic.run gives them a zero buffer of nnz*4 bytes (printed here).
"""
import os
import struct

M = 0xFFFFFFFF
HERE = os.path.dirname(os.path.abspath(__file__))


def lcg(s):
    return (s * 1664525 + 1013904223) & M


def histogram_words(n=64 * 256 * 4):
    out, s = [], 99
    for _ in range(n):
        s = lcg(s)
        out.append(s ^ (s >> 13))
    return out


def spmv_matrix(rows=16384):
    rowptr, col = [0] * (rows + 1), []
    s = 7
    for r in range(rows):
        rowptr[r] = len(col)
        s = lcg(s)
        nnz = 1 + ((s >> 10) % 16)
        for _ in range(nnz):
            s = lcg(s)
            c = r - 512 + ((s >> 8) % 1024)
            c = c + rows if c < 0 else (c - rows if c >= rows else c)
            col.append(c)
    rowptr[rows] = len(col)
    return rowptr, col


def write(name, words, fmt):
    path = os.path.join(HERE, "data", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(words), fmt), *words))
    print("%s: %d words" % (path, len(words)))


if __name__ == "__main__":
    write("realistic_hist.bin", histogram_words(), "I")
    rowptr, col = spmv_matrix()
    write("realistic_rowptr.bin", rowptr, "i")
    write("realistic_col.bin", col, "i")
    print("nnz = %d (val buffer: %d bytes)" % (len(col), 4 * len(col)))
