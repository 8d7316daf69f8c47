#!/bin/sh
# Disassembles the pixel kernels of an optimised build and fails when one of them calls
# anything: their SIMD code must compile to plain SSE2 instructions (RASTER.md §3.5 lists what
# Swift turns into calls or scalar loops instead). Usage: check-kernel-calls.sh OBJECT...
# (the release object files of Compositor, e.g. .build/release/Compositor.build/*.o).
#
# The kernels, by the Swift names their mangled symbols contain:
KERNELS="MaskKernelsO8blendRow SpanKernelsO9blendQuad SpanKernelsO17blendConstantSSE2 SpanKernelsO18compositeLayerSSE2"
set -e
[ $# -gt 0 ] || { echo "usage: $0 OBJECT..." >&2; exit 64; }
status=0
for kernel in $KERNELS; do
  found=0
  for object in "$@"; do
    # Each function of the object whose symbol contains the kernel's name, its instructions.
    listing=$(objdump -dr --no-show-raw-insn "$object" | awk -v k="$kernel" '
      /^[0-9a-f]+ <.*>:$/ { inside = index($2, k) > 0; if (inside) print "FUNCTION " $2; next }
      inside { print }')
    [ -n "$listing" ] || continue
    found=1
    # In an object file a call's target is a relocation: every call instruction counts, and so
    # does a jump to another function (a PLT32 relocation: a tail call).
    calls=$(printf '%s\n' "$listing" | grep -E '\scall\s|R_X86_64_PLT32' || true)
    if [ -n "$calls" ]; then
      echo "check-kernels: $kernel calls out in $object:" >&2
      printf '%s\n' "$calls" >&2
      status=1
    else
      echo "check-kernels: $kernel: $(printf '%s\n' "$listing" | grep -c '^ ') instructions, no calls"
    fi
  done
  if [ $found = 0 ]; then
    echo "check-kernels: no function named like $kernel in $*: renamed or inlined?" >&2
    status=1
  fi
done
exit $status
