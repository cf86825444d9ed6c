//! A zero-initialised array of plain-old-data values backed by large pages
//! where the operating system offers them.
//!
//! The transposition table is probed at random addresses on almost every
//! node. With 4 KB pages a 16 MB table spans 4096 pages, far more than the
//! TLB holds, so most probes pay a page walk on top of the cache miss. On
//! Linux the buffer is aligned to 2 MB and marked `MADV_HUGEPAGE` before it
//! is first touched, so transparent huge pages back it (Stockfish does the
//! same). Elsewhere it is an ordinary aligned allocation.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Marker for types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Implementors must be plain data (no pointers, no niches, no `Drop`;
/// integers or atomic integers) for which zero bytes form a valid,
/// meaningful value.
pub unsafe trait Zeroable {}

pub struct LargeBuf<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Option<Layout>,
}

// SAFETY: LargeBuf owns its elements like a Vec<T>.
unsafe impl<T: Zeroable + Send> Send for LargeBuf<T> {}
// SAFETY: shared access only hands out &T.
unsafe impl<T: Zeroable + Sync> Sync for LargeBuf<T> {}

impl<T: Zeroable> LargeBuf<T> {
    /// `len` zeroed elements. Panics only if the allocation itself fails
    /// (like `Vec`).
    pub fn zeroed(len: usize) -> LargeBuf<T> {
        let bytes = len.saturating_mul(std::mem::size_of::<T>());
        if bytes == 0 {
            return LargeBuf {
                ptr: NonNull::dangling(),
                len,
                layout: None,
            };
        }
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let size = bytes.div_ceil(align) * align;
        let layout = match Layout::from_size_align(size, align) {
            Ok(l) => l,
            Err(_) => alloc::handle_alloc_error(Layout::new::<T>()),
        };
        // SAFETY: size > 0.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut T) else {
            alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is exactly our fresh allocation. Failure is
            // harmless (the pages simply stay small).
            unsafe {
                libc::madvise(raw as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
            }
        }
        // SAFETY: the allocation holds `size >= bytes` bytes; zero is a valid T.
        unsafe { std::ptr::write_bytes(raw, 0, size) };
        LargeBuf {
            ptr,
            len,
            layout: Some(layout),
        }
    }

    /// Resets every element to zero.
    pub fn clear(&mut self) {
        // SAFETY: len elements are allocated; zero is a valid T.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
    }
}

impl<T: Zeroable> std::ops::Deref for LargeBuf<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: ptr is valid for len initialised elements (or dangling with
        // len * size_of == 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for LargeBuf<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as above, and we hold &mut self.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargeBuf<T> {
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: allocated in `zeroed` with this layout.
            unsafe { alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // SAFETY: u64 is plain data.
    unsafe impl Zeroable for u64 {}

    #[test]
    fn zeroed_writable_and_cleared() {
        for len in [0usize, 1, 1000, 300_000, (4 << 20) / 8] {
            let mut b = LargeBuf::<u64>::zeroed(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&x| x == 0));
            if len > 0 {
                b[0] = 3;
                b[len - 1] = 7;
                assert_eq!(b[len - 1], 7);
                assert_eq!(b[0], if len == 1 { 7 } else { 3 });
                b.clear();
                assert!(b.iter().all(|&x| x == 0));
            }
        }
    }
}
