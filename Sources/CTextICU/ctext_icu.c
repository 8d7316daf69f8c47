#include "ctext_icu.h"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>

int32_t ctext_line_breaks(const uint16_t *text, int32_t length, int32_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(UBRK_LINE, "", (const UChar *)text, length, &status);
    if (U_FAILURE(status) || it == NULL) return -1;
    int32_t count = 0;
    ubrk_first(it);
    for (int32_t b = ubrk_next(it); b != UBRK_DONE; b = ubrk_next(it)) {
        if (count < capacity) out[count] = b;
        count++;
    }
    ubrk_close(it);
    return count;
}

int32_t ctext_line_break_is_hard(const uint16_t *text, int32_t length, int32_t offset) {
    if (offset <= 0 || offset > length) return 0;
    uint16_t c = text[offset - 1];
    // LF, VT, FF, CR, NEL, LS, PS: the mandatory breaks of UAX #14 (BK, CR, LF, NL).
    return c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D || c == 0x85 || c == 0x2028 || c == 0x2029;
}

#include <unicode/ubidi.h>
#include <unicode/uscript.h>

int32_t ctext_bidi_levels(const uint16_t *text, int32_t length, uint8_t *levels, uint8_t *paragraph_levels) {
    if (length <= 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status) || bidi == NULL) return -1;
    ubidi_setPara(bidi, (const UChar *)text, length, UBIDI_DEFAULT_LTR, NULL, &status);
    if (U_FAILURE(status)) { ubidi_close(bidi); return -1; }
    const UBiDiLevel *got = ubidi_getLevels(bidi, &status);
    if (U_FAILURE(status) || got == NULL) { ubidi_close(bidi); return -1; }
    for (int32_t i = 0; i < length; i++) levels[i] = got[i];
    int32_t count = ubidi_countParagraphs(bidi);
    for (int32_t p = 0; p < count; p++) {
        int32_t start = 0, limit = 0;
        UBiDiLevel level = 0;
        ubidi_getParagraphByIndex(bidi, p, &start, &limit, &level, &status);
        if (U_FAILURE(status)) { ubidi_close(bidi); return -1; }
        for (int32_t i = start; i < limit && i < length; i++) paragraph_levels[i] = level;
    }
    ubidi_close(bidi);
    return 0;
}

int32_t ctext_script_name(uint32_t scalar, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode code = uscript_getScript((UChar32)scalar, &status);
    if (U_FAILURE(status)) return -1;
    const char *name = uscript_getName(code);
    if (name == NULL) return -1;
    int32_t n = 0;
    for (; name[n] != 0; n++) {
        if (n + 1 < capacity) out[n] = name[n];
    }
    if (capacity > 0) out[n + 1 < capacity ? n : capacity - 1] = 0;
    return n;
}
