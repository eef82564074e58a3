#!/usr/bin/env python3
# Usage: failmodes.py LABELS.tsv DIR (DIR written by accuracy/run.sh with
# ACCURACY_BIN=describe ACCURACY_NOSCORE=1).
# Aggregate only. Joins a describe run with labels; prints per analyzer the
# TP/FP/FN counts and, for FN and FP rows, histograms of the v2 site's and v3
# evidence's properties found in the row's span. No site, path or line is printed.
import json, sys, os, glob, collections
labels, d = sys.argv[1], sys.argv[2]
rows = []
for ln in open(labels):
    f = ln.rstrip('\n').split('\t')
    if f[0] == 'module' or len(f) < 7: continue
    slug = (f[0] + '@' + f[1]).replace('/', '_').replace('@', '_')
    rows.append(dict(slug=slug, path=f[2], lo=int(f[3]), hi=int(f[4]), an=f[5], label=f[6], hits=[], v2=[], v3=[]))
byfile = collections.defaultdict(list)
for r in rows: byfile[(r['slug'], r['path'])].append(r)
loaded = set()
for js in glob.glob(d + '/*.json'):
    slug = os.path.basename(js)[:-5]
    try:
        root = open(js[:-5] + '.root').read().strip(); data = json.load(open(js))
    except Exception: continue
    loaded.add(slug)
    seen = set()
    for pkg in data.values():
        for an, ds in pkg.items():
            if not isinstance(ds, list): continue
            for x in ds:
                for posn in (x.get('sites') or [x['posn']]):
                    if (an, posn, x['message']) in seen: continue
                    seen.add((an, posn, x['message']))
                    path, line = posn.rsplit(':', 2)[0], int(posn.rsplit(':', 2)[1])
                    rel = os.path.relpath(path, root)
                    cands = [r for r in byfile.get((slug, rel), []) if r['lo'] <= line <= r['hi']]
                    if an == 'describe':
                        m = x['message']
                        for r in cands:
                            (r['v3'] if m.startswith('v3') else r['v2']).append(m)
                        continue
                    cands = [r for r in cands if r['an'] == an]
                    if cands:
                        best = min(cands, key=lambda r: r['hi'] - r['lo'])
                        best['hits'].append(1)
out = collections.defaultdict(collections.Counter)
tot = collections.defaultdict(collections.Counter)
for r in rows:
    if r['slug'] not in loaded: continue
    hit = bool(r['hits'])
    if r['label'] == 'flag': b = 'TP' if hit else 'FN'
    elif r['label'] == 'noflag': b = 'FP' if hit else 'TN'
    else: continue
    tot[r['an']][b] += 1
    if b in ('FN', 'FP'):
        if not r['v2']:
            out[(r['an'], b)]['v2:no-site'] += 1
        else:
            props = set()
            for m in r['v2']:
                props |= set(m.split()[1:])
                props.add('kind=' + m.split()[0])
            for p in props: out[(r['an'], b)]['v2:' + p] += 1
        if not r['v3']:
            out[(r['an'], b)]['v3:no-site'] += 1
        else:
            props = set()
            for m in r['v3']:
                props |= set(m.split()[1:])
            for p in props: out[(r['an'], b)]['v3:' + p] += 1
for an in sorted(tot):
    print(an, dict(tot[an]))
    for b in ('FN', 'FP'):
        c = out[(an, b)]
        if c: print('  ', b, ' '.join(f'{k}:{v}' for k, v in sorted(c.items())))
