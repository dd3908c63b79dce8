#!/usr/bin/env python3
"""Compare two CSV files of `suction run` column by column.

    compare_csv.py A.csv B.csv [--rtol 1e-6]

Both files must have the same header and the same number of rows.  A value pair (a, b) of a
column agrees when |a - b| <= rtol * scale, where scale is the column's largest magnitude in
A (so values crossing zero are judged against the column's size, not against themselves).
Prints the worst column and exits 0 when every value agrees, 1 otherwise, 2 on unreadable
input.
"""
import argparse
import csv
import math
import sys


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path}: empty")
    return rows[0], rows[1:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rtol", type=float, default=1e-6)
    args = parser.parse_args()
    try:
        head_a, rows_a = read(args.a)
        head_b, rows_b = read(args.b)
    except (OSError, ValueError) as e:
        print(f"compare_csv: {e}", file=sys.stderr)
        return 2
    if head_a != head_b:
        print(f"compare_csv: the headers differ:\n  {head_a}\n  {head_b}", file=sys.stderr)
        return 1
    if len(rows_a) != len(rows_b):
        print(f"compare_csv: {len(rows_a)} rows against {len(rows_b)}", file=sys.stderr)
        return 1
    worst = (0.0, None, None)  # (relative difference, column, row)
    for c, name in enumerate(head_a):
        try:
            col_a = [float(r[c]) for r in rows_a]
            col_b = [float(r[c]) for r in rows_b]
        except ValueError:
            if [r[c] for r in rows_a] != [r[c] for r in rows_b]:
                print(f"compare_csv: column {name} (text) differs", file=sys.stderr)
                return 1
            continue
        scale = max((abs(x) for x in col_a if math.isfinite(x)), default=0.0)
        for i, (x, y) in enumerate(zip(col_a, col_b)):
            if math.isnan(x) and math.isnan(y):
                continue
            d = abs(x - y)
            rel = d / scale if scale > 0 else (0.0 if d == 0 else math.inf)
            if not rel <= worst[0]:
                worst = (rel, name, i + 1)
    rel, name, row = worst
    ok = rel <= args.rtol
    where = f" (column {name}, data row {row})" if name else ""
    print(f"{'agree' if ok else 'DIFFER'}: worst relative difference {rel:.3g}{where}, tolerance {args.rtol:g}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
