#ifndef C_ALLOCATOR_STATS_H
#define C_ALLOCATOR_STATS_H

/// Bytes the C allocator has handed out and not yet taken back: glibc's `mallinfo2`, summed over every
/// arena plus mmapped blocks. Freed memory the allocator keeps for reuse is not counted, unlike resident
/// memory. Returns -1 where glibc (2.33 or later) is not the allocator.
long long courier_allocated_bytes(void);

/// Gives freed memory the allocator keeps back to the system (glibc's `malloc_trim`), so resident memory
/// starts from what is in use; does nothing elsewhere.
void courier_release_free_memory(void);

#endif
