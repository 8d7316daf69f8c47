#!/usr/bin/env python3
"""Screenshots a `compose report` page in headless Chromium, with a layer row hovered and the
layer outlines on, for docs/report.md. Chromium is driven through the DevTools protocol over
--remote-debugging-pipe (NUL-separated JSON on fds 3 and 4), as the browser tests do.

    Tools/report-screenshot.py REPORT.html OUT.png [--row N] [--width 1280] [--height 1100]
        [--dark] [--layers]
"""
import argparse, base64, json, os, shutil, subprocess, sys, tempfile, time


class Browser:
    def __init__(self):
        executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
        if not executable:
            sys.exit("no chromium: apt-get install --no-install-recommends chromium")
        self.profile = tempfile.mkdtemp(prefix="report-shot-")
        to_child, self.writer = os.pipe()
        self.reader, from_child = os.pipe()

        def fds():  # the child's fd 3 reads commands, fd 4 writes answers
            a, b = os.dup(to_child), os.dup(from_child)  # neither may be overwritten by the other
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [executable, "--headless", "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "--disable-gpu",
                "--hide-scrollbars", "--force-color-profile=srgb", "--no-first-run", "--disable-extensions", "about:blank"]
        if os.getuid() == 0:
            args.insert(1, "--no-sandbox")
        self.process = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self.next_id, self.buffer, self.session = 1, b"", None

    def send(self, method, params=None, session=True):
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.next_id += 1
        os.write(self.writer, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.reader, 1 << 16)
                if not chunk:
                    sys.exit("chromium closed the pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == message["id"]:
                if "error" in answer:
                    sys.exit(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def evaluate(self, expression):
        return self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def close(self):
        try:
            os.write(self.writer, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("out")
    ap.add_argument("--row", type=int, default=0, help="the layer row to hover (its index, from 0)")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=1100)
    ap.add_argument("--dark", action="store_true")
    ap.add_argument("--layers", action="store_true", help="turn the layer outlines on")
    args = ap.parse_args()
    browser = Browser()
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        browser.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        browser.send("Emulation.setDeviceMetricsOverride", {"width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": False})
        if args.dark:
            browser.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(args.report)})
        for _ in range(200):
            if browser.evaluate("document.readyState") == "complete":
                break
            time.sleep(0.05)
        if args.layers:
            browser.evaluate("document.getElementById('show-layers').checked = true")
        box = browser.evaluate(f"(r => r && [r.left + r.width / 2, r.top + r.height / 2])(document.getElementById('layer-{args.row}')?.getBoundingClientRect())")
        if box:
            browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": box[0], "y": box[1]})
            time.sleep(0.1)
        data = browser.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(args.out, "wb") as f:
            f.write(base64.b64decode(data))
        print(f"wrote {args.out}")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
