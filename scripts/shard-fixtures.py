#!/usr/bin/env python3
"""
Reference values for src/core/dataset/shard.ts: FNV-1a 32-bit (offset basis 2166136261, prime 16777619, from the
published definition) over the UTF-8 bytes of a group key; its shard of n is hash % n + 1.

    python3 scripts/shard-fixtures.py     # prints key → hash and shards of 2, 3, 8; shard.test.ts holds these values
"""


def fnv1a32(key: str) -> int:
    h = 2166136261
    for b in key.encode('utf-8'):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def shard_of(key: str, n: int) -> int:
    return fnv1a32(key) % n + 1


if __name__ == '__main__':
    for k in ['', 'a', 'foobar', '0', '17', 'What is 2+2?', '日本語 🎉', 'p-00abc']:
        print(repr(k), fnv1a32(k), [shard_of(k, n) for n in (2, 3, 8)])
