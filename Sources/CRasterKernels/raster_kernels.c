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

#endif
