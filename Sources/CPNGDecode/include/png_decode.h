#ifndef COMPOSITOR_PNG_DECODE_H
#define COMPOSITOR_PNG_DECODE_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a PNG held in memory into 8-bit, un-premultiplied pixels laid out as pixman's
/// a8r8g8b8 on a little-endian machine (bytes B, G, R, A), `stride` bytes a row.
///
/// Palette, grey, tRNS and 16-bit images are expanded or scaled (16 → 8 bits rounds to nearest);
/// no gamma transform is applied, so untagged data is taken as sRGB-encoded, as browsers do.
/// Interlaced images are de-interlaced.
///
/// Returns 1 on success with `*pixels` allocated by malloc (free it with free()), or 0 with a
/// message in `error` (NUL-terminated, at most `error_size` bytes). Images wider or taller than
/// `max_dimension`, or with more than `max_pixels` pixels, are refused before any allocation.
/// libpng's longjmp-based error handling stays inside this C function.
int compositor_png_decode(const uint8_t *data, size_t size, uint32_t max_dimension, uint64_t max_pixels,
                          uint32_t *width, uint32_t *height, uint8_t **pixels, size_t *stride,
                          char *error, size_t error_size);

#endif
