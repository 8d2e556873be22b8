// glibc's allocator statistics (mallinfo2), which Swift's Glibc module does not include.
#include <malloc.h>
