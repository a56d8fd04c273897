//! The FFI boundary: panic catching, the per-thread last error message, handles and their locks, and every
//! conversion of a raw pointer. All the `unsafe` of the crate that touches caller memory is in this file.

use core::ffi::c_char;
use core::ptr::{self, NonNull};
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::fairmines_status;

/// A failed call: the status returned to C and a message naming the argument at fault.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: fairmines_status,
    pub(crate) message: String,
}

impl Failure {
    /// A core error, naming the argument as C spells it (`out_positions` where the core says `out`).
    pub(crate) fn named(error: fairmines::Error, argument: &str) -> Self {
        Failure { status: error.kind().into(), message: format!("{argument}: {}", error.detail()) }
    }

    pub(crate) fn null(argument: &str) -> Self {
        Failure { status: fairmines_status::FAIRMINES_NULL_POINTER, message: format!("{argument}: is NULL") }
    }
}

impl From<fairmines::Error> for Failure {
    fn from(error: fairmines::Error) -> Self {
        Failure { status: error.kind().into(), message: error.to_string() }
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

/// Runs the body of an exported function that returns a status: a panic becomes `FAIRMINES_PANIC`, a failure
/// its status; the message of either is kept for `fairmines_last_error()`.
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
/// # Safety: a non-NULL `ptr` points to `len` readable bytes that no one writes during the call.
pub(crate) unsafe fn input_str<'a>(ptr: *const c_char, len: usize, argument: &'static str) -> Result<&'a str, Failure> {
    let bytes = unsafe { input_bytes(ptr.cast::<u8>(), len, argument) }?;
    // Seeds are almost always ASCII (hex): `is_ascii` checks a word at a time, faster than `from_utf8`.
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        return Ok(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    core::str::from_utf8(bytes).map_err(|_| fairmines::Error::InvalidUtf8 { argument }.into())
}

/// [`input_str`] for an optional span: NULL is `None`. # Safety: as [`input_str`].
pub(crate) unsafe fn optional_str<'a>(
    ptr: *const c_char,
    len: usize,
    arg: &'static str,
) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() { Ok(None) } else { unsafe { input_str(ptr, len, arg) }.map(Some) }
}

/// Borrows a caller's byte span, checking for NULL and an impossible length. # Safety: as [`input_str`].
pub(crate) unsafe fn input_bytes<'a>(ptr: *const u8, len: usize, argument: &'static str) -> Result<&'a [u8], Failure> {
    if ptr.is_null() {
        return Err(Failure::null(argument));
    }
    if len > isize::MAX as usize {
        let message = format!("{argument}: length {len} is larger than any object can be");
        return Err(Failure { status: fairmines_status::FAIRMINES_LENGTH_TOO_LARGE, message });
    }
    // SAFETY: non-null, `len <= isize::MAX` readable bytes (the caller's guarantee), `u8` needs no alignment.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// An output pointer checked for NULL before any work is done.
pub(crate) fn output<T>(ptr: *mut T, argument: &'static str) -> Result<NonNull<T>, Failure> {
    NonNull::new(ptr).ok_or_else(|| Failure::null(argument))
}

/// Checks that a caller's buffer of `capacity` elements has room for `needed`; the error counts bytes.
pub(crate) fn room<T>(capacity: usize, needed: usize, argument: &'static str) -> Result<(), Failure> {
    if capacity < needed {
        let (needed, got) = (needed.saturating_mul(size_of::<T>()), capacity.saturating_mul(size_of::<T>()));
        return Err(Failure::named(fairmines::Error::BufferTooSmall { needed, got }, argument));
    }
    Ok(())
}

/// Copies a finished result into the caller's memory: the only write to an output, done last.
/// # Safety: `dst` must be valid for `src.len()` elements of writes and must not overlap `src`.
pub(crate) unsafe fn write_slice<T: Copy>(dst: NonNull<T>, src: &[T]) {
    // SAFETY: guaranteed by the caller; `src` is always a local value of ours, so they cannot overlap.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), dst.as_ptr(), src.len()) }
}

/// Checks `out` for NULL, then computes the value and stores it there: the call's one write.
/// # Safety: `out`, when not NULL, must be valid for a write of one `T` (alignment not needed).
pub(crate) unsafe fn put<T>(
    out: *mut T,
    argument: &'static str,
    value: impl FnOnce() -> Result<T, Failure>,
) -> Result<(), Failure> {
    let out = output(out, argument)?;
    let value = value()?;
    // SAFETY: guaranteed by the caller.
    unsafe { write_value(out, value) };
    Ok(())
}

/// Stores a whole value at a caller's pointer, which need not be aligned.
/// # Safety: `dst` must be valid for a write of `size_of::<T>()` bytes.
pub(crate) unsafe fn write_value<T>(dst: NonNull<T>, value: T) {
    // SAFETY: guaranteed by the caller; `write_unaligned` tolerates a misaligned pointer.
    unsafe { ptr::write_unaligned(dst.as_ptr(), value) }
}

/// The caller's output buffer as a slice, for the batch function whose core writes in place.
/// # Safety: `ptr` is valid for `len <= isize::MAX` bytes of writes, unaliased during the call.
pub(crate) unsafe fn output_slice<'a>(ptr: NonNull<u8>, len: usize) -> &'a mut [u8] {
    // SAFETY: guaranteed by the caller.
    unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), len) }
}

/// An opaque handle type of the header, and the value its lock guards.
pub(crate) trait Handle {
    type Value;
}

/// Takes the lock of the value behind a handle the library gave out, checking for NULL. A call on a handle that
/// another thread is using waits here until that call returns.
/// # Safety: a non-NULL `ptr` comes from [`give_handle`] and is not freed during the call.
pub(crate) unsafe fn lock<'a, H: Handle>(
    ptr: *const H,
    arg: &'static str,
) -> Result<MutexGuard<'a, H::Value>, Failure> {
    // SAFETY: guaranteed by the caller for a non-NULL pointer (`as_ref` handles NULL): a live
    // `Mutex<H::Value>`. Threads share it through shared references only; the mutex orders their calls.
    let handle = unsafe { ptr.cast::<Mutex<H::Value>>().as_ref() }.ok_or_else(|| Failure::null(arg))?;
    // A panic inside a call is a bug reported as FAIRMINES_PANIC; the value stays usable.
    Ok(handle.lock().unwrap_or_else(PoisonError::into_inner))
}

/// Gives a new handle to C: a locked `value` on the heap, its pointer stored at `out`.
/// # Safety: `out` must be valid for a write of one pointer.
pub(crate) unsafe fn give_handle<H: Handle>(out: NonNull<*mut H>, value: H::Value) {
    let raw = Box::into_raw(Box::new(Mutex::new(value))).cast::<H>();
    // SAFETY: guaranteed by the caller.
    unsafe { write_value(out, raw) }
}

/// Takes a handle back from C and drops it. NULL is a no-op.
/// # Safety: a non-NULL `ptr` comes from [`give_handle`] and was not freed before.
pub(crate) unsafe fn free_handle<H: Handle>(ptr: *mut H) {
    if !ptr.is_null() {
        // SAFETY: guaranteed by the caller: the pointer is a live `Box<Mutex<H::Value>>` from `give_handle`.
        value_call((), || drop(unsafe { Box::from_raw(ptr.cast::<Mutex<H::Value>>()) }))
    }
}

/// A caller's text output (`out`, `capacity`, `out_needed`), written through the text-output convention once
/// every pointer has been checked and `text` has run.
/// # Safety: `out` must be valid for `capacity` bytes of writes and `out_needed` for one `size_t`.
pub(crate) unsafe fn text_out(
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
    names: [&'static str; 2],
    text: impl FnOnce() -> Result<String, Failure>,
) -> Result<(), Failure> {
    let (buf, needed) = (output(out, names[0])?, output(out_needed, names[1])?);
    let text = text()?;
    // SAFETY: guaranteed by the caller; `room` checks that the text and its NUL fit.
    unsafe {
        write_value(needed, text.len() + 1);
        room::<u8>(capacity, text.len() + 1, names[0])?;
        write_slice(buf.cast::<u8>(), text.as_bytes());
        write_value(buf.add(text.len()), 0);
    }
    Ok(())
}
