//! The memory allocator of every program linking the core (the server, its tests and benchmarks): mimalloc in
//! place of the C library's. A tracking request or a sent message makes dozens of small short-lived allocations,
//! and glibc's allocator took about a seventh of the API's CPU under load (`malloc`, `free` and the consolidation of
//! its free lists in perf; docs/benchmarks.md, Tracking).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
