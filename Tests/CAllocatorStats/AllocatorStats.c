#include "CAllocatorStats.h"

#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ when glibc is the C library
#endif

#if defined(__GLIBC__)
#include <malloc.h>

long long courier_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
long long courier_allocated_bytes(void) { return -1; }
#endif
