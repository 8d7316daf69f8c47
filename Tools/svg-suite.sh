#!/bin/sh
# Renders every test of the SVG suite at its manifest size with `compose render` and scores the
# renders with the suite's score.py under the project's rule (docs/svg.md):
#   --neighbourhood --premultiplied --tol 8:0.1%   (and the strict 1:0 column, for information)
# Usage: Tools/svg-suite.sh COMPOSE SUITE_DIR OUT_DIR [FLOOR_FILE]
# With FLOOR_FILE, fails when the tier-1 pass count under the rule drops below the number in it.
set -eu
compose=$1 suite=$2 out=$3 floor=${4:-}
mkdir -p "$out"
: > "$out/log.txt"
jobs=$(nproc 2>/dev/null || echo 2)
# score.py needs numpy: the first python3 on PATH that has it, else Debian's.
python=python3
"$python" -c 'import numpy' 2>/dev/null || python=/usr/bin/python3
"$python" -c 'import numpy' 2>/dev/null || { echo "score.py needs numpy: apt-get install python3-numpy (make deps does)" >&2; exit 1; }
start=$(date +%s%N)
# Images are read from anywhere in the suite (its resources/ folder lies outside each test's).
# One `compose render` per output folder and width renders that folder's tests in one process
# (its batch mode, `--output-dir`, `--jobs` as many as cores); a test the renderer refuses leaves
# no PNG and fails in the score, and its message goes to the log.
tab=$(printf '\t')
tail -n +2 "$suite/manifest.tsv" | awk -F'\t' -v out="$out" -v suite="$suite" '{
    dir = out "/" $1; name = $2
    if (index(name, "/")) { sub(/\/[^\/]*$/, "", name); dir = dir "/" name }
    key = $3 "\t" dir
    if (!(key in files)) order[++n] = key
    files[key] = files[key] "\t" suite "/" $5
} END { for (i = 1; i <= n; i++) print order[i] files[order[i]] }' |
while IFS="$tab" read -r width dir svgs; do
    mkdir -p "$dir"
    # The tab-separated file list, split on tabs only, without globbing.
    set -f; saved=$IFS; IFS=$tab
    # shellcheck disable=SC2086
    set -- $svgs
    IFS=$saved; set +f
    "$compose" render "$@" --output-dir "$dir" --width "$width" --jobs "$jobs" --allow-files "$suite" 2>>"$out/log.txt" ||
        echo "failed in $dir (status $?)" >>"$out/log.txt"
done
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
printf 'rendered in %d.%d s (%s jobs)\n' $((ms / 1000)) $(( (ms % 1000) / 100 )) "$jobs"
"$python" "$suite/score.py" "$out" --neighbourhood --premultiplied --tol 8:0.1% --tol 1:0 --details "$out/details.tsv" | tee "$out/score.txt"
if [ -n "$floor" ]; then
    want=$(cat "$floor")
    got=$("$python" "$suite/score.py" "$out" --neighbourhood --premultiplied --tol 8:0.1% --tier 1 | awk '$1 == "TOTAL" {print $4; exit}')
    echo "tier 1 under the rule: ${got:-none} passed (floor $want)"
    [ -n "$got" ] && [ "$got" -ge "$want" ] || { echo "the SVG suite's tier-1 pass count fell below the committed floor (${got:-none} < $want)" >&2; exit 1; }
fi
