#!/usr/bin/env python3
"""Would a small learned model help the security family? (#13, "optional, only if measured
on held-out sources"). Not part of the test suite: a one-off study, kept so its figures in
docs/detection.md can be reproduced.

    python3 -m venv /tmp/ml && /tmp/ml/bin/pip install scikit-learn
    /tmp/ml/bin/python tests/corpus/model_probe.py

A linear model (logistic regression over TF-IDF character 3-5-grams and word 1-2-grams of
every string of a tool: its name, description, property names and schema values) is trained
on four fifths of the corpus and measured on the fifth it never saw, with the poisoned
sources and the benign servers each split by whole source (5 folds). Two thresholds per fold:
the highest score of a training benign tool (what a shipped model could know), and the
highest score of a held-out benign tool (an oracle: the best the model could do with no false
positive on servers it never saw).
"""

import glob
import json
import os

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_union

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)))
FOLDS = 5


# The strings of a tool the shipped model reads (its default MW_KEYS=all: every JSON key but
# four, every string value).
from learned_train import strings  # noqa: E402


def text(tool):
    out = []
    strings(tool, out)
    return " \n ".join(out)


def load(kind):
    rows = []
    for f in sorted(glob.glob(os.path.join(CORPUS, kind, "*.json"))):
        slug = os.path.basename(f)[:-5]
        for e in json.load(open(f, encoding="utf-8"))["tools"]:
            rows.append((slug, text(e["tool"] if kind == "poisoned" else e)))
    return rows


def main():
    poisoned, benign = load("poisoned"), load("benign")
    psrc = sorted({s for s, _ in poisoned})
    bsrv = sorted({s for s, _ in benign})
    pfold = {s: i % FOLDS for i, s in enumerate(psrc)}
    bfold = {s: i % FOLDS for i, s in enumerate(bsrv)}
    caught = oracle = fps = 0
    for k in range(FOLDS):
        tr_p = [t for s, t in poisoned if pfold[s] != k]
        te_p = [t for s, t in poisoned if pfold[s] == k]
        tr_b = [t for s, t in benign if bfold[s] != k]
        te_b = [t for s, t in benign if bfold[s] == k]
        vec = make_union(
            TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), min_df=2, sublinear_tf=True),
            TfidfVectorizer(analyzer="word", ngram_range=(1, 2), min_df=2, sublinear_tf=True),
        )
        x = vec.fit_transform(tr_p + tr_b)
        y = [1] * len(tr_p) + [0] * len(tr_b)
        m = LogisticRegression(C=10, max_iter=2000, class_weight="balanced").fit(x, y)
        thr = np.max(m.decision_function(vec.transform(tr_b)))
        sp = m.decision_function(vec.transform(te_p))
        sb = m.decision_function(vec.transform(te_b))
        c, f = int(np.sum(sp > thr)), int(np.sum(sb > thr))
        o = int(np.sum(sp > max(thr, np.max(sb))))
        print(f"fold {k}: held-out poisoned {c}/{len(te_p)}, held-out benign failing {f}/{len(te_b)}; "
              f"with no held-out false positive: {o}/{len(te_p)}")
        caught, oracle, fps = caught + c, oracle + o, fps + f
    n = len(poisoned)
    print(f"training-benign threshold: recall {caught}/{n} ({100 * caught / n:.1f} %), "
          f"false positives {fps}/{len(benign)}")
    print(f"oracle threshold (no held-out false positive): recall {oracle}/{n} ({100 * oracle / n:.1f} %)")


if __name__ == "__main__":
    main()
