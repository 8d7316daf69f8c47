#!/usr/bin/env python3
"""Times the whole SVG suite rendered by this engine beside resvg, in one run, three ways.

- Processes: `compose render` and resvg's CLI, one process per render as a user runs them,
  alternating which goes first.
- Batches: `compose render FILES… --output-dir DIR`, one process per folder of the suite, with
  one job and with one per core, against resvg's one process per file.
- In process: Benchmarks' `svg-suite-bench` (read, resolve, render, encode the PNG in memory)
  and resvg through its Python binding `resvg_py` (the same steps), when it is installed.

Every test is rendered at its manifest width, each render repeated and its median kept. Prints
a table and writes JSON. Usage:

    Benchmarks/svg-suite-timing.py [--compose .build/release/compose] [--resvg resvg]
        [--bench Benchmarks/.build/release/svg-suite-bench] [--suite Tests/SVGSuite]
        [--repeats 3] [--json Benchmarks/results/svg-suite-timing.json]

resvg's CLI comes from PyPI (`pip install resvg-cli`), its binding from `pip install resvg-py`;
pass the CLI binary itself, not a pyenv shim, or the shim's start-up is timed too. Build the
bench first: `cd Benchmarks && swift build -c release --product svg-suite-bench`.
"""
import argparse, csv, json, os, shutil, statistics, subprocess, sys, tempfile, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compose", default=".build/release/compose")
    ap.add_argument("--resvg", default=shutil.which("resvg") or "resvg")
    ap.add_argument("--bench", default="Benchmarks/.build/release/svg-suite-bench")
    ap.add_argument("--suite", default="Tests/SVGSuite")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default="Benchmarks/results/svg-suite-timing.json")
    args = ap.parse_args()
    with open(os.path.join(args.suite, "manifest.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    out = tempfile.mkdtemp(prefix="svg-timing-")
    engines = {
        "compose": lambda svg, w, png: [args.compose, "render", svg, "-o", png, "--width", w, "--allow-files", args.suite],
        "resvg": lambda svg, w, png: [args.resvg, svg, png, "-w", w],
    }
    medians = {name: [] for name in engines}
    failures = {name: 0 for name in engines}
    for k, row in enumerate(rows):
        svg = os.path.join(args.suite, row["svg"])
        order = list(engines) if k % 2 == 0 else list(reversed(engines))
        times = {name: [] for name in engines}
        for _ in range(args.repeats):
            for name in order:
                png = os.path.join(out, name + ".png")
                start = time.perf_counter()
                done = subprocess.run(engines[name](svg, row["width"], png), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - start)
                if done.returncode != 0:
                    failures[name] += 1
        for name in engines:
            medians[name].append(statistics.median(times[name]))
    # Batches: `compose render` with every file of one folder of the suite (names repeat across
    # folders; the suite's widths are all the same) into a scratch folder, one process per
    # folder, with one job (one core, as resvg's CLI uses) and with the default (every core).
    groups = {}
    for row in rows:
        groups.setdefault((row["width"], os.path.dirname(row["svg"])), []).append(os.path.join(args.suite, row["svg"]))
    batch = {}
    for jobs in ["1", str(os.cpu_count() or 1)]:
        totals = []
        for _ in range(args.repeats):
            total = 0.0
            for k, ((width, _), files) in enumerate(groups.items()):
                target = os.path.join(out, "batch", str(k))
                os.makedirs(target, exist_ok=True)
                start = time.perf_counter()
                subprocess.run([args.compose, "render", *files, "--output-dir", target, "--width", width, "--jobs", jobs,
                                "--allow-files", args.suite], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                total += time.perf_counter() - start
            totals.append(total)
        batch[jobs] = statistics.median(totals)
    shutil.rmtree(out, ignore_errors=True)
    # In process: the bench's medians, then resvg's binding with as many repeats.
    inproc = {}
    if os.path.exists(args.bench):
        done = subprocess.run([args.bench, args.suite, str(args.repeats)], capture_output=True, text=True)
        inproc["engine"] = [float(line.split("\t")[1]) / 1000 for line in done.stdout.splitlines() if "\t" in line]
    try:
        import resvg_py
        times = []
        for row in rows:
            svg = os.path.join(args.suite, row["svg"])
            runs = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                try:
                    resvg_py.svg_to_bytes(svg_path=svg, width=int(row["width"]), skip_system_fonts=True,
                                          resources_dir=os.path.dirname(svg))
                except Exception:
                    pass
                runs.append(time.perf_counter() - start)
            times.append(statistics.median(runs))
        inproc["resvg_py"] = times
        inproc_version = resvg_py.__resvg_version__
    except ImportError:
        inproc_version = None
    total = {name: sum(v) for name, v in medians.items()}
    result = {
        "tests": len(rows),
        "repeats": args.repeats,
        "cpus": os.cpu_count(),
        "engines": {
            name: {
                "totalSeconds": round(total[name], 3),
                "medianPerTestMs": round(1000 * statistics.median(medians[name]), 2),
                "slowestTestMs": round(1000 * max(medians[name]), 2),
                "failedRenders": failures[name],
            } for name in engines
        },
        "composeOverResvg": round(total["compose"] / total["resvg"], 3),
        # `compose render FILES… --output-dir` per folder of the suite: total seconds (median of
        # the repeats) by job count, and over resvg's one process per file.
        "batches": {"processes": len(groups), "totalSecondsByJobs": {j: round(t, 3) for j, t in batch.items()},
                    "overResvgByJobs": {j: round(t / total["resvg"], 3) for j, t in batch.items()}},
        # Each test's medians in ms, to find where the totals come from.
        "perTest": [{"name": row["category"] + "/" + row["name"],
                     **{name: round(1000 * medians[name][k], 2) for name in engines}} for k, row in enumerate(rows)],
    }
    if inproc:
        result["inProcess"] = {name: {"totalSeconds": round(sum(v), 3), "medianPerTestMs": round(1000 * statistics.median(v), 3),
                                      "slowestTestMs": round(1000 * max(v), 2)} for name, v in inproc.items() if v}
        result["inProcess"]["resvgVersion"] = inproc_version
        if inproc.get("engine") and inproc.get("resvg_py"):
            result["inProcess"]["engineOverResvg"] = round(sum(inproc["engine"]) / sum(inproc["resvg_py"]), 3)
    print(f"{len(rows)} tests, median of {args.repeats} runs each; processes (one per render):")
    print(f"{'engine':10} {'total s':>9} {'median ms':>10} {'slowest ms':>11} {'failed':>7}")
    for name, e in result["engines"].items():
        print(f"{name:10} {e['totalSeconds']:9.2f} {e['medianPerTestMs']:10.2f} {e['slowestTestMs']:11.2f} {e['failedRenders']:7d}")
    print(f"compose / resvg: {result['composeOverResvg']:.3f}")
    for jobs, t in batch.items():
        print(f"compose render FILES… --output-dir, {len(groups)} processes (one per folder), --jobs {jobs}: "
              f"{t:.2f} s, {t / total['resvg']:.3f} × resvg's total")
    if inproc:
        print("in process (read, render, encode the PNG in memory):")
        for name, v in inproc.items():
            if v:
                print(f"{name:10} {sum(v):9.2f} {1000 * statistics.median(v):10.2f} {1000 * max(v):11.2f}")
        if "engineOverResvg" in result["inProcess"]:
            print(f"engine / resvg: {result['inProcess']['engineOverResvg']:.3f}")
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
