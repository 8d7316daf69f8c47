// libpng's simplified API (png_image_*), installed by Debian's libpng-dev.
#include <png.h>
