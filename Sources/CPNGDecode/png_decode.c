#include "png_decode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *error;
    size_t error_size;
};

static void on_error(png_structp png, png_const_charp message) {
    struct reader *r = (struct reader *)png_get_error_ptr(png);
    if (r->error && r->error_size) snprintf(r->error, r->error_size, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png; (void)message;   /* benign: e.g. an unknown ancillary chunk */
}

static void on_read(png_structp png, png_bytep out, png_size_t length) {
    struct reader *r = (struct reader *)png_get_io_ptr(png);
    if (length > r->size - r->offset) {
        png_error(png, "the file ends early (truncated)");
    }
    memcpy(out, r->data + r->offset, length);
    r->offset += length;
}

int compositor_png_decode(const uint8_t *data, size_t size, uint32_t max_dimension, uint64_t max_pixels,
                          uint32_t *width, uint32_t *height, uint8_t **pixels, size_t *stride,
                          char *error, size_t error_size) {
    struct reader r = { data, size, 0, error, error_size };
    /* volatile: these change between setjmp and a possible longjmp. */
    uint8_t *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    png_structp png = NULL;
    png_infop info = NULL;
    *pixels = NULL;

    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(error, error_size, "not a PNG file (bad signature)");
        return 0;
    }
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, on_error, on_warning);
    if (!png) { snprintf(error, error_size, "out of memory"); return 0; }
    info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); snprintf(error, error_size, "out of memory"); return 0; }

    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(buffer);
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    png_set_read_fn(png, &r, on_read);
    png_set_user_limits(png, max_dimension, max_dimension);
    png_read_info(png, info);

    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((uint64_t)w * (uint64_t)h > max_pixels) {
        png_error(png, "image is larger than the pixel limit");
    }
    int color = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);

    png_set_expand(png);                       /* palette → RGB, grey < 8 bits → 8, tRNS → alpha */
    if (depth == 16) png_set_scale_16(png);    /* 16 → 8 bits, rounded */
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);   /* opaque alpha where the file has none */
    png_set_bgr(png);                          /* B, G, R, A in memory: a8r8g8b8 little-endian */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t row_bytes = (size_t)w * 4;
    buffer = malloc(row_bytes * h);
    rows = malloc(sizeof(png_bytep) * h);
    if (!buffer || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = buffer + y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *width = w;
    *height = h;
    *stride = row_bytes;
    *pixels = buffer;
    return 1;
}
