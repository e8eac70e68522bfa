#include "CAllocatorStats.h"

#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ when glibc is the C library
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))  // mallinfo2 came in 2.33
#include <malloc.h>

long long courier_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}

void courier_release_free_memory(void) { malloc_trim(0); }
#else
long long courier_allocated_bytes(void) { return -1; }

void courier_release_free_memory(void) {}
#endif
