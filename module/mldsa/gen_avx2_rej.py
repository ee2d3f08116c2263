#!/usr/bin/env python3
"""Writes mldsa_avx2_rej.inc: for each 8-bit mask m, the indices of its set bits in increasing
order, padded with zeros to eight bytes, as one little-endian 64-bit word (byte i is the lane
that goes to position i). RejNTTPoly's AVX2 block sampler (mldsa_avx2.c) moves the accepted
lanes of eight candidates to the front with it. Run from the repository root:
python3 module/mldsa/gen_avx2_rej.py"""
import pathlib

OUT = pathlib.Path(__file__).resolve().parent / "mldsa_avx2_rej.inc"


def word(mask):
    idx = [i for i in range(8) if mask >> i & 1]
    idx += [0] * (8 - len(idx))
    return sum(v << (8 * i) for i, v in enumerate(idx))


def main():
    lines = ["/* Written by gen_avx2_rej.py: the accepted lanes of each 8-bit mask, in order. */",
             "static const uint64_t k_rej_idx[256] = {"]
    words = [f"0x{word(m):016x}u" for m in range(256)]
    for i in range(0, 256, 4):
        lines.append("    " + ", ".join(words[i:i + 4]) + ",")
    lines.append("};")
    OUT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
