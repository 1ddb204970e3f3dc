//! The global allocator: mimalloc, called as std calls the system's malloc.
//!
//! A lookup allocates many small strings, hashes and arrays; mimalloc serves
//! them in about half the instructions of glibc's malloc (measured with
//! callgrind on the bench repos). Its v2 line, because with v3 the cold pass
//! on the large bench repo took longer (medians of 20 interleaved runs: 42
//! against 36 ms in one piece, 40 against 32.5 ms read on two threads).
//! Without transparent huge pages (`no_thp`: it does not ask for them), as a
//! run that follows a second of idleness had its huge pages' first touches
//! take 0.12 to 0.2 s in the kernel here: cold pass on large 65-96 ms with
//! them, 27-43 ms without (eight runs each, alternating).
//!
//! The `mimalloc` crate calls the aligned entry points for every block,
//! which check the alignment first; the plain ones already give what almost
//! every Rust allocation asks for, as glibc's do for std.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc's plain `malloc` aligns blocks of 16 bytes and more to 16, and
/// smaller ones to their size class.
const PLAIN_ALIGN: usize = 16;

/// The allocator (see the module's documentation).
pub struct MiMalloc;

fn plain(align: usize, size: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

// SAFETY: each method hands the layout's size and alignment to mimalloc's
// matching entry point, which returns null on failure, as GlobalAlloc wants.
unsafe impl GlobalAlloc for MiMalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if plain(layout.align(), layout.size()) {
            unsafe { mi::mi_malloc(layout.size()) }
        } else {
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) }
        };
        p.cast()
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = if plain(layout.align(), layout.size()) {
            unsafe { mi::mi_zalloc(layout.size()) }
        } else {
            unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()) }
        };
        p.cast()
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = if plain(layout.align(), new_size) {
            unsafe { mi::mi_realloc(ptr.cast::<c_void>(), new_size) }
        } else {
            unsafe { mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()) }
        };
        p.cast()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_the_alignment_asked_for() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 8, 15, 16, 24, 100, 5000, 70_000] {
                let Ok(layout) = Layout::from_size_align(size, align) else { continue };
                unsafe {
                    let p = MiMalloc.alloc(layout);
                    assert!(!p.is_null() && p as usize % align == 0, "alloc {size} by {align}");
                    p.write_bytes(7, size);
                    let q = MiMalloc.realloc(p, layout, size * 3);
                    assert!(!q.is_null() && q as usize % align == 0, "realloc {size} by {align}");
                    assert_eq!(*q.add(size - 1), 7);
                    MiMalloc.dealloc(q, Layout::from_size_align(size * 3, align).unwrap());
                    let z = MiMalloc.alloc_zeroed(layout);
                    assert!(!z.is_null() && z as usize % align == 0 && *z.add(size - 1) == 0);
                    MiMalloc.dealloc(z, layout);
                }
            }
        }
    }
}
