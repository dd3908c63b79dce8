#!/usr/bin/env python3
"""The interactive quality over each scene's parameters: `suction quality` (reference against
interactive, each story number within its limit) with one parameter at a time moved off its
default, because `make quality` checks the defaults only and the page's sliders move them
(docs/validation.md, "The interactive quality over the parameters").

  scripts/quality_params.py [SCENE ...] [--param NAME=V1,V2 ...] [--bin PATH] [--out DIR]
                            [--jobs N] [--check]

SCENE: names or paths of scenes (default: every scenes/*.json with parameters). For each
parameter whose default is a plain number, two values: half and twice the default (within the
parameter's min and max; a default of 0 takes its max, or is skipped without one; integers
rounded); --param NAME=V1,V2 gives a parameter's values instead (for every scene that has
it; --only: only those parameters). Writes DIR/SCENE.NAME=V.json per run and DIR/table.md (default DIR:
build/quality-params), prints the table. --jobs: runs at a time (each runs its two qualities
one after the other). --check: exit 1 when a run exceeds a limit or fails. Needs only python3.

Each scene is first run at its defaults (DIR/SCENE.defaults.json, the table's first row of the
scene), and every number that is not a time takes a tenth of its reference there as its floor
in the moved runs (`suction quality --floor NAME=VALUE`): a number's limit is 3 % of the larger
of its reference and that floor, so that a slide that did not happen in either quality (6 µm
against 0) is not an excess, while a number at a tenth of its default or more keeps its own
3 %. --floor-share X: another share of the defaults' reference (0: no floors).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quality_table import ROOT, scene_path  # noqa: E402  (the same scenes, found the same way)


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def values_of(decl):
    """Half and twice the default, within [min, max]; a default of 0: its max (or nothing)."""
    d, lo, hi = decl.get('default'), decl.get('min'), decl.get('max')
    if not number(d):
        return []  # derived from other parameters
    integer = isinstance(d, int) and (lo is None or isinstance(lo, int)) and (hi is None or isinstance(hi, int))
    if d == 0:
        out = [hi] if number(hi) and hi != 0 else []
    else:
        out = [d / 2, d * 2]
    vals = []
    for v in out:
        if number(lo):
            v = max(v, lo)
        if number(hi):
            v = min(v, hi)
        v = round(v) if integer else float(f'{v:.6g}')
        if v != d and v not in vals:
            vals.append(v)
    return vals


def fmt_value(v):
    return str(int(v)) if float(v).is_integer() else f'{v:g}'


def fmt_number(n):
    ref, inter = n.get('reference'), n.get('interactive')
    if ref is None or inter is None:
        return 'never' if ref is None and inter is None else f'{"never" if ref is None else f"{ref:.4g}"} → ' \
               f'{"never" if inter is None else f"{inter:.4g}"}'
    if n.get('relative') and n.get('floor') and abs(ref) < n['floor']:  # the floor sets the limit
        return f'{inter - ref:+.3g} (of {ref:.3g}; limit {n["limit"]:.3g}, 3 % of its floor {n["floor"]:.3g})'
    if n.get('relative'):
        rel = (inter - ref) / abs(ref) * 100 if ref else 0.0
        return f'{rel:+.2f} %'
    return f'{inter - ref:+.3g} s'


def run(bin_, path, name, value, out, floors=None):
    """`suction quality` with parameter NAME at VALUE (NAME None: the defaults)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    what = 'defaults' if name is None else f'{name}={fmt_value(value)}'
    out_json = os.path.join(out, f'{stem}.{what}.json')
    if os.path.exists(out_json):
        os.remove(out_json)
    t0 = time.time()
    args = [bin_, 'quality', path, '-j', '1', '--json', out_json]
    if name is not None:
        args += ['--set', f'/parameters/{name}={value}']
    for n, v in sorted((floors or {}).items()):
        args += ['--floor', f'{n}={v!r}']
    p = subprocess.run(args, capture_output=True, text=True)
    result = {'scene': stem, 'param': name, 'value': value, 'seconds': time.time() - t0}
    if p.returncode == 2 or not os.path.exists(out_json):
        lines = (p.stderr or p.stdout).strip().splitlines()
        result['error'] = lines[-1] if lines else f'exit {p.returncode}'
        return result
    with open(out_json) as f:
        result['json'] = json.load(f)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('scenes', nargs='*')
    ap.add_argument('--param', action='append', default=[], help='NAME=V1,V2: these values for NAME')
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build/native/native/suction'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'build/quality-params'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--only', action='store_true', help='only the parameters given by --param')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--floor-share', type=float, default=0.1,
                    help="each number's floor: this share of its reference at the defaults (0: none)")
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit(f'quality_params: no suction binary at {a.bin} (make native)')
    given = {}
    for spec in a.param:
        name, sep, vals = spec.partition('=')
        try:
            given[name] = [float(v) for v in vals.split(',')] if sep else None
        except ValueError:
            given[name] = None
        if not given[name]:
            sys.exit(f'quality_params: --param {spec}: expected NAME=V1,V2,... with numbers')
    names = a.scenes or sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, 'scenes')) if f.endswith('.json'))
    jobs, paths = [], []
    for name in names:
        path = scene_path(name)
        with open(path) as f:
            doc = json.load(f)
        interactive = doc.get('settings', {}).get('interactive', {})
        if interactive.get('enabled') is False:
            continue  # plays at reference: nothing to compare
        n_before = len(jobs)
        for pname, decl in doc.get('parameters', {}).items():
            if a.only and pname not in given:
                continue
            for v in given[pname] if pname in given else values_of(decl):
                jobs.append((path, pname, v))
        if len(jobs) > n_before:
            paths.append(path)
    if not jobs:
        sys.exit('quality_params: no scene parameter to move')
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    results = []
    total = len(jobs) + len(paths)

    def report(k, r):
        verdict = r.get('error') or ('ok' if r['json']['ok'] else 'EXCEEDS')
        what = 'defaults' if r['param'] is None else f'{r["param"]}={fmt_value(r["value"])}'
        print(f'[{k}/{total} {time.time() - t0:.0f}s] {r["scene"]} {what}: {verdict}', file=sys.stderr, flush=True)
        results.append(r)

    def stem(p):
        return os.path.splitext(os.path.basename(p))[0]

    # the defaults first: their references give the moved runs' floors
    floors = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for fut in concurrent.futures.as_completed([pool.submit(run, a.bin, p, None, None, a.out) for p in paths]):
            r = fut.result()
            report(len(results) + 1, r)
            if 'json' in r and a.floor_share > 0:
                floors[r['scene']] = {n['name']: a.floor_share * abs(n['reference']) for n in r['json']['numbers']
                                      if n['relative'] and n.get('reference') not in (None, 0)}  # not times
        futures = [pool.submit(run, a.bin, *j, a.out, floors.get(stem(j[0]))) for j in jobs]
        for fut in concurrent.futures.as_completed(futures):
            report(len(results) + 1, fut.result())
    order = {j: i for i, j in enumerate([(stem(p), None, None) for p in paths] + [(stem(p), n, v) for p, n, v in jobs])}
    results.sort(key=lambda r: (order[(r['scene'], None, None)], order[(r['scene'], r['param'], r['value'])]))
    rows = ['| scene | parameter | story numbers, interactive − reference | verdict | wall s, reference / interactive |',
            '|---|---|---|---|---|']
    bad = {True: 0, False: 0}  # moved runs, defaults: not within their limits
    for r in results:
        what = 'defaults' if r['param'] is None else f'{r["param"]} = {fmt_value(r["value"])}'
        ok = 'error' not in r and r['json']['ok']
        bad[r['param'] is not None] += not ok
        if 'error' in r:
            rows.append(f'| {r["scene"]} | {what} | the run failed: {r["error"]} | FAILED | |')
            continue
        j = r['json']
        nums = ', '.join(f'{n["name"]} {fmt_number(n)}{"" if n["ok"] else " (!)"}' for n in j['numbers'])
        s = j.get('seconds', {})
        rows.append(f'| {r["scene"]} | {what} | {nums} | {"ok" if j["ok"] else "**EXCEEDS**"} | '
                    f'{s.get("reference", 0):.1f} / {s.get("interactive", 0):.1f} |')
    table = '\n'.join(rows) + '\n'
    with open(os.path.join(a.out, 'table.md'), 'w') as f:
        f.write(table)
    print(table)
    print(f'{len(jobs) - bad[True]} of {len(jobs)} moved runs and {len(paths) - bad[False]} of {len(paths)} '
          f'defaults within their limits ({time.time() - t0:.0f} s)', file=sys.stderr)
    sys.exit(1 if a.check and any(bad.values()) else 0)


if __name__ == '__main__':
    main()
