// AVX2 kernels of the fused compositor, chosen at run time (RASTER.md §3.5: only after the
// SSE2 Swift kernels exist as the reference and the fallback).
#include "raster_kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// -1: not asked yet; 0: no; 1: yes. Atomic: render threads may ask at the same time.
static int avx2_state = -1;

static int has_avx2(void) {
    int state = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (state < 0) {
        __builtin_cpu_init();
        state = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

int raster_kernels_avx2_in_use(void) { return has_avx2(); }

int raster_kernels_use_avx2(int allowed) {
    __builtin_cpu_init();
    int state = allowed && __builtin_cpu_supports("avx2") ? 1 : 0;
    __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    return state;
}

// t / 255 rounded as pixman rounds x · a / 255, per 16-bit lane, for t = x · a + 128 (x, a ≤ 255):
// pixman's (t + (t >> 8)) >> 8 equals (t · 257) >> 16, the high half of one multiplication,
// for every such t (t + ⌊t / 256⌋ and t + t / 256 differ by less than 1, so no multiple of
// 256 lies between them; all 65,536 pairs run through the kernels in `BlendArithmeticTests`).
__attribute__((target("avx2")))
static inline __m256i divide_255(__m256i t) {
    return _mm256_mulhi_epu16(t, _mm256_set1_epi16(257));
}

__attribute__((target("avx2")))
static size_t blend_constant_avx2(uint32_t *pixels, size_t count, uint32_t source) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i half = _mm256_set1_epi16(0x80);
    const __m256i keep = _mm256_set1_epi16((short)(255 - (source >> 24)));
    const __m256i s = _mm256_set1_epi32((int)source);
    // The source's channels in 16-bit lanes, as the destination's are unpacked below.
    const __m256i s_lo = _mm256_unpacklo_epi8(s, zero), s_hi = _mm256_unpackhi_epi8(s, zero);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i d = _mm256_loadu_si256((const __m256i *)(pixels + i));
        __m256i lo = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), keep), half);
        __m256i hi = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), keep), half);
        // x · a / 255 rounded as pixman rounds.
        lo = divide_255(lo);
        hi = divide_255(hi);
        // Plus the source; packing with unsigned saturation is pixman's saturated add.
        __m256i out = _mm256_packus_epi16(_mm256_add_epi16(lo, s_lo), _mm256_add_epi16(hi, s_hi));
        _mm256_storeu_si256((__m256i *)(pixels + i), out);
    }
    return i;
}

size_t raster_blend_constant(uint32_t *pixels, size_t count, uint32_t source) {
    return has_avx2() ? blend_constant_avx2(pixels, count, source) : 0;
}

// x · a / 255 per 16-bit lane, rounded as pixman rounds: (t + (t >> 8)) >> 8, t = x · a + 128.
__attribute__((target("avx2")))
static inline __m256i scale_lanes(__m256i x, __m256i a) {
    return divide_255(_mm256_add_epi16(_mm256_mullo_epi16(x, a), _mm256_set1_epi16(0x80)));
}

__attribute__((target("avx2")))
static size_t composite_layer_avx2(uint32_t *pixels, const uint32_t *layer, size_t count, uint32_t m) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i m16 = _mm256_set1_epi16((short)m);
    const __m256i full = _mm256_set1_epi16(255);
    const __m256i alpha = _mm256_set1_epi32((int)0xff000000u);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(layer + i));
        // Transparent layer pixels leave the destination as it is.
        if (_mm256_testz_si256(s, s)) continue;
        // Opaque pixels at full opacity replace it.
        if (m == 255 && _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_and_si256(s, alpha), alpha)) == -1) {
            _mm256_storeu_si256((__m256i *)(pixels + i), s);
            continue;
        }
        const __m256i s_lo = scale_lanes(_mm256_unpacklo_epi8(s, zero), m16);
        const __m256i s_hi = scale_lanes(_mm256_unpackhi_epi8(s, zero), m16);
        // 255 − each scaled pixel's alpha, in all four of its lanes.
        const __m256i k_lo = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(s_lo, 0xff), 0xff));
        const __m256i k_hi = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(s_hi, 0xff), 0xff));
        const __m256i d = _mm256_loadu_si256((const __m256i *)(pixels + i));
        const __m256i lo = scale_lanes(_mm256_unpacklo_epi8(d, zero), k_lo);
        const __m256i hi = scale_lanes(_mm256_unpackhi_epi8(d, zero), k_hi);
        // Packing with unsigned saturation is pixman's saturated add.
        _mm256_storeu_si256((__m256i *)(pixels + i), _mm256_packus_epi16(_mm256_add_epi16(lo, s_lo), _mm256_add_epi16(hi, s_hi)));
    }
    return i;
}

size_t raster_composite_layer(uint32_t *pixels, const uint32_t *layer, size_t count, uint32_t m) {
    return has_avx2() ? composite_layer_avx2(pixels, layer, count, m) : 0;
}

// Eight pixels at `p` under the source (`s_lo`, `s_hi`: its channels in 16-bit lanes, as
// `_mm256_unpacklo/hi_epi8` leave the destination's) through the coverages of `m` (each
// pixel's coverage, 0…255, in all four bytes of its 32-bit lane): the source times the
// coverage, then source-over, each product rounded as pixman rounds. Full coverage keeps the
// source exactly (x · 255 / 255 = x); none gives 0, which leaves the destination as it is.
__attribute__((target("avx2")))
static inline __m256i blended8(__m256i d, __m256i m, __m256i s_lo, __m256i s_hi) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i full = _mm256_set1_epi16(255);
    const __m256i m_lo = _mm256_unpacklo_epi8(m, zero), m_hi = _mm256_unpackhi_epi8(m, zero);
    const __m256i c_lo = scale_lanes(s_lo, m_lo), c_hi = scale_lanes(s_hi, m_hi);
    const __m256i k_lo = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(c_lo, 0xff), 0xff));
    const __m256i k_hi = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(c_hi, 0xff), 0xff));
    const __m256i lo = scale_lanes(_mm256_unpacklo_epi8(d, zero), k_lo);
    const __m256i hi = scale_lanes(_mm256_unpackhi_epi8(d, zero), k_hi);
    return _mm256_packus_epi16(_mm256_add_epi16(lo, c_lo), _mm256_add_epi16(hi, c_hi));
}

__attribute__((target("avx2")))
static inline void blend_coverage8(uint32_t *p, __m256i m, __m256i s_lo, __m256i s_hi) {
    const __m256i d = _mm256_loadu_si256((const __m256i *)p);
    _mm256_storeu_si256((__m256i *)p, blended8(d, m, s_lo, s_hi));
}

// Each 32-bit lane's low byte copied into its four bytes.
__attribute__((target("avx2")))
static inline __m256i spread_low_bytes(__m256i v) {
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12,
                                            0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
    return _mm256_shuffle_epi8(v, spread);
}

// Eight pixels at `p` under the eight coverage bytes of `bytes` (the first in the low byte).
__attribute__((target("avx2")))
static inline void blend_mask8(uint32_t *p, uint64_t bytes, __m256i s_lo, __m256i s_hi, uint32_t alpha8) {
    __m256i m = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)bytes));
    if (alpha8 != 255) {
        // IN by the opacity first: coverage · alpha8 / 255 (in 16-bit lanes: the values fit).
        const __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(m, _mm256_set1_epi16((short)alpha8)), _mm256_set1_epi16(0x80));
        m = _mm256_and_si256(divide_255(t), _mm256_set1_epi32(0xff));
    }
    blend_coverage8(p, spread_low_bytes(m), s_lo, s_hi);
}

__attribute__((target("avx2")))
static size_t blend_mask_row_avx2(uint32_t *pixels, const uint8_t *coverage, size_t count, size_t reach, uint32_t source,
                                  uint32_t alpha8) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i s = _mm256_set1_epi32((int)source);
    const __m256i s_lo = _mm256_unpacklo_epi8(s, zero), s_hi = _mm256_unpackhi_epi8(s, zero);
    const int opaque = source >> 24 == 255 && alpha8 == 255;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t bytes;
        __builtin_memcpy(&bytes, coverage + i, 8);
        if (bytes == 0) continue;
        // Fully covered by an opaque colour at full opacity: the colour itself (pixman's
        // arithmetic gives exactly that: the destination times 255 − 255 is 0).
        if (opaque && bytes == UINT64_MAX) {
            _mm256_storeu_si256((__m256i *)(pixels + i), s);
            continue;
        }
        blend_mask8(pixels + i, bytes, s_lo, s_hi, alpha8);
    }
    const size_t rest = count - i;
    if (rest == 0) return count;
    // The last pixels, as one more group of 8 (or 4) where the row may be read and rewritten
    // that far: the bytes past `count` are masked off, and coverage 0 leaves a pixel as it is.
    if (i + 8 <= reach) {
        uint64_t bytes;
        __builtin_memcpy(&bytes, coverage + i, 8);
        bytes &= UINT64_MAX >> (64 - 8 * rest);
        if (bytes != 0) blend_mask8(pixels + i, bytes, s_lo, s_hi, alpha8);
        return count;
    }
    if (rest <= 4 && i + 4 <= reach) {
        // Four: through a copy of eight pixels, the last four with no coverage.
        uint32_t bytes32;
        __builtin_memcpy(&bytes32, coverage + i, 4);
        const uint64_t bytes = bytes32 & (UINT32_MAX >> (32 - 8 * rest));
        if (bytes != 0) {
            uint32_t quad[8] = {0};
            __builtin_memcpy(quad, pixels + i, 16);
            blend_mask8(quad, bytes, s_lo, s_hi, alpha8);
            __builtin_memcpy(pixels + i, quad, 16);
        }
        return count;
    }
    return i;
}

// The rows one after another in one call: a glyph's rows are 10 to 20 pixels, so a call and
// the kernel's constants per row cost about as much as the blending.
__attribute__((target("avx2")))
static size_t blend_mask_rows_avx2(uint32_t *pixels, size_t pixel_stride, const uint8_t *coverage, size_t coverage_stride,
                                   size_t rows, size_t count, size_t reach, uint32_t source, uint32_t alpha8) {
    size_t done = count;
    for (size_t r = 0; r < rows; r++) {
        done = blend_mask_row_avx2(pixels + r * pixel_stride, coverage + r * coverage_stride, count, reach, source, alpha8);
    }
    return done;
}

size_t raster_blend_mask_rows(uint32_t *pixels, size_t pixel_stride, const uint8_t *coverage, size_t coverage_stride,
                              size_t rows, size_t count, size_t reach, uint32_t source, uint32_t alpha8) {
    return has_avx2() ? blend_mask_rows_avx2(pixels, pixel_stride, coverage, coverage_stride, rows, count, reach, source, alpha8) : 0;
}

// --- The fused walk of a row of cells under a solid colour ---------------------------------

// A cell sum's 8-bit coverage: `CoverageFold.coverage`, to the bit. The fill rule's fold of
// |sum| (non-zero: min(|sum|, full); even-odd: the distance to the nearest even multiple of
// `full`), cut to 16 bits, times `scale` (opacity × 255 × 256), rounded.
static inline uint32_t fold_coverage(int32_t sum, const raster_fold *f) {
    const uint32_t sign = (uint32_t)(sum >> 31);
    const uint32_t magnitude = ((uint32_t)sum ^ sign) - sign;
    uint32_t c;
    if (f->even_odd) {
        const int32_t d = (int32_t)(magnitude & (uint32_t)(2 * f->full - 1)) - f->full;
        const int32_t s = d >> 31;
        c = (uint32_t)(f->full - ((d ^ s) - s));
    } else {
        c = magnitude < (uint32_t)f->full ? magnitude : (uint32_t)f->full;
    }
    return ((c >> f->cut) * f->scale + (1u << 23)) >> 24;
}

// `x` times `a` / 255 per channel, rounded as pixman rounds (`UN8x4_MUL_UN8`).
static inline uint32_t multiply_channels(uint32_t x, uint32_t a) {
    uint32_t t = (x & 0x00ff00ffu) * a + 0x00800080u;
    t = ((t + ((t >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
    uint32_t u = ((x >> 8) & 0x00ff00ffu) * a + 0x00800080u;
    u = (u + ((u >> 8) & 0x00ff00ffu)) & 0xff00ff00u;
    return t | u;
}

// One pixel under the scaled source `s`, source-over (`UN8x4_MUL_UN8_ADD_UN8x4`, saturated).
static inline uint32_t over_pixel(uint32_t d, uint32_t s) {
    const uint32_t keep = 255 - (s >> 24);
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t t = ((d >> shift) & 0xff) * keep + 0x80;
        t = ((t + (t >> 8)) >> 8) + ((s >> shift) & 0xff);
        out |= (t > 255 ? 255 : t) << shift;
    }
    return out;
}


// `count` pixels under one colour at one coverage `m` (not 0): stored where both are full,
// else the colour × `m` blended source-over (`SpanKernels.solidSpan`).
__attribute__((target("avx2")))
static void solid_span_avx2(uint32_t *p, size_t count, uint32_t source, uint32_t m) {
    if (m == 255 && source >> 24 == 255) {
        const __m256i s = _mm256_set1_epi32((int)source);
        size_t i = 0;
        for (; i + 8 <= count; i += 8) _mm256_storeu_si256((__m256i *)(p + i), s);
        for (; i < count; i++) p[i] = source;
        return;
    }
    const uint32_t s = m == 255 ? source : multiply_channels(source, m);
    for (size_t i = blend_constant_avx2(p, count, s); i < count; i++) p[i] = over_pixel(p[i], s);
}

// Eight int32 lanes' running sums, plus `carry`.
__attribute__((target("avx2")))
static inline __m256i prefix_sums8(__m256i v, int32_t carry) {
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 4));
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 8));
    // The low half's total, added to the high half.
    const __m256i low_total = _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(3));
    v = _mm256_add_epi32(v, _mm256_blend_epi32(_mm256_setzero_si256(), low_total, 0xf0));
    return _mm256_add_epi32(v, _mm256_set1_epi32(carry));
}

// `fold_coverage` of eight sums.
__attribute__((target("avx2")))
static inline __m256i fold_coverage8(__m256i sums, const raster_fold *f) {
    const __m256i sign = _mm256_srai_epi32(sums, 31);
    const __m256i magnitude = _mm256_sub_epi32(_mm256_xor_si256(sums, sign), sign);
    const __m256i full = _mm256_set1_epi32(f->full);
    __m256i c;
    if (f->even_odd) {
        const __m256i d = _mm256_sub_epi32(_mm256_and_si256(magnitude, _mm256_set1_epi32(2 * f->full - 1)), full);
        const __m256i s = _mm256_srai_epi32(d, 31);
        c = _mm256_sub_epi32(full, _mm256_sub_epi32(_mm256_xor_si256(d, s), s));
    } else {
        c = _mm256_min_epu32(magnitude, full);
    }
    const __m256i cut = _mm256_srl_epi32(c, _mm_cvtsi32_si128((int)f->cut));
    const __m256i product = _mm256_mullo_epi32(cut, _mm256_set1_epi32((int)f->scale));
    return _mm256_srli_epi32(_mm256_add_epi32(product, _mm256_set1_epi32(1 << 23)), 24);
}

__attribute__((target("avx2")))
static void walk_row_solid_avx2(int32_t *cells, size_t first, size_t last, size_t width, size_t cell_stride,
                                const raster_fold *fold, uint32_t *pixels, uint32_t source) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i s = _mm256_set1_epi32((int)source);
    const __m256i s_lo = _mm256_unpacklo_epi8(s, zero), s_hi = _mm256_unpackhi_epi8(s, zero);
    const __m256i opaque_all = _mm256_set1_epi32(255);
    const int opaque = source >> 24 == 255;
    const size_t end = last < width ? last : width;
    int32_t sum = 0;
    size_t x = first;
    while (x < end) {
        if (x + 8 <= end) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(cells + x));
            if (_mm256_testz_si256(v, v)) {
                // Untouched cells: one span of the running coverage (none where it is 0).
                // Found 32 cells at a time first: a shape's interior is a long run of them.
                size_t run = x + 8;
                while (run + 32 <= end) {
                    const __m256i *c = (const __m256i *)(cells + run);
                    const __m256i any = _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(c), _mm256_loadu_si256(c + 1)),
                                                        _mm256_or_si256(_mm256_loadu_si256(c + 2), _mm256_loadu_si256(c + 3)));
                    if (!_mm256_testz_si256(any, any)) break;
                    run += 32;
                }
                while (run + 8 <= end) {
                    const __m256i w = _mm256_loadu_si256((const __m256i *)(cells + run));
                    if (!_mm256_testz_si256(w, w)) break;
                    run += 8;
                }
                const uint32_t m = fold_coverage(sum, fold);
                if (m != 0) solid_span_avx2(pixels + x, run - x, source, m);
                x = run;
                continue;
            }
            _mm256_storeu_si256((__m256i *)(cells + x), zero);
            v = prefix_sums8(v, sum);
            sum = _mm256_extract_epi32(v, 7);
            const __m256i m = fold_coverage8(v, fold);
            if (!_mm256_testz_si256(m, m)) {
                if (opaque && _mm256_movemask_epi8(_mm256_cmpeq_epi32(m, opaque_all)) == -1) {
                    _mm256_storeu_si256((__m256i *)(pixels + x), s);
                } else {
                    blend_coverage8(pixels + x, spread_low_bytes(m), s_lo, s_hi);
                }
            }
            x += 8;
            continue;
        }
        // The last 1 to 7 cells before `end`, as eight lanes of which the rest are masked off.
        const int n = (int)(end - x);
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        if (x + 8 <= width && x + 8 <= cell_stride) {
            // Eight whole lanes are the row's own cells and pixels: plain loads and stores, not
            // masked ones (a masked store is many micro-ops on AMD cores, and nearly every row
            // of a thin stroke ends with one). The lanes from `end` on hold untouched cells, 0
            // (`end` < `width`, so it is `last`): their sums are the row's last, and their
            // coverage is masked to 0, which leaves their pixels as they are (`blended8`).
            __m256i v = _mm256_loadu_si256((const __m256i *)(cells + x));
            _mm256_storeu_si256((__m256i *)(cells + x), _mm256_setzero_si256());
            v = prefix_sums8(v, sum);
            sum = _mm256_extract_epi32(v, 7);
            const __m256i m = _mm256_and_si256(fold_coverage8(v, fold), mask);
            if (!_mm256_testz_si256(m, m)) blend_coverage8(pixels + x, spread_low_bytes(m), s_lo, s_hi);
            break;
        }
        // Otherwise masked loads read the lanes past `end` as 0, and masked stores leave them.
        __m256i v = _mm256_maskload_epi32(cells + x, mask);
        _mm256_maskstore_epi32(cells + x, mask, zero);
        v = prefix_sums8(v, sum);
        sum = _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(n - 1)));
        const __m256i m = _mm256_and_si256(fold_coverage8(v, fold), mask);
        if (!_mm256_testz_si256(m, m)) {
            const __m256i d = _mm256_maskload_epi32((const int *)(pixels + x), mask);
            _mm256_maskstore_epi32((int *)(pixels + x), mask, blended8(d, spread_low_bytes(m), s_lo, s_hi));
        }
        break;
    }
    if (end < width) {
        // Past the last touched cell the winding is constant.
        const uint32_t m = fold_coverage(sum, fold);
        if (m != 0) solid_span_avx2(pixels + end, width - end, source, m);
    }
    // Cells right of the region, which edges on its right side touch.
    for (size_t c = first > width ? first : width; c < last; c++) cells[c] = 0;
}

__attribute__((target("avx2")))
static void walk_band_solid_avx2(int32_t *cells, size_t cell_stride, size_t rows, int32_t *first, int32_t *last, size_t width,
                                 const raster_fold *fold, uint32_t *pixels, size_t pixel_stride, uint32_t source,
                                 const uint32_t *row_sources) {
    for (size_t r = 0; r < rows; r++) {
        const int32_t lo = first[r], hi = last[r];
        first[r] = INT32_MAX;
        last[r] = 0;
        // The next row's pixels are a stride away: start loading them now.
        if (r + 1 < rows && first[r + 1] < last[r + 1]) {
            const size_t from = (size_t)first[r + 1], to = (size_t)last[r + 1] < width ? (size_t)last[r + 1] : width;
            if (from < to) {
                const uint32_t *next = pixels + (r + 1) * pixel_stride;
                __builtin_prefetch(next + from, 1, 3);
                if (to - from > 16) __builtin_prefetch(next + to - 1, 1, 3);
            }
        }
        if (lo < hi) {
            walk_row_solid_avx2(cells + r * cell_stride, (size_t)lo, (size_t)hi, width, cell_stride, fold,
                                pixels + r * pixel_stride, row_sources ? row_sources[r] : source);
        }
    }
}

int raster_walk_band_solid(int32_t *cells, size_t cell_stride, size_t rows, int32_t *first, int32_t *last, size_t width,
                           const raster_fold *fold, uint32_t *pixels, size_t pixel_stride, uint32_t source,
                           const uint32_t *row_sources) {
    if (!has_avx2()) return 0;
    walk_band_solid_avx2(cells, cell_stride, rows, first, last, width, fold, pixels, pixel_stride, source, row_sources);
    return 1;
}

// The exact tier's crossing search (`resolveRowExactly`, step 1), four pairs at a time. Every
// value is computed with the operations of the Swift loop in the same order, without fused
// multiply-adds, so the events are the same bits and come in the same order.
#pragma clang fp contract(off)

// 64-bit lanes below `n` (0 to 4) all ones, the others 0: a mask for `_mm256_maskload_pd`.
__attribute__((target("avx2")))
static inline __m256i lanes_below(size_t n) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)n), _mm256_setr_epi64x(0, 1, 2, 3));
}

__attribute__((target("avx2")))
static int exact_crossings_avx2(const raster_strip_pieces *p, size_t *next, int64_t *pairs, int64_t budget,
                                raster_crossing *events, size_t *count, size_t capacity) {
    const size_t k = p->count;
    const double *xmin = p->xmin, *xa = p->xa, *ya = p->ya, *xb = p->xb, *yb = p->yb, *slope = p->slope;
    size_t n = *count;
    const __m256d zero = _mm256_setzero_pd();
    for (size_t a = *next; a < k; a++) {
        // Guard pieces cross nothing (see the Swift loop).
        if (p->contour[a] == -1) continue;
        const double right = p->xmax[a];
        size_t end = a + 1;
        // Sorted by left end: the pairs end at the first piece starting right of `right`.
        const __m256d vright = _mm256_set1_pd(right);
        for (;;) {
            if (end + 4 > k) {
                // The last one to three pieces, by a masked load (lanes from k on count as past).
                if (end < k) {
                    const __m256i lanes = lanes_below(k - end);
                    const int past = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_maskload_pd(xmin + end, lanes), vright, _CMP_GT_OQ))
                                   | (~_mm256_movemask_pd(_mm256_castsi256_pd(lanes)) & 0xf);
                    end += (size_t)__builtin_ctz((unsigned)past);
                }
                break;
            }
            const int past = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(xmin + end), vright, _CMP_GT_OQ));
            if (past) {
                end += (size_t)__builtin_ctz((unsigned)past);
                break;
            }
            end += 4;
        }
        const size_t m = end - a - 1;
        if (n + 2 * m > capacity) {
            *next = a;
            *count = n;
            return 1;
        }
        *pairs += (int64_t)m;
        const double xai = xa[a], yai = ya[a], xbi = xb[a], ybi = yb[a], si = slope[a];
        const __m256d vxa = _mm256_set1_pd(xai), vya = _mm256_set1_pd(yai), vxb = _mm256_set1_pd(xbi),
                      vyb = _mm256_set1_pd(ybi), vs = _mm256_set1_pd(si);
        // Four pairs a step; the last one to three by masked loads, their other lanes' results
        // dropped (a branch per pair there was mispredicted about as often as it was taken).
        for (size_t b = a + 1; b < end; b += 4) {
            const int whole = b + 4 <= end;
            const __m256i lanes = whole ? _mm256_set1_epi64x(-1) : lanes_below(end - b);
            const __m256d yaj = _mm256_maskload_pd(ya + b, lanes), ybj = _mm256_maskload_pd(yb + b, lanes);
            const __m256d xaj = _mm256_maskload_pd(xa + b, lanes), xbj = _mm256_maskload_pd(xb + b, lanes),
                          sj = _mm256_maskload_pd(slope + b, lanes);
            // max(ya_i, ya_j) and min(yb_i, yb_j) as Swift's max and min pick them.
            const __m256d y0 = _mm256_blendv_pd(vya, yaj, _mm256_cmp_pd(yaj, vya, _CMP_GE_OQ));
            const __m256d y1 = _mm256_blendv_pd(vyb, ybj, _mm256_cmp_pd(ybj, vyb, _CMP_LT_OQ));
            const __m256d d0 = _mm256_sub_pd(_mm256_add_pd(vxa, _mm256_mul_pd(_mm256_sub_pd(y0, vya), vs)),
                                             _mm256_add_pd(xaj, _mm256_mul_pd(_mm256_sub_pd(y0, yaj), sj)));
            const __m256d ei = _mm256_blendv_pd(_mm256_add_pd(vxa, _mm256_mul_pd(_mm256_sub_pd(y1, vya), vs)), vxb,
                                                _mm256_cmp_pd(y1, vyb, _CMP_GE_OQ));
            const __m256d ej = _mm256_blendv_pd(_mm256_add_pd(xaj, _mm256_mul_pd(_mm256_sub_pd(y1, yaj), sj)), xbj,
                                                _mm256_cmp_pd(y1, ybj, _CMP_GE_OQ));
            const __m256d d1 = _mm256_sub_pd(ei, ej);
            const __m256d opposite = _mm256_or_pd(
                _mm256_and_pd(_mm256_cmp_pd(d0, zero, _CMP_LT_OQ), _mm256_cmp_pd(d1, zero, _CMP_GT_OQ)),
                _mm256_and_pd(_mm256_cmp_pd(d0, zero, _CMP_GT_OQ), _mm256_cmp_pd(d1, zero, _CMP_LT_OQ)));
            int mask = _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(y1, y0, _CMP_GT_OQ), opposite))
                     & _mm256_movemask_pd(_mm256_castsi256_pd(lanes));
            if (mask == 0) continue;
            // The heights of the four (meaningless where they do not cross), as the Swift loop
            // computes them: min(y1, max(y0, y0 + (y1 − y0) · (d0 / (d0 − d1)))), with Swift's
            // max and min (which operand each returns on a tie or a NaN).
            const __m256d t = _mm256_add_pd(y0, _mm256_mul_pd(_mm256_sub_pd(y1, y0), _mm256_div_pd(d0, _mm256_sub_pd(d0, d1))));
            const __m256d lifted = _mm256_blendv_pd(y0, t, _mm256_cmp_pd(t, y0, _CMP_GE_OQ));
            const __m256d yc = _mm256_blendv_pd(y1, lifted, _mm256_cmp_pd(lifted, y1, _CMP_LT_OQ));
            double heights[4];
            _mm256_storeu_pd(heights, yc);
            const int positive = _mm256_movemask_pd(_mm256_cmp_pd(d0, zero, _CMP_GT_OQ));
            const int32_t di = p->dir[a], ia = p->index[a];
            while (mask) {
                const int lane = __builtin_ctz((unsigned)mask);
                mask &= mask - 1;
                // a left of b at y0 and right of it at y1: b joins a's left side, and a leaves b's.
                const int32_t sign = (positive >> lane) & 1 ? -1 : 1;
                const size_t j = b + (size_t)lane;
                events[n].y = heights[lane];
                events[n].piece = ia;
                events[n].delta = sign * p->dir[j];
                events[n + 1].y = heights[lane];
                events[n + 1].piece = p->index[j];
                events[n + 1].delta = -sign * di;
                n += 2;
            }
        }
        if (*pairs > budget) {
            *next = a + 1;
            *count = n;
            return 2;
        }
    }
    *next = k;
    *count = n;
    return 0;
}

// The winding left of a start (`countStartWindings`, counted one by one), four pieces at a
// time: each piece's x at the start's height by the Swift loop's operations (no fused
// multiply-add), the same comparisons, and the directions of those that count summed. The
// sum is of integers, so the order of adding them cannot change it.
__attribute__((target("avx2")))
static int32_t count_left_avx2(const raster_strip_pieces *p, size_t count, double x, double y, double slope, int32_t self,
                               int32_t partner) {
    const double *xa = p->xa, *ya = p->ya, *yb = p->yb, *sl = p->slope;
    const int32_t *dir = p->dir, *index = p->index;
    const __m256d vx = _mm256_set1_pd(x), vy = _mm256_set1_pd(y), vs = _mm256_set1_pd(slope);
    const __m128i vself = _mm_set1_epi32(self), vpartner = _mm_set1_epi32(partner);
    // The low 32 bits of each 64-bit lane, in order: a mask of doubles as four int32 lanes.
    const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m128i sums = _mm_setzero_si128();
    size_t b = 0;
    for (; b + 4 <= count; b += 4) {
        const __m256d qya = _mm256_loadu_pd(ya + b), qsl = _mm256_loadu_pd(sl + b);
        const __m256d xq = _mm256_add_pd(_mm256_loadu_pd(xa + b), _mm256_mul_pd(_mm256_sub_pd(vy, qya), qsl));
        const __m128i j = _mm_loadu_si128((const __m128i *)(index + b));
        // j < self, as the tie's last word.
        const __m256d before = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_cmplt_epi32(j, vself)));
        const __m256d tie = _mm256_or_pd(_mm256_cmp_pd(qsl, vs, _CMP_LT_OQ), _mm256_and_pd(_mm256_cmp_pd(qsl, vs, _CMP_EQ_OQ), before));
        const __m256d left = _mm256_or_pd(_mm256_cmp_pd(xq, vx, _CMP_LT_OQ), _mm256_and_pd(_mm256_cmp_pd(xq, vx, _CMP_EQ_OQ), tie));
        const __m256d present = _mm256_and_pd(_mm256_cmp_pd(qya, vy, _CMP_LE_OQ), _mm256_cmp_pd(vy, _mm256_loadu_pd(yb + b), _CMP_LT_OQ));
        const __m256i counts64 = _mm256_castpd_si256(_mm256_and_pd(left, present));
        const __m128i counts = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(counts64, low_halves));
        const __m128i others = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi32(j, vself), _mm_cmpeq_epi32(j, vpartner)), counts);
        sums = _mm_add_epi32(sums, _mm_and_si128(_mm_loadu_si128((const __m128i *)(dir + b)), others));
    }
    sums = _mm_add_epi32(sums, _mm_shuffle_epi32(sums, 0x4e));
    sums = _mm_add_epi32(sums, _mm_shuffle_epi32(sums, 0xb1));
    int32_t w = _mm_cvtsi128_si32(sums);
    for (; b < count; b++) {
        const double xq = xa[b] + (y - ya[b]) * sl[b];
        const int32_t j = index[b];
        const int left = xq < x || (xq == x && (sl[b] < slope || (sl[b] == slope && j < self)));
        if (j != self && j != partner && ya[b] <= y && y < yb[b] && left) w += dir[b];
    }
    return w;
}

int raster_count_left(const raster_strip_pieces *p, size_t count, double x, double y, double slope, int32_t self,
                      int32_t partner, int32_t *winding) {
    if (!has_avx2()) return -1;
    *winding = count_left_avx2(p, count, x, y, slope, self, partner);
    return 0;
}

int raster_exact_crossings(const raster_strip_pieces *p, size_t *next, int64_t *pairs, int64_t budget,
                           raster_crossing *events, size_t *count, size_t capacity) {
    if (!has_avx2()) return -1;
    return exact_crossings_avx2(p, next, pairs, budget, events, count, capacity);
}

// Segments inside a region to fixed-point edges (`CellRasterizer.add`): the Swift clip's
// arithmetic for segments it keeps whole, four coordinates at a time (no fused multiply-adds
// here either, so the products round as Swift's do).
__attribute__((target("avx2")))
static size_t fix_inside_segments_avx2(const double *segments, size_t count, double origin_x, double origin_y, double one,
                                       double width, double height, raster_fixed_edge *out, size_t *written) {
    const __m256d origin = _mm256_setr_pd(origin_x, origin_y, origin_x, origin_y);
    const __m256d limit = _mm256_setr_pd(width, height, width, height);
    const __m256d zero = _mm256_setzero_pd();
    const __m256d scale = _mm256_set1_pd(one), half = _mm256_set1_pd(0.5);
    size_t n = 0, i = 0;
    for (; i < count; i++) {
        const __m256d v = _mm256_sub_pd(_mm256_loadu_pd(segments + 4 * i), origin);
        // Every end in [0, width] × [0, height] (false for NaN), else the Swift clip takes it.
        const __m256d within = _mm256_and_pd(_mm256_cmp_pd(v, zero, _CMP_GE_OQ), _mm256_cmp_pd(v, limit, _CMP_LE_OQ));
        if (_mm256_movemask_pd(within) != 0xF) break;
        // v ≥ 0: truncating v · one + ½ rounds it, as `Int32(v * one + 0.5)` does.
        const __m128i f = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(v, scale), half));
        const int32_t fy0 = _mm_extract_epi32(f, 1), fy1 = _mm_extract_epi32(f, 3);
        // Rounding keeps order, so the rounded heights give the direction; equal ones (a
        // segment flat at fixed-point precision, or flat outright) add nothing.
        const int down = fy0 < fy1;
        const __m128i edge = down ? f : _mm_shuffle_epi32(f, _MM_SHUFFLE(1, 0, 3, 2));
        // Both ends on the region's right side: nothing of it lies inside.
        const int right = (_mm256_movemask_pd(_mm256_cmp_pd(v, limit, _CMP_GE_OQ)) & 0x5) == 0x5;
        _mm_storeu_si128((__m128i *)&out[n].x0, edge);
        out[n].dir = down ? 1 : -1;
        n += (size_t)((fy0 != fy1) & !right);
    }
    *written = n;
    return i;
}

ptrdiff_t raster_fix_inside_segments(const double *segments, size_t count, double origin_x, double origin_y, double one,
                                     double width, double height, raster_fixed_edge *out, size_t *written) {
    if (!has_avx2()) return -1;
    return (ptrdiff_t)fix_inside_segments_avx2(segments, count, origin_x, origin_y, one, width, height, out, written);
}

#else

int raster_kernels_use_avx2(int allowed) { (void)allowed; return 0; }
int raster_kernels_avx2_in_use(void) { return 0; }
ptrdiff_t raster_fix_inside_segments(const double *segments, size_t count, double origin_x, double origin_y, double one,
                                     double width, double height, raster_fixed_edge *out, size_t *written) {
    (void)segments; (void)count; (void)origin_x; (void)origin_y; (void)one; (void)width; (void)height; (void)out;
    (void)written;
    return -1;
}
int raster_exact_crossings(const raster_strip_pieces *p, size_t *next, int64_t *pairs, int64_t budget,
                           raster_crossing *events, size_t *count, size_t capacity) {
    (void)p; (void)next; (void)pairs; (void)budget; (void)events; (void)count; (void)capacity;
    return -1;
}
int raster_count_left(const raster_strip_pieces *p, size_t count, double x, double y, double slope, int32_t self,
                      int32_t partner, int32_t *winding) {
    (void)p; (void)count; (void)x; (void)y; (void)slope; (void)self; (void)partner; (void)winding;
    return -1;
}
int raster_walk_band_solid(int32_t *cells, size_t cell_stride, size_t rows, int32_t *first, int32_t *last, size_t width,
                           const raster_fold *fold, uint32_t *pixels, size_t pixel_stride, uint32_t source,
                           const uint32_t *row_sources) {
    (void)cells; (void)cell_stride; (void)rows; (void)first; (void)last; (void)width; (void)fold; (void)pixels;
    (void)pixel_stride; (void)source; (void)row_sources;
    return 0;
}
size_t raster_blend_constant(uint32_t *pixels, size_t count, uint32_t source) {
    (void)pixels; (void)count; (void)source;
    return 0;
}
size_t raster_composite_layer(uint32_t *pixels, const uint32_t *layer, size_t count, uint32_t m) {
    (void)pixels; (void)layer; (void)count; (void)m;
    return 0;
}
size_t raster_blend_mask_rows(uint32_t *pixels, size_t pixel_stride, const uint8_t *coverage, size_t coverage_stride,
                              size_t rows, size_t count, size_t reach, uint32_t source, uint32_t alpha8) {
    (void)pixels; (void)pixel_stride; (void)coverage; (void)coverage_stride; (void)rows; (void)count; (void)reach; (void)source;
    (void)alpha8;
    return 0;
}

#endif

#if defined(__GLIBC__)
#include <limits.h>
#include <malloc.h>

int raster_keep_freed_memory(size_t trim_bytes, size_t heap_block_bytes) {
    const size_t int_max = (size_t)INT_MAX;
    const int trim = (int)(trim_bytes < int_max ? trim_bytes : int_max);
    const int block = (int)(heap_block_bytes < int_max ? heap_block_bytes : int_max);
    // Both set: setting either stops glibc adjusting them by itself.
    return mallopt(M_MMAP_THRESHOLD, block) == 1 && mallopt(M_TRIM_THRESHOLD, trim) == 1;
}

size_t raster_heap_free_bytes(void) {
    return mallinfo2().fordblks;
}
#else
int raster_keep_freed_memory(size_t trim_bytes, size_t heap_block_bytes) {
    (void)trim_bytes; (void)heap_block_bytes;
    return 0;
}

size_t raster_heap_free_bytes(void) { return 0; }
#endif
