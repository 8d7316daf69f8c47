// cairo's C API, installed by Debian's libcairo2-dev (a peer for comparison, never shipped).
#include <cairo.h>
