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

int raster_kernels_use_avx2(int allowed) {
    __builtin_cpu_init();
    int state = allowed && __builtin_cpu_supports("avx2") ? 1 : 0;
    __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    return state;
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
        // x · a / 255 rounded as pixman rounds: (t + (t >> 8)) >> 8 with t = x · a + 128.
        lo = _mm256_srli_epi16(_mm256_add_epi16(lo, _mm256_srli_epi16(lo, 8)), 8);
        hi = _mm256_srli_epi16(_mm256_add_epi16(hi, _mm256_srli_epi16(hi, 8)), 8);
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
    const __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, a), _mm256_set1_epi16(0x80));
    return _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
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

// Eight pixels at `p` under the eight coverage bytes of `bytes` (the first in the low byte).
__attribute__((target("avx2")))
static inline void blend_mask8(uint32_t *p, uint64_t bytes, __m256i s_lo, __m256i s_hi, uint32_t alpha8) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i full = _mm256_set1_epi16(255);
    // Each pixel's coverage byte (the low byte of its 32-bit lane) copied into its four bytes.
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12,
                                            0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
    const __m256i m = _mm256_shuffle_epi8(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)bytes)), spread);
    __m256i m_lo = _mm256_unpacklo_epi8(m, zero), m_hi = _mm256_unpackhi_epi8(m, zero);
    if (alpha8 != 255) {
        // IN by the opacity first: coverage · alpha8 / 255.
        const __m256i a16 = _mm256_set1_epi16((short)alpha8);
        m_lo = scale_lanes(m_lo, a16);
        m_hi = scale_lanes(m_hi, a16);
    }
    // The source under that coverage (full coverage keeps it exactly: x · 255 / 255 = x; none
    // gives 0, which leaves the destination exactly as it is).
    const __m256i c_lo = scale_lanes(s_lo, m_lo), c_hi = scale_lanes(s_hi, m_hi);
    const __m256i k_lo = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(c_lo, 0xff), 0xff));
    const __m256i k_hi = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(c_hi, 0xff), 0xff));
    const __m256i d = _mm256_loadu_si256((const __m256i *)p);
    const __m256i lo = scale_lanes(_mm256_unpacklo_epi8(d, zero), k_lo);
    const __m256i hi = scale_lanes(_mm256_unpackhi_epi8(d, zero), k_hi);
    _mm256_storeu_si256((__m256i *)p, _mm256_packus_epi16(_mm256_add_epi16(lo, c_lo), _mm256_add_epi16(hi, c_hi)));
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

#else

int raster_kernels_use_avx2(int allowed) { (void)allowed; return 0; }
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
