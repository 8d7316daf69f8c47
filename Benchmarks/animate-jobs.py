#!/usr/bin/env python3
"""Times `compose animate` of a 120-frame animation with --jobs 1 against --jobs N (issue 19's
target: N = 2 in at most 0.6x the time of 1, on this 2-core machine).

Each run is one process, as a user runs it. The job counts alternate which goes first. PNG
frames go to a temporary folder; raw video goes to /dev/null. Prints medians and ratios, and
writes JSON. Usage (build the release binary first: `swift build -c release --static-swift-stdlib --product compose`):

    Benchmarks/animate-jobs.py [--compose .build/release/compose] [--scene Examples/badge.scene]
        [--fps 100] [--frames 120] [--jobs 1,2] [--runs 5] [--json Benchmarks/results/animate-jobs.json]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compose", default=".build/release/compose")
    ap.add_argument("--scene", default="Examples/badge.scene")
    ap.add_argument("--fps", default="100")
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", default="Benchmarks/results/animate-jobs.json")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    folder = tempfile.mkdtemp(prefix="animate-jobs-")
    common = [args.compose, "animate", args.scene, "--fps", args.fps, "--frames", f"0..<{args.frames}", "--quiet"]
    formats = {
        "png": lambda j: (common + ["-o", os.path.join(folder, f"j{j}", "%04d.png"), "--jobs", str(j)], None),
        "rawvideo": lambda j: (common + ["--format", "rawvideo", "--jobs", str(j)], subprocess.DEVNULL),
    }
    for j in jobs:
        os.makedirs(os.path.join(folder, f"j{j}"), exist_ok=True)
    result = {"scene": args.scene, "fps": float(args.fps), "frames": args.frames, "runs": args.runs,
              "cores": os.cpu_count(), "formats": {}}
    try:
        for name, command in formats.items():
            times = {j: [] for j in jobs}
            for k in range(args.runs + 1):  # the first round warms the caches and is not kept
                for j in (jobs if k % 2 == 0 else list(reversed(jobs))):
                    argv, stdout = command(j)
                    start = time.perf_counter()
                    done = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE)
                    elapsed = time.perf_counter() - start
                    if done.returncode != 0:
                        sys.exit(f"{' '.join(argv)}: {done.stderr.decode()}")
                    if k > 0:
                        times[j].append(elapsed)
            medians = {j: statistics.median(times[j]) for j in jobs}
            result["formats"][name] = {str(j): {"medianS": medians[j], "ratioToOneJob": medians[j] / medians[jobs[0]]} for j in jobs}
            print(f"{name}: " + ", ".join(f"--jobs {j} {medians[j]:.2f} s ({medians[j] / medians[jobs[0]]:.2f}x)" for j in jobs))
        if "png" in formats:
            first = os.path.join(folder, f"j{jobs[0]}")
            for j in jobs[1:]:
                other = os.path.join(folder, f"j{j}")
                for name in sorted(os.listdir(first)):
                    with open(os.path.join(first, name), "rb") as a, open(os.path.join(other, name), "rb") as b:
                        if a.read() != b.read():
                            sys.exit(f"--jobs {j} wrote a different {name}")
            print(f"frames identical across job counts ({len(os.listdir(first))} files)")
        os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
        print(f"wrote {args.json}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
