#!/usr/bin/env python3
# Usage: coverage.py LABELS.tsv DIR (DIR written by accuracy/run.sh with
# ACCURACY_BIN=shadow ACCURACY_NOSCORE=1).
# Aggregate only: for each distinct labeled span with a flag row, which models have a site in it.
import json, sys, os, glob, collections
labels, d = sys.argv[1], sys.argv[2]
spans = collections.defaultdict(lambda: collections.defaultdict(set))
for ln in open(labels):
    f = ln.rstrip('\n').split('\t')
    if f[0] == 'module' or len(f) < 7: continue
    slug = (f[0] + '@' + f[1]).replace('/', '_').replace('@', '_')
    spans[slug][(f[2], int(f[3]), int(f[4]))].add((f[5], f[6]))
have = collections.defaultdict(set)
loaded = set()
for js in glob.glob(d + '/*.json'):
    slug = os.path.basename(js)[:-5]
    root = open(js[:-5] + '.root').read().strip()
    try: data = json.load(open(js))
    except Exception: continue
    loaded.add(slug)
    for pkg in data.values():
        for an, ds in pkg.items():
            if not isinstance(ds, list): continue
            for x in ds:
                posn, msg = x['posn'], x['message']
                path, line = posn.rsplit(':', 2)[0], int(posn.rsplit(':', 2)[1])
                rel = os.path.relpath(path, root)
                who = 'both' if msg.startswith('both') else 'v2' if msg.startswith('v2') else 'v3' if msg.startswith('v3') else None
                if not who: continue
                for (p, lo, hi) in spans.get(slug, {}):
                    if p == rel and lo <= line <= hi:
                        have[(slug, p, lo, hi)].add(who)
cnt = collections.Counter(); rows = collections.Counter()
for slug, sp in spans.items():
    for k, rs in sp.items():
        nflag = sum(1 for a, l in rs if l == 'flag')
        if not nflag: continue
        w = have.get((slug,) + k, set())
        key = ('unloaded' if slug not in loaded else
               'both' if 'both' in w or ('v2' in w and 'v3' in w) else 'v2 only' if 'v2' in w else 'v3 only' if 'v3' in w else 'none')
        cnt[key] += 1; rows[key] += nflag
for k in cnt: print(f'{k:10s} spans {cnt[k]:3d}  flag rows {rows[k]:3d}')
