#!/usr/bin/env python3
"""Writes pdnkit's opening tables (tab-separated, one row a ballot) from the
CSV tables of shared/ballots (their README gives the sources and fixes).
Usage: python3 src/openings/tables/convert.py ../shared/ballots"""
import csv, os, sys

src = sys.argv[1] if len(sys.argv) > 1 else "../shared/ballots"
here = os.path.dirname(os.path.abspath(__file__))
COLS = ["code", "name", "variants", "start_fen", "moves", "fen", "aliases"]
for f in sorted(os.listdir(src)):
    if not f.endswith(".csv"):
        continue
    head, body = [], []
    with open(os.path.join(src, f), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    for l in lines:
        if l.startswith("#"):
            if not l.startswith("# built by"):
                head.append(l)
        else:
            body.append(l)
    rows = list(csv.DictReader(body))
    out = head + ["\t".join(COLS)]
    for r in rows:
        vals = [(r.get(c) or "").replace("\t", " ") for c in COLS]
        out.append("\t".join(vals))
    with open(os.path.join(here, f[:-4] + ".tsv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")
