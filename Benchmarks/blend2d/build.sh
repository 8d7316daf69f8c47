#!/usr/bin/env bash
# Builds b2dtext (native Blend2D drawing the text benchmark's glyphs) into Benchmarks/.build-b2d,
# with Blend2D's static library and headers from ../shared/bench/blend2d (its build.sh fetches
# the blend2d-python wheel from PyPI; nothing of Blend2D is committed here).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shared=${BLEND2D_DIR:-$here/../../../shared/bench/blend2d}
out=$here/../.build-b2d
mkdir -p "$out"
OUT="$out/shared" "$shared/build.sh" >/dev/null
g++ -O2 -std=c++17 -I"$shared/include" -I"$shared" -o "$out/b2dtext" "$here/b2dtext.cpp" "$out/shared/wheel/blend2d/libblend2d.a" -lpthread -lm -lrt
echo "$out/b2dtext"
