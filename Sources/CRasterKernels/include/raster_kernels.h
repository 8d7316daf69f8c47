#ifndef RASTER_KERNELS_H
#define RASTER_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// Asks the CPU to start loading the cache line at `p` for writing, without waiting for it.
/// Swift has no prefetch; the fused compositor walks a fill row by row, and each row's
/// destination pixels lie a canvas stride apart, so without a hint every row starts with a
/// cache miss (about 70 % of the blend kernels' time on S3-1k under perf).
static inline void raster_prefetch_for_write(const void *p) {
    __builtin_prefetch(p, 1, 3);
}

/// `count` premultiplied 8-bit (A/X)RGB pixels at `pixels` under the one premultiplied source
/// `source`, source-over, with pixman's arithmetic (`UN8x4_MUL_UN8_ADD_UN8x4`: the destination
/// times 255 − the source's alpha, rounded as pixman rounds, plus the source, saturated): the
/// same bytes as the engine's SSE2 Swift kernel (`SpanKernels.blendConstant`), eight pixels at
/// a time with AVX2 where the CPU has it. Returns how many pixels it blended: 0 where AVX2 is
/// missing (or disabled by `raster_kernels_use_avx2(0)`), else `count` rounded down to 8.
size_t raster_blend_constant(uint32_t *pixels, size_t count, uint32_t source);

/// `count` premultiplied 8-bit ARGB pixels of a layer at `layer`, each scaled by `m` (0…255, the
/// layer's opacity) and composited source-over onto the pixels at `pixels`, with pixman's
/// arithmetic (`over_8888_n_8888`: the layer pixel times `m`, then the destination times 255 −
/// that pixel's alpha, each rounded as pixman rounds, plus the scaled pixel, saturated): the
/// same bytes as `SpanKernels.compositeLayerSSE2`, eight pixels at a time with AVX2 where the CPU
/// has it. Returns how many pixels it composited: 0 without AVX2, else `count` rounded down to 8.
size_t raster_composite_layer(uint32_t *pixels, const uint32_t *layer, size_t count, uint32_t m);

/// `rows` rows of `count` premultiplied 8-bit ARGB pixels from `pixels` (rows `pixel_stride`
/// pixels apart) under the premultiplied `source` through the coverage bytes from `coverage`
/// (rows `coverage_stride` bytes apart), source-over, at the opacity `alpha8` (0…255), with
/// pixman's arithmetic for a solid source through an A8 mask made IN the opacity
/// (`UN8_MUL_UN8` of the coverage and `alpha8`, `UN8x4_MUL_UN8` of the source and that, then
/// `UN8x4_MUL_UN8_ADD_UN8x4` onto the destination, saturated): the same bytes as the glyph-mask
/// kernel's SSE2 Swift path (`MaskKernels.blendRow`), eight pixels at a time with AVX2 where
/// the CPU has it. `reach` (≥ `count`): how far coverage bytes may be read and pixels rewritten;
/// the last pixels then go as one more group of 8 or 4, the bytes past `count` masked off.
/// Returns how many pixels of each row it blended (the same for every row: it depends on
/// `count` and `reach` only): 0 without AVX2, `count` when done, else the pixels before each
/// row's last few (for the caller to finish).
size_t raster_blend_mask_rows(uint32_t *pixels, size_t pixel_stride, const uint8_t *coverage, size_t coverage_stride,
                              size_t rows, size_t count, size_t reach, uint32_t source, uint32_t alpha8);

/// How a cell sum becomes an 8-bit coverage (the engine's `CoverageFold`): `full` is a full
/// pixel's sum, `cut` the bits dropped from it to leave 2^16, `scale` the opacity × 255 × 256.
typedef struct {
    int32_t full;
    uint32_t cut;
    int32_t even_odd;
    uint32_t scale;
} raster_fold;

/// A band of the cell rasterizer's rows walked and composited under the premultiplied
/// `source` onto its pixels, `width` pixels wide: the same bytes as the engine's Swift walk
/// (`walkRow` into `SolidOverSink`). Row r's cells are at `cells + r * cell_stride`, touched
/// in `first[r] ..< last[r]` (none where first ≥ last), its pixels at
/// `pixels + r * pixel_stride`. Cells are prefix-summed eight at a time and folded into
/// coverage; runs of untouched cells are one span of the running coverage; the colour goes
/// source-over with pixman's arithmetic; a row's last one to seven cells are masked lanes. The
/// cells read are zeroed, and so are those from `width` to `last[r]`. Resets each row's range
/// to none (`first[r] = INT32_MAX`, `last[r] = 0`) and starts loading the next row's pixels
/// while it walks one. One call per band: a stroke's rows are a few cells each, where a call
/// per row cost as much as the row. `row_sources`: a colour per row (a gradient along the rows), or NULL for
/// `source` on every row. Returns 1 when done, 0 (touching nothing) where AVX2 is missing or
/// disabled.
int raster_walk_band_solid(int32_t *cells, size_t cell_stride, size_t rows, int32_t *first, int32_t *last, size_t width,
                           const raster_fold *fold, uint32_t *pixels, size_t pixel_stride, uint32_t source,
                           const uint32_t *row_sources);

/// A crossing of two pieces of a strip, seen from one of them (the engine's `CrossingEvent`,
/// field for field: 16 bytes, the height first).
typedef struct {
    double y;
    int32_t piece;
    int32_t delta;
} raster_crossing;

/// The pieces of a strip resolved exactly, in order of their left ends (`xmin`), one array per
/// field: `index` is each piece's place in the strip's own list, `contour` −1 for guard pieces.
typedef struct {
    const double *xmin, *xmax, *xa, *ya, *xb, *yb, *slope;
    const int32_t *dir, *index, *contour;
    size_t count;
} raster_strip_pieces;

/// The crossing search of the exact tier (`resolveRowExactly`, step 1) with AVX2, four pairs
/// at a time: for each piece from `*next` on (guard pieces skipped), every later piece whose
/// left end is not right of its right end is a pair; pairs that cross inside their common
/// height append two events at `events + *count`. The same events, in the same order and to
/// the bit, as the Swift loop (no fused multiply-adds). `*pairs` counts the pairs looked at.
/// Returns −1 (touching nothing) where AVX2 is missing or disabled; 0 when done; 1 when the
/// next piece's pairs might not fit in `capacity` events (`*next` is that piece: grow and call
/// again); 2 when `*pairs` passed `budget` after a piece (stop: the strip is too crowded).
int raster_exact_crossings(const raster_strip_pieces *p, size_t *next, int64_t *pairs, int64_t budget,
                           raster_crossing *events, size_t *count, size_t capacity);

/// The winding left of a point where a piece starts inside a strip (`countStartWindings`,
/// counted one by one) with AVX2, four pieces at a time: into `*winding`, the sum of `dir` over
/// the first `count` pieces of `p` (the sorted prefix that can reach the point) that are
/// present just below height `y` (ya ≤ y < yb) and pass left of (x, slope, `self`) — x at `y`
/// by the line from the piece's top, below x, or equal with a smaller slope, or equal slopes
/// and a smaller `index` — leaving out the pieces whose `index` is `self` or `partner`. The same
/// sum as the Swift loop. Returns −1 (touching nothing) where AVX2 is missing or disabled, else 0.
int raster_count_left(const raster_strip_pieces *p, size_t count, double x, double y, double slope, int32_t self,
                      int32_t partner, int32_t *winding);

/// A fixed-point edge of the cell rasterizer (`FixedEdge`): top end first, `dir` its winding.
typedef struct {
    int32_t x0, y0, x1, y1, dir;
} raster_fixed_edge;

/// Converts segments lying inside a region to fixed-point edges (`CellRasterizer.add`), with
/// AVX2: segment i is `segments[4i ..< 4i + 4]` (x0, y0, x1, y1, device pixels), moved by
/// −(`origin_x`, `origin_y`). Each end becomes ⌊v · `one` + ½⌋ (v ≥ 0), ends ordered top
/// first with `dir` +1 where the segment ran down, −1 up; segments whose rounded ends share a
/// height, or with both ends at x ≥ `width`, are dropped. The same edges, bit for bit, as the
/// Swift clip of segments inside the region. Stops before the first segment with an end
/// outside [0, `width`] × [0, `height`] (or not a number): returns how many segments it took
/// (`*written`: the edges stored in `out`, which has room for one per segment), or −1
/// (touching nothing) where AVX2 is missing or disabled.
ptrdiff_t raster_fix_inside_segments(const double *segments, size_t count, double origin_x, double origin_y, double one,
                                     double width, double height, raster_fixed_edge *out, size_t *written);

/// Whether `raster_blend_constant`, `raster_composite_layer`, `raster_blend_mask_rows`, `raster_walk_band_solid`,
/// `raster_exact_crossings`, `raster_count_left` and `raster_fix_inside_segments` may use AVX2 (when the CPU has it); for tests that check
/// both paths give the same bytes. Returns whether AVX2 is used from now on.
int raster_kernels_use_avx2(int allowed);

/// Whether the AVX2 kernels are in use (the CPU has AVX2 and they are not switched off), so a
/// caller can skip preparing their input where they would return at once.
int raster_kernels_avx2_in_use(void);

/// Asks glibc's malloc to keep up to `trim_bytes` of freed memory at the top of its heaps
/// instead of giving it back to the system (`M_TRIM_THRESHOLD`), and to serve blocks up to
/// `heap_block_bytes` (at most 32 MiB, glibc's limit) from its heaps rather than from a fresh
/// mapping each (`M_MMAP_THRESHOLD`). Memory given back and asked for again every frame is
/// paid for in page faults. Returns 1 when both were set, 0 elsewhere (another C library, or a
/// value glibc refuses).
int raster_keep_freed_memory(size_t trim_bytes, size_t heap_block_bytes);

/// The bytes malloc holds free in all its heaps (`mallinfo2`'s `fordblks`), for tests; 0
/// without glibc.
size_t raster_heap_free_bytes(void);

#endif
