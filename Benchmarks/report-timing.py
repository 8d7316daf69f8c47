#!/usr/bin/env python3
"""Measures issue 22's two targets for `compose report` and `compose preview`.

1. Report against render: `compose report SCENE` and `compose render SCENE` of the same scene
   (default: the radar seal at scale 3), one process each, alternating which goes first; the
   medians, their ratio and the page's size.
2. Preview latency: for every scene and SVG file in Examples/ (copied to a temporary folder, so
   the repository is never written), `compose preview` runs on a free port; each save (the file
   rewritten by a rename, as editors save, with one comment line changed) is timed until the
   page's long poll (`/wait`) has answered and the new page has been fetched in full. The
   browser's own swap of the page adds a few milliseconds on top (ReportBrowserTests prints
   the whole save-to-screen time it sees).

Prints a table and writes JSON. Usage (build the release binary first:
`swift build -c release --static-swift-stdlib --product compose`):

    Benchmarks/report-timing.py [--compose .build/release/compose] [--runs 15] [--saves 10]
        [--json Benchmarks/results/report-timing.json]
"""
import argparse, glob, http.client, json, os, re, shutil, statistics, subprocess, sys, tempfile, threading, time


def timed(command):
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode()}")
    return elapsed


def report_against_render(compose, scene, scale, runs, folder):
    png, html = os.path.join(folder, "r.png"), os.path.join(folder, "r.html")
    commands = {
        "render": [compose, "render", scene, "--scale", scale, "-o", png],
        "report": [compose, "report", scene, "--scale", scale, "-o", html],
    }
    times = {name: [] for name in commands}
    for name in commands:  # warm the file cache and the binary
        timed(commands[name])
    for k in range(runs):
        for name in (list(commands) if k % 2 == 0 else list(reversed(commands))):
            times[name].append(timed(commands[name]))
    render, report = statistics.median(times["render"]), statistics.median(times["report"])
    return {"scene": scene, "scale": float(scale), "runs": runs, "renderMs": render * 1000, "reportMs": report * 1000,
            "ratio": report / render, "reportBytes": os.path.getsize(html)}


def get(port, path, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def save(path, k):
    """Rewrites the file through a rename with its marker comment changed."""
    with open(path) as f:
        text = f.read()
    svg = path.endswith(".svg")
    marker = re.compile(r"<!-- save \d+ -->\n$" if svg else r"// save \d+\n$")
    text = marker.sub("", text) + (f"<!-- save {k} -->\n" if svg else f"// save {k}\n")
    temporary = path + ".tmp"
    with open(temporary, "w") as f:
        f.write(text)
    os.replace(temporary, path)


def preview_latency(compose, path, saves):
    process = subprocess.Popen([compose, "preview", path, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            sys.exit(f"preview printed no address: {line!r}")
        port = int(match.group(1))
        latencies = []
        for k in range(saves):
            status, body = get(port, "/version")
            version = json.loads(body)["version"]
            answered = {}

            def wait():
                answered["status"], answered["body"] = get(port, f"/wait?version={version}")

            poll = threading.Thread(target=wait)
            poll.start()
            time.sleep(0.1)  # the poll is waiting, as the page's is
            start = time.perf_counter()
            save(path, k)
            poll.join()
            status, page = get(port, "/")
            elapsed = time.perf_counter() - start
            if json.loads(answered["body"])["version"] != version + 1 or status != 200 or f'data-version="{version + 1}"'.encode() not in page:
                sys.exit(f"{path}: the page did not follow save {k}")
            latencies.append(elapsed)
            time.sleep(0.1)  # saves a person might make, not a stream
        return latencies
    finally:
        process.send_signal(2)
        process.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compose", default=".build/release/compose")
    ap.add_argument("--scene", default="Examples/radar-seal.scene")
    ap.add_argument("--scale", default="3")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--saves", type=int, default=10)
    ap.add_argument("--json", default="Benchmarks/results/report-timing.json")
    args = ap.parse_args()
    compose = os.path.abspath(args.compose)
    folder = tempfile.mkdtemp(prefix="report-timing-")
    try:
        result = {"reportAgainstRender": report_against_render(compose, args.scene, args.scale, args.runs, folder)}
        r = result["reportAgainstRender"]
        print(f"{r['scene']} at scale {args.scale}, medians of {args.runs} processes each:")
        print(f"  render {r['renderMs']:.1f} ms, report {r['reportMs']:.1f} ms: {r['ratio']:.2f}x; page {r['reportBytes'] / 1e6:.2f} MB")

        examples = os.path.join(folder, "Examples")
        shutil.copytree("Examples", examples)
        rows = []
        print(f"\npreview, save to new page fetched, {args.saves} saves each (ms):")
        print(f"  {'file':28} {'median':>7} {'max':>7}")
        for path in sorted(glob.glob(os.path.join(examples, "*.scene")) + glob.glob(os.path.join(examples, "*.svg"))):
            latencies = preview_latency(compose, path, args.saves)
            row = {"file": os.path.basename(path), "medianMs": statistics.median(latencies) * 1000, "maxMs": max(latencies) * 1000}
            rows.append(row)
            print(f"  {row['file']:28} {row['medianMs']:7.1f} {row['maxMs']:7.1f}")
        result["previewLatency"] = rows
        worst = max(rows, key=lambda r: r["maxMs"])
        print(f"  worst: {worst['file']}, {worst['maxMs']:.1f} ms")
        os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
        print(f"\nwrote {args.json}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
