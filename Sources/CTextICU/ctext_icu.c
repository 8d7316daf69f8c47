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
