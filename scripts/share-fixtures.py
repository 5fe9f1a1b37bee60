"""Share-link fixtures written with Python's zlib, independently of the TypeScript codec.

Frame (src/core/session/shareCodec.ts):
  b"RS" + version byte + raw-deflate(u32 LE json length + JSON UTF-8 + data bytes) + CRC-32 (u32 LE) of all before,
  then base64url without padding.

Writes src/core/session/fixtures/share-links.json (also used by the browser tests in e2e/session.spec.ts):
  v1_demo     a link made by schema v1 (TypeScript code only), on the demo data, rollout 5 open
  v2_inline   a v2 link carrying a 3-row JSONL file inline
  v3_newer    a well-formed link from a future schema v3
Run: python3 scripts/share-fixtures.py
"""
import base64
import hashlib
import json
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src/core/session/fixtures/share-links.json"


def frame(obj, data=b"", version=None):
    body_json = json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    plain = struct.pack("<I", len(body_json)) + body_json + data
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = c.compress(plain) + c.flush()
    head = b"RS" + bytes([version if version is not None else obj["v"]]) + body
    return base64.urlsafe_b64encode(head + struct.pack("<I", zlib.crc32(head))).decode().rstrip("=")


V1_CODE = """// v1 link: a length-penalised answer check
export default function reward(t, ctx) {
  const ok = ctx.numbersEqual(ctx.numberAfter(t.completion, 'A:'), t.groundTruth);
  return (ok ? 1 : 0) - 0.0005 * t.completion.length;
}
"""

v1 = {
    "v": 1,
    "code": V1_CODE,
    "settings": {"tokenizer": "gpt2", "timeLimitMs": 2000, "preset": "verl", "diagTab": "collapse", "lengthUnit": "chars"},
    "data": {"kind": "demo"},
    "row": 5,
}

ROWS = [
    {"prompt": "2+2?", "completion": "A: 4", "ground_truth": "4"},
    {"prompt": "2+2?", "completion": "A: 5", "ground_truth": "4"},
    {"prompt": "3×3?", "completion": "A: 9 ✓", "ground_truth": "9"},
]
data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS).encode("utf-8")
v2 = {
    "v": 2,
    "name": "tiny inline",
    "editor": {"language": "py", "code": "def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 1.0\n",
               "tokenizer": "qwen3", "timeLimitMs": 1000, "pyFunction": "compute_score", "pyBatchSize": 16},
    "ui": {"diagTab": "length", "lengthUnit": "tokens", "preset": "trl", "labelColumn": None, "selectedRow": 2},
    "data": {"kind": "inline", "name": "tiny.jsonl", "rows": 3, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "import": {}},
    "run": None,
}
v3 = {"v": 3, "anything": "from the future"}

fixtures = {
    "v1_demo": frame(v1),
    "v1_object": v1,
    "v2_inline": frame(v2, data),
    "v2_object": v2,
    "v2_data_sha256": hashlib.sha256(data).hexdigest(),
    "v2_data_utf8": data.decode("utf-8"),
    "v3_newer": frame(v3),
}
OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text(json.dumps(fixtures, indent=2, ensure_ascii=False) + "\n")
print("wrote", OUT)
