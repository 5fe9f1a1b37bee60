#!/usr/bin/env python3
"""
Reference values for src/core/dataset/groupLabels.ts `promptHash`: cyrb53 (bryc's public-domain hash) written from
its published definition over UTF-16 code units, with 32-bit multiplication done by masking.

    python3 scripts/group-label-fixtures.py     # prints text → hash; groupLabels.test.ts holds these values
"""


def imul(a: int, b: int) -> int:
    return (a * b) & 0xFFFFFFFF


def cyrb53(text: str) -> str:
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    units = text.encode('utf-16-le')
    for i in range(0, len(units), 2):
        ch = units[i] | (units[i + 1] << 8)
        h1 = imul(h1 ^ ch, 2654435761)
        h2 = imul(h2 ^ ch, 1597334677)
    h1 = imul(h1 ^ (h1 >> 16), 2246822507)
    h1 ^= imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = imul(h2 ^ (h2 >> 16), 2246822507)
    h2 ^= imul(h1 ^ (h1 >> 13), 3266489909)
    return format(4294967296 * (2097151 & h2) + h1, '014x')


if __name__ == '__main__':
    for t in ['', 'a', 'What is 2+2?', '日本語 🎉']:
        print(repr(t), cyrb53(t))
