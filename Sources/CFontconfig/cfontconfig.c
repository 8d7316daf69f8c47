#include "cfontconfig.h"

#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <string.h>

// fontconfig's configuration is built once and only read after; calls are serialised, as
// fontconfig's thread safety has varied between versions.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FcConfig *config = NULL;

// LeakSanitizer's switch, present only when a sanitizer runtime is linked (weak: null otherwise).
// fontconfig 2.14.1 keeps two blocks it allocates while parsing its XML configuration, once per
// process; they are not this project's leak, and fontconfig and expat have no frame pointers, so
// a suppression by name cannot see their stack. What fontconfig allocates while loading its
// configuration is therefore not tracked; every later query is.
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

static FcConfig *load_config(void) {
    if (__lsan_disable) __lsan_disable();
    FcConfig *loaded = FcInitLoadConfigAndFonts();
    if (__lsan_enable) __lsan_enable();
    return loaded;
}

int cfontconfig_start(void) {
    pthread_mutex_lock(&lock);
    if (config == NULL) config = load_config();
    int status = config ? 0 : -1;
    pthread_mutex_unlock(&lock);
    return status;
}

int cfontconfig_match(const uint32_t *scalars, int count, int bold, int italic, char *path, int capacity, int *index) {
    if (count <= 0 || capacity <= 0) return -1;
    int status = -1;
    pthread_mutex_lock(&lock);
    if (config == NULL) config = load_config();
    FcPattern *pattern = config ? FcPatternCreate() : NULL;
    FcCharSet *wanted = pattern ? FcCharSetCreate() : NULL;
    if (wanted != NULL) {
        for (int i = 0; i < count; i++) FcCharSetAddChar(wanted, scalars[i]);
        FcPatternAddCharSet(pattern, FC_CHARSET, wanted);
        FcPatternAddInteger(pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR);
        FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN);
        FcConfigSubstitute(config, pattern, FcMatchPattern);
        FcDefaultSubstitute(pattern);
        FcResult result;
        FcFontSet *fonts = FcFontSort(config, pattern, FcTrue, NULL, &result);
        for (int f = 0; fonts != NULL && f < fonts->nfont && status != 0; f++) {
            FcCharSet *has = NULL;
            FcChar8 *file = NULL;
            int face = 0;
            if (FcPatternGetCharSet(fonts->fonts[f], FC_CHARSET, 0, &has) != FcResultMatch) continue;
            if (FcCharSetSubtractCount(wanted, has) != 0) continue;
            if (FcPatternGetString(fonts->fonts[f], FC_FILE, 0, &file) != FcResultMatch) continue;
            FcPatternGetInteger(fonts->fonts[f], FC_INDEX, 0, &face);
            size_t length = strlen((const char *)file);
            if (length + 1 > (size_t)capacity) continue;
            memcpy(path, file, length + 1);
            *index = face;
            status = 0;
        }
        if (fonts != NULL) FcFontSetDestroy(fonts);
        FcCharSetDestroy(wanted);
    }
    if (pattern != NULL) FcPatternDestroy(pattern);
    pthread_mutex_unlock(&lock);
    return status;
}
