#!/usr/bin/env python3
"""The quality table: every scene at reference and at interactive quality (`suction quality`),
its story numbers side by side (docs/validation.md, "Quality levels").

  scripts/quality_table.py [SCENE ...] [--bin PATH] [--out DIR] [--check]

SCENE: names or paths of scenes (default: every scenes/*.json). Writes DIR/NAME.json per scene and
DIR/table.md (default DIR: build/quality), prints the table. --check: exit 1 when a scene's
interactive quality exceeds a limit (or a run fails), after all of them ran. Needs only python3.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scene_path(name):
    if os.path.exists(name):
        return name
    return os.path.join(ROOT, 'scenes', name if name.endswith('.json') else name + '.json')


def fmt(v):
    return 'never' if v is None else f'{v:.4g}'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('scenes', nargs='*')
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build/native/native/suction'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'build/quality'))
    ap.add_argument('--check', action='store_true')
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit(f'quality_table: no suction binary at {a.bin} (make native)')
    scenes = a.scenes or sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, 'scenes')) if f.endswith('.json'))
    os.makedirs(a.out, exist_ok=True)
    rows, bad = [], []
    t0 = time.time()
    for k, name in enumerate(scenes, 1):
        path = scene_path(name)
        stem = os.path.splitext(os.path.basename(path))[0]
        out_json = os.path.join(a.out, stem + '.json')
        if os.path.exists(out_json):
            os.remove(out_json)
        print(f'[{k}/{len(scenes)} {time.time() - t0:.0f}s] {stem}', file=sys.stderr, flush=True)
        p = subprocess.run([a.bin, 'quality', path, '--json', out_json], capture_output=True, text=True)
        sys.stderr.write(p.stdout if p.returncode else '')
        if p.returncode == 2 or (p.returncode != 0 and not os.path.exists(out_json)):
            sys.stderr.write(p.stderr)
            bad.append(stem)
            rows.append(f'| {stem} | the run failed: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode} | | | |')
            continue
        if not os.path.exists(out_json):  # one run: interactive changes nothing
            rows.append(f'| {stem} | reference quality (nothing changed) | | | |')
            continue
        j = json.load(open(out_json))
        changes = ', '.join(c.replace('/settings/', '').replace('factorization/reuse=true', 'kept factorization')
                           .replace('factorization/refinements=1', 'refined')
                           .replace('factorization/lag_drift=0.01', 'lagged matrix')
                           .replace('solver/subspace_every=10', 'subspace step')
                           .replace('cavity/unite_on_ring_change=false', 'carried cavities')
                           .replace('cavity/follow_seal=true', 'seams followed')
                            for c in j['quality_changes'])
        nums = []
        for n in j['numbers']:
            r, i = n['reference'], n['interactive']
            if r is not None and i is not None and n['relative'] and r != 0:
                d = f'{100 * (i - r) / abs(r):+.2f} %'
            elif r is not None and i is not None:
                d = f'{i - r:+.3g} s' if not n['relative'] else f'{i - r:+.3g}'
            else:
                d = ''
            nums.append(f"{n['name']} {fmt(r)} → {fmt(i)}{' (' + d + ')' if d else ''}{'' if n['ok'] else ' **exceeds**'}")
        sec = j['seconds']
        speed = sec['reference'] / sec['interactive'] if sec['interactive'] > 0 else float('nan')
        rows.append(f"| {stem} | {changes} | {speed:.2f}× | {'; '.join(nums)} | {'ok' if j['ok'] else '**exceeds**'} |")
        if not j['ok']:
            bad.append(stem)
    table = ['| scene | interactive changes | wall time ref / int | story numbers: reference → interactive | verdict |',
             '|---|---|---|---|---|'] + rows
    text = '\n'.join(table) + '\n'
    with open(os.path.join(a.out, 'table.md'), 'w') as f:
        f.write(text)
    print(text)
    print(f'{len(scenes)} scenes in {time.time() - t0:.0f} s; ' +
          (f'exceeding or failed: {", ".join(bad)}' if bad else 'every interactive quality within its limits'))
    if a.check and bad:
        sys.exit(1)


if __name__ == '__main__':
    main()
