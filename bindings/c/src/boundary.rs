//! The FFI boundary: panic catching, the per-thread last error message, and every conversion of a raw
//! pointer. All the `unsafe` of the crate that touches caller memory is in this file.

use core::ffi::c_char;
use core::ptr::{self, NonNull};
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::fairmines_status;

/// A failed call: the status returned to C and a message naming the argument at fault.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: fairmines_status,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(status: fairmines_status, message: String) -> Self {
        Failure { status, message }
    }

    pub(crate) fn null(argument: &str) -> Self {
        Failure { status: fairmines_status::FAIRMINES_NULL_POINTER, message: format!("{argument}: is NULL") }
    }

    pub(crate) fn too_small(argument: &str, needed: usize, got: usize) -> Self {
        Failure {
            status: fairmines_status::FAIRMINES_BUFFER_TOO_SMALL,
            message: format!("{argument}: the output needs {needed} bytes, the buffer has {got}"),
        }
    }

    fn too_long(argument: &str, len: usize) -> Self {
        Failure {
            status: fairmines_status::FAIRMINES_LENGTH_TOO_LARGE,
            message: format!("{argument}: length {len} is larger than any object can be"),
        }
    }
}

impl From<fairmines::Error> for Failure {
    fn from(error: fairmines::Error) -> Self {
        Failure { status: fairmines_status::from_code(error.code()), message: error.to_string() }
    }
}

thread_local! {
    /// The message of the last failed call on this thread, NUL-terminated.
    static LAST_ERROR: RefCell<Vec<u8>> = RefCell::new(vec![0]);
}

fn record(message: &str) {
    // `try_with`: during thread teardown the slot may be gone; the status alone is still returned.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            slot.clear();
            // An interior NUL would cut the C string short; messages never have one, but be safe.
            slot.extend(message.bytes().map(|b| if b == 0 { b'?' } else { b }));
            slot.push(0);
        }
    });
}

/// A pointer to the last recorded message (valid until the next failing call on this thread).
pub(crate) fn last_error() -> *const c_char {
    LAST_ERROR
        .try_with(|slot| slot.try_borrow().map(|s| s.as_ptr().cast::<c_char>()).ok())
        .ok()
        .flatten()
        .unwrap_or(c"".as_ptr())
}

/// Runs the body of an exported function that returns a status: a panic becomes `FAIRMINES_PANIC`,
/// a failure its status; the message of either is kept for `fairmines_last_error()`.
pub(crate) fn status_call(body: impl FnOnce() -> Result<(), Failure>) -> fairmines_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => fairmines_status::FAIRMINES_OK,
        Ok(Err(failure)) => {
            record(&failure.message);
            failure.status
        }
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("no message");
            record(&format!("internal error: a Rust panic was caught at the C boundary ({detail})"));
            // A payload whose destructor panics again would abort here; none of ours does.
            drop(payload);
            fairmines_status::FAIRMINES_PANIC
        }
    }
}

/// Runs the body of an exported function that returns a plain value: a panic gives `on_panic`.
pub(crate) fn value_call<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// Borrows a caller's UTF-8 span as `&str`, checking for NULL, an impossible length and invalid UTF-8.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable bytes that no one writes during the call.
pub(crate) unsafe fn input_str<'a>(ptr: *const c_char, len: usize, argument: &'static str) -> Result<&'a str, Failure> {
    let bytes = unsafe { input_bytes(ptr.cast::<u8>(), len, argument) }?;
    // Seeds are almost always ASCII (hex): `is_ascii` checks that a word at a time, faster than the
    // full UTF-8 validation, which still judges every other input.
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        return Ok(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    core::str::from_utf8(bytes).map_err(|_| fairmines::Error::InvalidUtf8 { argument }.into())
}

/// Borrows a caller's byte span, checking for NULL and an impossible length.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable bytes that no one writes during the call.
pub(crate) unsafe fn input_bytes<'a>(ptr: *const u8, len: usize, argument: &'static str) -> Result<&'a [u8], Failure> {
    if ptr.is_null() {
        return Err(Failure::null(argument));
    }
    if len > isize::MAX as usize {
        return Err(Failure::too_long(argument, len));
    }
    // SAFETY: `ptr` is non-null, the caller guarantees `len` readable bytes that stay unchanged for
    // the call, `u8` needs no alignment and `len` fits in `isize` (checked above).
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// An output pointer checked for NULL before any work is done.
pub(crate) fn output<T>(ptr: *mut T, argument: &'static str) -> Result<NonNull<T>, Failure> {
    NonNull::new(ptr).ok_or_else(|| Failure::null(argument))
}

/// An output buffer of `capacity` bytes checked for NULL and for room for `needed` bytes.
pub(crate) fn output_buffer(
    ptr: *mut u8,
    capacity: usize,
    needed: usize,
    argument: &'static str,
) -> Result<NonNull<u8>, Failure> {
    let ptr = output(ptr, argument)?;
    if capacity < needed {
        return Err(Failure::too_small(argument, needed, capacity));
    }
    Ok(ptr)
}

/// Copies a finished result into the caller's memory: the only write to an output, done last.
///
/// # Safety
/// `dst` must be valid for `src.len()` bytes of writes and must not overlap `src`.
pub(crate) unsafe fn write_bytes<T: Copy>(dst: NonNull<T>, src: &[T]) {
    // SAFETY: guaranteed by the caller; `src` is always a local value of ours, so they cannot overlap.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), dst.as_ptr(), src.len()) }
}

/// Stores a whole value at a caller's pointer, which need not be aligned.
///
/// # Safety
/// `dst` must be valid for a write of `size_of::<T>()` bytes.
pub(crate) unsafe fn write_value<T>(dst: NonNull<T>, value: T) {
    // SAFETY: guaranteed by the caller; `write_unaligned` tolerates a misaligned pointer.
    unsafe { ptr::write_unaligned(dst.as_ptr(), value) }
}

/// The caller's output buffer as a slice, for the batch function whose core writes in place.
///
/// # Safety
/// `ptr` must be valid for `len` bytes of writes, unaliased during the call, and `len <= isize::MAX`.
pub(crate) unsafe fn output_slice<'a>(ptr: NonNull<u8>, len: usize) -> &'a mut [u8] {
    // SAFETY: guaranteed by the caller.
    unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), len) }
}

/// Borrows a handle the library gave out, checking for NULL.
///
/// # Safety
/// A non-NULL `ptr` must come from this library's `_new` function of that type, not freed yet, and not
/// used by another thread during the call (the header's ownership and threading rules).
pub(crate) unsafe fn handle_ref<'a, T>(ptr: *const T, argument: &'static str) -> Result<&'a T, Failure> {
    // SAFETY: guaranteed by the caller for a non-NULL pointer; `as_ref` handles NULL.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(argument))
}

/// Borrows a handle mutably, checking for NULL.
///
/// # Safety
/// As [`handle_ref`], and no other reference to the handle exists during the call.
pub(crate) unsafe fn handle_mut<'a, T>(ptr: *mut T, argument: &'static str) -> Result<&'a mut T, Failure> {
    // SAFETY: guaranteed by the caller for a non-NULL pointer; `as_mut` handles NULL.
    unsafe { ptr.as_mut() }.ok_or_else(|| Failure::null(argument))
}

/// Gives a new handle to C: boxes `value` and stores the pointer at `out` (checked for NULL before).
///
/// # Safety
/// `out` must be valid for a write of one pointer.
pub(crate) unsafe fn give_handle<T>(out: NonNull<*mut T>, value: T) {
    let raw = Box::into_raw(Box::new(value));
    // SAFETY: guaranteed by the caller.
    unsafe { write_value(out, raw) }
}

/// Takes a handle back from C and drops it. NULL is a no-op.
///
/// # Safety
/// A non-NULL `ptr` must come from [`give_handle`] for the same `T` and not have been freed before.
pub(crate) unsafe fn free_handle<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: guaranteed by the caller: the pointer is a live `Box<T>` given out by `give_handle`.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// A caller's text output buffer (`out`, `capacity`, `out_needed`), checked for NULL before any work.
pub(crate) struct TextOut {
    buf: NonNull<c_char>,
    capacity: usize,
    needed: NonNull<usize>,
    argument: &'static str,
}

impl TextOut {
    pub(crate) fn new(
        buf: *mut c_char,
        capacity: usize,
        needed: *mut usize,
        argument: &'static str,
        needed_argument: &'static str,
    ) -> Result<Self, Failure> {
        Ok(TextOut { buf: output(buf, argument)?, capacity, needed: output(needed, needed_argument)?, argument })
    }

    /// Checks that `text` and a NUL fit; stores the size they need at `out_needed` either way.
    ///
    /// # Safety
    /// `out_needed` must be valid for a write of one `size_t`.
    pub(crate) unsafe fn reserve(&self, text: &[u8]) -> Result<(), Failure> {
        let needed = text.len() + 1;
        // SAFETY: guaranteed by the caller.
        unsafe { write_value(self.needed, needed) };
        if self.capacity < needed {
            return Err(Failure::too_small(self.argument, needed, self.capacity));
        }
        Ok(())
    }

    /// Writes `text` and a NUL (after a successful [`TextOut::reserve`] of the same text).
    ///
    /// # Safety
    /// `out` must be valid for `capacity` bytes of writes and must not overlap `text`.
    pub(crate) unsafe fn write(&self, text: &[u8]) {
        debug_assert!(text.len() < self.capacity);
        // SAFETY: guaranteed by the caller; `reserve` checked `text.len() + 1 <= capacity`.
        unsafe {
            write_bytes(self.buf.cast::<u8>(), text);
            write_value(self.buf.add(text.len()), 0);
        }
    }

    /// [`TextOut::reserve`] then [`TextOut::write`].
    ///
    /// # Safety
    /// The contracts of both.
    pub(crate) unsafe fn put(&self, text: &[u8]) -> Result<(), Failure> {
        // SAFETY: guaranteed by the caller.
        unsafe {
            self.reserve(text)?;
            self.write(text);
        }
        Ok(())
    }
}
