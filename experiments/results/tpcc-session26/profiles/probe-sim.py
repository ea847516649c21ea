#!/usr/bin/env python3
# Probes of an open-addressing index (capacity 2^18, linear probing) for 100,000 TPC-C-like item keys
# [0x80, id>>16, id>>8, id]: Arrays.hashCode (spread by the golden-ratio multiply) against FNV-1a with
# MurmurHash3's finaliser. Prints (longest probe, mean probe). The committed index uses the store's
# key hash instead of FNV; its longest probe for these keys is asserted in GlobalTablePointReadsMatchTheTreeTest.
def s32(x):
    x &= 0xffffffff; return x - (1 << 32) if x >= 1 << 31 else x
def ah(b):
    h = 1
    for x in b: h = s32(31 * h + (x if x < 128 else x - 256))
    return h
def probe(hf):
    cap = 1 << 18; mask = cap - 1; occ = [False] * cap; L = 0; tot = 0
    for i in range(1, 100001):
        k = [0x80, (i >> 16) & 255, (i >> 8) & 255, i & 255]
        j = hf(k) & mask; p = 1
        while occ[j]: j = (j + 1) & mask; p += 1
        occ[j] = True; L = max(L, p); tot += p
    return L, tot / 100000
def old(k):
    h = s32(ah(k) * 0x9E3779B9) & 0xffffffff; return h ^ (h >> 16)
def new(k):
    h = 0x811C9DC5
    for b in k: h = ((h ^ b) * 0x01000193) & 0xffffffff
    h ^= h >> 16; h = (h * 0x85EBCA6B) & 0xffffffff; h ^= h >> 13; h = (h * 0xC2B2AE35) & 0xffffffff; return h ^ (h >> 16)
print('Arrays.hashCode', probe(old)); print('fnv+fmix', probe(new))
