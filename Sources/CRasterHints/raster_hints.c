// The target's functions are all static inline in its header; this file gives SwiftPM a
// source to compile.
#include "raster_hints.h"
