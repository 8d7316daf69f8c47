#ifndef CFONTCONFIG_H
#define CFONTCONFIG_H

#include <stdint.h>

/// The file of the installed font fontconfig prefers for `scalars` (the code points of one
/// grapheme), in the weight and slant asked for: the first font of fontconfig's sorted list
/// whose character set holds every scalar. Writes its NUL-terminated path (at most `capacity`
/// bytes) and its face index in a collection. Returns 0 when found, -1 when no font has them
/// (or fontconfig cannot start, or the path does not fit). Safe from any thread.
int cfontconfig_match(const uint32_t *scalars, int count, int bold, int italic, char *path, int capacity, int *index);

/// Loads fontconfig's configuration and font list now, once per process (otherwise the first
/// match does). Returns 0 when fontconfig started.
int cfontconfig_start(void);

#endif
