#!/usr/bin/env python3
"""The constraint solvers side by side: iterations, residual and milliseconds per solve.

    solver_table.py [--bin build/native/native/suction] [--methods pgs,apgd,uzawa]
                    [--backend cpu] [--cases ground,rigid_lift,pull_test,soft_cube_lift,grasp1,grasp8,grasp13,grasp17,grasp17-reduced]
                    [--tolerance T] [--max-iterations N] [--out table.md]

Runs `suction bench` for every case and method (the same binary, one after the other) and
prints a Markdown table: the mean rows, and per method the mean iterations, the mean and
largest common residual (natural_residual, docs/method.md §8.5), the solves that ended above
the tolerance, the mean solve stage and the mean whole step [ms].  Cases: a shipped scene over
its whole duration, or graspN: scenes/cube_grasp.json with cube_cells = N over the 60 steps
of the grasp (t = 0.4 to 1.0 s) with every contact the detector finds (the contact reduction
off, so that the rows grow with N: about 505 to 1780), or graspN-reduced: the same steps as the
scene is written (the reduction on: the rows stay near 500 at any N).  Progress goes to stderr.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def case_args(case):
    if case.startswith("grasp"):
        reduced = case.endswith("-reduced")
        cells = int(case[len("grasp"):len(case) - (len("-reduced") if reduced else 0)])
        return [os.path.join(ROOT, "scenes", "cube_grasp.json"), "--set", f"/parameters/cube_cells={cells}",
                "--set", f"/settings/contact/reduction={'true' if reduced else 'false'}",
                "--warmup", "40", "--steps", "60"]
    path = os.path.join(ROOT, "scenes", case + ".json")
    with open(path) as f:
        settings = json.load(f).get("settings", {})
    steps = round(settings.get("duration", 1.0) / settings.get("dt", 0.01))
    return [path, "--warmup", "0", "--steps", str(steps)]


def bench(args, case, method, tmp):
    out = os.path.join(tmp, f"{case}_{method}.json")
    cmd = [args.bin, "bench"] + case_args(case) + ["--solver", method, "--backend", args.backend, "--json", out]
    if args.tolerance:
        cmd += ["--set", f"/settings/solver/tolerance={args.tolerance}"]
    if args.max_iterations:
        cmd += ["--set", f"/settings/solver/max_iterations={args.max_iterations}"]
    print("solver_table: " + " ".join(cmd), file=sys.stderr, flush=True)
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        print(f"solver_table: {' '.join(cmd)} failed ({result.returncode}):\n{result.stderr}", file=sys.stderr)
        return None
    with open(out) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "native", "native", "suction"))
    parser.add_argument("--methods", default="pgs,apgd,uzawa")
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--cases",
                        default="ground,rigid_lift,pull_test,soft_cube_lift,grasp1,grasp8,grasp13,grasp17,grasp17-reduced")
    parser.add_argument("--tolerance")
    parser.add_argument("--max-iterations")
    parser.add_argument("--out")
    args = parser.parse_args()
    methods = args.methods.split(",")
    head = ["case", "rows (mean)", "method", "iterations", "residual mean", "residual max", "not converged",
            "solve ms", "step ms", "solve speed-up"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases.split(","):
            base = None
            for method in methods:
                r = bench(args, case, method, tmp)
                if r is None:
                    lines.append(f"| {case} | | {method} | failed | | | | | | |")
                    continue
                solve = r["stages"]["solve"]["mean_ms"]
                if base is None:
                    base = solve
                lines.append("| " + " | ".join([
                    case, f"{r['mean_constraints']:.0f}", method, f"{r['mean_solver_iterations']:.1f}",
                    f"{r['mean_solver_residual']:.2g}", f"{r['max_solver_residual']:.2g}",
                    f"{r['unconverged_solves']} of {r['solves']}", f"{solve:.2f}", f"{r['total']['mean_ms']:.2f}",
                    f"{base / solve:.2f}x" if solve > 0 else "-"]) + " |")
                print(lines[-1], file=sys.stderr, flush=True)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
