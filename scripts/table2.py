#!/usr/bin/env python3
"""The paper's Table 2 sweep: the compliance build's cost against the number of constraint rows.

    table2.py [--bin build/cuda/native/suction] [--backends cpu,cuda] [--cells 1,5,8,13,17]
              [--steps 240] [--reduction] [--out table.md]

Runs `suction bench scenes/cube_grasp.json --set /parameters/cube_cells=N --backend B` for every
N and B, with the contact reduction off (--set /settings/contact/reduction=false: every contact
the detector finds, so that the rows grow with the cube's mesh as the paper's did; --reduction
runs the scene as it is written, where the rows stay near 400 at any N) (the whole scene by default: 240 steps of 10 ms, no warm-up) and prints a Markdown
table: the cube's collision nodes (6 N^2 + 2), the mean and largest number of rows, and per
backend the mean per-step milliseconds of the compliance stage and of the whole step, with
the compliance speed-up of each backend over the first.  Progress goes to stderr.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench(binary, cells, backend, steps, tmp, reduction):
    out = os.path.join(tmp, f"bench_{cells}_{backend}.json")
    cmd = [binary, "bench", os.path.join(ROOT, "scenes", "cube_grasp.json"), "--set",
           f"/parameters/cube_cells={cells}", "--backend", backend, "--warmup", "0", "--steps",
           str(steps), "--json", out]
    if not reduction:
        cmd += ["--set", "/settings/contact/reduction=false"]
    print("table2: " + " ".join(cmd), file=sys.stderr, flush=True)
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"table2: {' '.join(cmd)} failed ({result.returncode}):\n{result.stderr}")
    with open(out) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "cuda", "native", "suction"))
    parser.add_argument("--backends", default="cpu,cuda")
    parser.add_argument("--cells", default="1,5,8,13,17")
    parser.add_argument("--steps", type=int, default=240)
    parser.add_argument("--reduction", action="store_true",
                        help="run the scene as written (contact reduction on) instead of with every contact")
    parser.add_argument("--out")
    args = parser.parse_args()
    backends = args.backends.split(",")
    cells = [int(c) for c in args.cells.split(",")]
    head = ["cube cells", "cube coll. nodes", "rows (mean)", "rows (max)"]
    for b in backends:
        head += [f"compliance {b} ms", f"total {b} ms"]
    for b in backends[1:]:
        head.append(f"compliance {backends[0]}/{b}")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    with tempfile.TemporaryDirectory() as tmp:
        for n in cells:
            runs = {b: bench(args.bin, n, b, args.steps, tmp, args.reduction) for b in backends}
            first = runs[backends[0]]
            row = [str(n), str(6 * n * n + 2), f"{first['mean_constraints']:.1f}", str(first["max_constraints"])]
            for b in backends:
                row += [f"{runs[b]['stages']['compliance']['mean_ms']:.2f}", f"{runs[b]['total']['mean_ms']:.2f}"]
            base = first["stages"]["compliance"]["mean_ms"]
            for b in backends[1:]:
                row.append(f"{base / runs[b]['stages']['compliance']['mean_ms']:.1f}x")
            lines.append("| " + " | ".join(row) + " |")
            print(lines[-1], file=sys.stderr, flush=True)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
