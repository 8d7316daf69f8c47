// pixman's public API, installed by Debian's libpixman-1-dev.
#include <pixman.h>
