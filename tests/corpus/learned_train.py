#!/usr/bin/env python3
"""Trains the security family's learned signal (#13's optional offline model) and writes it
into the binary's data: `src/checks/security/learned.bin` (+ `learned_parity.json`, the
scores the Rust scorer must reproduce). Not part of the test suite; rerun after the corpus
changes and commit both files.

    python3 -m venv /tmp/ml && /tmp/ml/bin/pip install scikit-learn
    /tmp/ml/bin/python tests/corpus/learned_train.py          # train on the whole corpus
    /tmp/ml/bin/python tests/corpus/learned_train.py --cv     # leave-sources-out figures only
    MW_MISSES=misses.jsonl ... --cv    # also: how many of the attacks the rules miss it catches
                                       # (MCPWARD_CORPUS_DUMP=misses.jsonl cargo test --test detection_corpus)

The model: logistic regression over hashed TF-IDF features of every string of a tool (its
name, description, property names and schema values; JSON keys `type`, `$schema`,
`additionalProperties` and `format` left out): word unigrams and bigrams, and character
4-grams of each word padded with a space, two families each L2-normalised (MW_GRAMS,
MW_BITS and MW_KEYS try other feature sets, MW_C another regularisation; the header of learned.bin records them). Words are runs
of ASCII letters and digits or of non-ASCII non-space characters, lower-cased. A feature is
hashed with 32-bit FNV-1a over its UTF-8 text (`w:word`, `b:word word`, `c:gram`) into 2^BITS
buckets; a bucket seen in fewer than two training tools has no weight. Weights are stored as
i8 and IDF as u8, each with one scale; the threshold is the highest score of a training
benign tool plus MARGIN, computed with the stored (quantised) numbers; the real tools pinned as
true findings (`REAL_DEFECTS` in tests/detection_corpus.rs) set no threshold, since the rules
fail them and the model speaks only on tools the rules leave unfailed.

Carriers: most published poisoned tools are a toy tool ("Adds two numbers.", "Get the
weather for a city.") with a payload appended, so a model trained on them alone learns that
`add` and `weather` are attacks. Each poisoned tool whose description opens with a plain
sentence (no word of CUES) followed by more text gives a carrier: its name, that sentence,
and its property names without the ones holding a CUES word, trained as benign. The carriers
take no part in the threshold, which is set on the real tools alone.
"""

import glob
import json
import re
import math
import os
import struct
import sys

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "src", "checks", "security")
BITS = int(os.environ.get("MW_BITS", "16"))
DIM = 1 << BITS
KEYS = os.environ.get("MW_KEYS", "all")
GRAMS = tuple(int(n) for n in os.environ.get("MW_GRAMS", "4").split(",") if n)
C = float(os.environ.get("MW_C", "10"))
MARGIN = 1.5
FOLDS = 5
SKIP_KEYS = ("type", "$schema", "additionalProperties", "format")
# MW_KEYS=props: JSON keys are not read (every tool has the same ones) except property names,
# and the values of these keys are JSON Schema vocabulary ("string", "uri", a $schema URL).
VOCAB_KEYS = ("type", "$schema", "format")
CUES = set("""you your must always never before after ignore instead important assistant llm ai
model agent system user first whenever should need please also every do not required mandatory
critical note immediately secret password key token credential credentials ssh env config send
include call invoke""".split())


def strings(v, out, props=False):
    if isinstance(v, dict):
        for k, x in v.items():
            if KEYS == "all":
                if k not in SKIP_KEYS:
                    out.append(k)
                strings(x, out)
                continue
            if props:
                out.append(k)
            elif k in VOCAB_KEYS:
                continue
            strings(x, out, not props and k == "properties")
    elif isinstance(v, list):
        for x in v:
            strings(x, out)
    elif isinstance(v, str):
        out.append(v)


def fnv(s):
    h = 0x811C9DC5
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def tokens(s):
    out, cur = [], []
    for c in s.lower():
        if (c.isascii() and c.isalnum()) or (not c.isascii() and not c.isspace()):
            cur.append(c)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def raw(tool):
    ss = []
    strings(tool, ss)
    chars, words = {}, {}
    for s in ss:
        toks = tokens(s)
        for i, t in enumerate(toks):
            for f in ["w:" + t] + (["b:" + t + " " + toks[i + 1]] if i + 1 < len(toks) else []):
                b = fnv(f) & (DIM - 1)
                words[b] = words.get(b, 0) + 1
            p = " " + t + " "
            for n in GRAMS:
                for j in range(len(p) - n + 1):
                    b = fnv("c:" + p[j:j + n]) & (DIM - 1)
                    chars[b] = chars.get(b, 0) + 1
    return chars, words


def carrier(tool):
    d = tool.get("description")
    if not isinstance(d, str):
        return None
    m = re.match(r"\s*([^\n.!?]{3,200}[.!?]?)", d)
    if not m or not d[m.end():].strip():
        return None
    first = m.group(1).strip()
    if any(t in CUES for t in tokens(first)):
        return None
    props = (tool.get("inputSchema") or {}).get("properties") or {}
    plain = {k: {"type": "string"} for k in props
             if not any(t in CUES for t in tokens(k.replace("_", " ")))}
    return {"name": tool.get("name", ""), "description": first,
            "inputSchema": {"type": "object", "properties": plain}}


def idf_of(raws):
    n = len(raws)
    df = np.zeros(DIM)
    for c, w in raws:
        for b in set(c) | set(w):
            df[b] += 1
    return np.where(df >= 2, np.log((1 + n) / (1 + df)) + 1, 0.0)


def vector(r, idf):
    out = {}
    for fam in r:
        vals = {b: (1 + math.log(k)) * idf[b] for b, k in fam.items() if idf[b] > 0}
        norm = math.sqrt(sum(v * v for v in vals.values()))
        for b, v in vals.items():
            out[b] = out.get(b, 0.0) + v / norm
    return out


def matrix(raws, idf):
    rows, cols, data = [], [], []
    for i, r in enumerate(raws):
        for b, v in vector(r, idf).items():
            rows.append(i)
            cols.append(b)
            data.append(v)
    return csr_matrix((data, (rows, cols)), shape=(len(raws), DIM))


SERVER_OF = {}


def load(kind):
    rows = []
    for f in sorted(glob.glob(os.path.join(HERE, kind, "*.json"))):
        slug = os.path.basename(f)[:-5]
        data = json.load(open(f, encoding="utf-8"))
        SERVER_OF[slug] = (data.get("source") or {}).get("server") or ""
        for e in data["tools"]:
            rows.append((slug, e["tool"] if kind == "poisoned" else e))
    return rows


def true_findings():
    """The real tools the rules fail by design (`REAL_DEFECTS` in tests/detection_corpus.rs,
    each judged a true finding): the model speaks only on tools the rules leave unfailed, so
    these set no threshold."""
    src = open(os.path.join(os.path.dirname(HERE), "detection_corpus.rs"), encoding="utf-8").read()
    block = src[src.index("const REAL_DEFECTS"):]
    block = block[:block.index("];")]
    found = {(a, b) for a, b in re.findall(r'"([^"]+?): ([^:"]+): security/', block)}
    assert found, "REAL_DEFECTS not found in tests/detection_corpus.rs"
    return found


def unjudged(benign):
    """Which benign rows set the threshold: all but the pinned true findings."""
    judged = true_findings()
    return np.array([(SERVER_OF.get(s, ""), t.get("name")) not in judged for s, t in benign])


def fit(rp, rb, rc, keep=None):
    """Poisoned, real benign and carrier features; the threshold is set on the real ones
    (those `keep` marks, when given)."""
    idf = idf_of(rp + rb + rc)
    x = matrix(rp + rb + rc, idf)
    y = np.r_[np.ones(len(rp)), np.zeros(len(rb) + len(rc))]
    m = LogisticRegression(C=C, max_iter=5000, class_weight="balanced").fit(x, y)
    w = m.coef_[0]
    sw = float(np.max(np.abs(w))) / 127.0
    si = float(np.max(idf)) / 255.0
    wq = np.clip(np.round(w / sw), -127, 127).astype(np.int8)
    iq = np.clip(np.round(idf / si), 0, 255).astype(np.uint8)
    model = {"bias": float(m.intercept_[0]), "sw": sw, "si": si, "wq": wq, "iq": iq}
    thr_rb = rb if keep is None else [r for r, k in zip(rb, keep) if k]
    model["thr"] = float(np.max(score_all(model, thr_rb))) + MARGIN
    return model


def score_all(model, raws):
    idf = model["iq"].astype(np.float64) * model["si"]
    w = model["wq"].astype(np.float64) * model["sw"]
    return np.array([model["bias"] + sum(w[b] * v for b, v in vector(r, idf).items()) for r in raws])


def cv(poisoned, benign, rp, rb, carriers):
    psrc = sorted({s for s, _ in poisoned})
    bsrv = sorted({s for s, _ in benign})
    pf = np.array([psrc.index(s) % FOLDS for s, _ in poisoned])
    bf = np.array([bsrv.index(s) % FOLDS for s, _ in benign])
    caught = fps = 0
    # MW_MISSES=<file>: the poisoned tools the rules miss (detection_corpus's
    # MCPWARD_CORPUS_DUMP lines of kind "miss"); the figure that counts is how many of them
    # the held-out model catches.
    misses = set()
    if os.environ.get("MW_MISSES"):
        for line in open(os.environ["MW_MISSES"], encoding="utf-8"):
            e = json.loads(line)
            if e.get("kind") == "miss":
                misses.add(json.dumps(e["tool"], sort_keys=True))
    is_miss = np.array([json.dumps(t, sort_keys=True) in misses for _, t in poisoned])
    rescued = 0
    keep = unjudged(benign)
    for k in range(FOLDS):
        rc = [lt_raw for s, lt_raw in carriers if psrc.index(s) % FOLDS != k]
        m = fit([r for r, f in zip(rp, pf) if f != k], [r for r, f in zip(rb, bf) if f != k], rc,
                keep[bf != k])
        sp = score_all(m, [r for r, f in zip(rp, pf) if f == k])
        # A held-out true finding is failed by the rules: the model's word on it is not heard.
        sb = score_all(m, [r for r, f, j in zip(rb, bf, keep) if f == k and j])
        c, f = int((sp > m["thr"]).sum()), int((sb > m["thr"]).sum())
        rescued += int(((sp > m["thr"]) & is_miss[pf == k]).sum())
        print(f"fold {k}: held-out poisoned {c}/{len(sp)}, held-out benign failing {f}/{len(sb)}", flush=True)
        caught, fps = caught + c, fps + f
    print(f"leave-sources-out: recall {caught}/{len(rp)} ({100 * caught / len(rp):.1f} %), "
          f"false positives {fps}/{len(rb)} ({100 * fps / len(rb):.2f} %)")
    if misses:
        print(f"of the {int(is_miss.sum())} the rules miss, held out: {rescued}")


def main():
    poisoned, benign = load("poisoned"), load("benign")
    rp = [raw(t) for _, t in poisoned]
    rb = [raw(t) for _, t in benign]
    carriers = [(s, raw(c)) for s, c in ((s, carrier(t)) for s, t in poisoned) if c]
    if "--cv" in sys.argv:
        cv(poisoned, benign, rp, rb, carriers)
        return
    m = fit(rp, rb, [r for _, r in carriers], unjudged(benign))
    with open(os.path.join(OUT, "learned.bin"), "wb") as f:
        f.write(b"MWLM")
        f.write(struct.pack("<BBBB", 2, BITS, sum(1 << n for n in GRAMS), 0 if KEYS == "all" else 1))
        f.write(struct.pack("<dddd", m["bias"], m["sw"], m["si"], m["thr"]))
        f.write(m["wq"].tobytes())
        f.write(m["iq"].tobytes())
    # Parity: every 150th poisoned and every 900th benign tool, with the scores Python gives.
    picks = [t for _, t in poisoned[::150]] + [t for _, t in benign[::900]]
    scores = score_all(m, [raw(t) for t in picks])
    parity = [{"score": round(float(s), 9), "tool": t} for s, t in zip(scores, picks)]
    with open(os.path.join(OUT, "learned_parity.json"), "w", encoding="utf-8") as f:
        json.dump(parity, f, ensure_ascii=False, indent=1)
        f.write("\n")
    sp = score_all(m, rp)
    print(f"{len(carriers)} carriers; threshold {m['thr']:.4f}; poisoned over it {(sp > m['thr']).sum()}/{len(rp)}, "
          f"benign 0/{len(rb)} by construction")


if __name__ == "__main__":
    main()
