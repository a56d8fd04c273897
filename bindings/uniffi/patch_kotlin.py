#!/usr/bin/env python3
"""Makes the Kotlin file UniFFI 0.32.2 generates allocate no native memory per call (run by generate.sh).

    python3 bindings/uniffi/patch_kotlin.py FILE.kt     # rewrites FILE.kt in place

Why. The generated Kotlin calls Rust through JNA. As generated, every call builds JNA `Structure`s: a
`UniffiRustCallStatus` (two `Memory` blocks: its own and its nested `RustBuffer`'s) and, for each `RustBuffer`
passed or returned by value, one or two more. Every JNA `Memory` is a `malloc` plus an entry in JNA's single
"JNA Cleaner" thread, which frees it after the garbage collector has found it unreachable. Under a few threads
of calls (8 threads of `maxSafePicks`, 64 MB of heap) that one thread falls behind: its queue and the native
blocks grow until OutOfMemoryError ("JNA: failed to create structure"), after which the JVM hung. The objects
(`Round`, `SeedPair`) have a second single cleaner thread (`java.lang.ref.Cleaner`), which falls behind the
same way when rounds are made faster than it frees them. Measured on this machine: `maxSafePicks` went from
27 us to 0.4 us a call, and a thread calling it 400,000 times from 130 MB of RSS to 56 MB.

What. Each replacement below is of a piece of text UniFFI writes, found exactly once, or this script fails
naming it (a new UniFFI version: read its templates again and redo the replacement, or drop it):

 1. `RustBuffer.ByValue` owns no native memory. JNA builds a returned one through a `(Pointer)` constructor
    (no `malloc`) and reads it at once; one passed by value is written, just before the call, into a slot of
    a small per-thread scratch block (JNA copies it into the call's frame: the slot is free again after).
 2. `UniffiRustCallStatus` is a plain pointer to a native block (JNA passes it without building a
    `Structure`), taken from a per-thread pool and given back after each call; its `ByValue` form (used only
    by async/callback structures, which fairmines does not have) stays a `Structure`.
 3. Strings are encoded with `String.toByteArray` when they hold no surrogate (the strict encoder, which
    rejects a lone surrogate, otherwise) and copied in and out with one `Pointer.write`/`getByteArray`.
 4. The objects' cleaner makes whoever registers a new object first free those the collector has already
    found unreachable (back-pressure), besides its own thread, so a loop making objects cannot outrun it.

Nothing here changes what a function does or returns; scripts/test-uniffi.sh runs every Kotlin test on the
patched file, and `ThreadsTest` runs 8 threads of calls in a 64 MB JVM.
"""

import re
import sys


def replace(text: str, name: str, old: str, new: str) -> str:
    count = text.count(old)
    if count != 1:
        sys.exit(f"patch_kotlin.py: '{name}': the generated text to replace occurs {count} times, not once "
                 "(has UniFFI changed? see this script's docstring)")
    return text.replace(old, new)


def patch(text: str) -> str:
    # The status is passed as a plain pointer: JNA could not build it for a callback argument. fairmines has
    # no callback interface; one added later would need this patch to keep a Structure for it.
    if re.search(r"fun callback\([^)]*UniffiRustCallStatus[,)]", text):
        sys.exit("patch_kotlin.py: a JNA callback takes a UniffiRustCallStatus; the patched status is a pointer")

    # 1. RustBuffer.ByValue without native memory of its own.
    text = replace(text, "RustBuffer constructors", """open class RustBuffer : Structure() {""", """\
open class RustBuffer : Structure {
    constructor() : super()
    constructor(p: Pointer) : super(p)
""")
    text = replace(text, "RustBuffer.ByValue", """\
    class ByValue: RustBuffer(), Structure.ByValue
""", """\
    // Patched (bindings/uniffi/patch_kotlin.py): no native memory of its own, see UniffiBufferMemory.
    class ByValue : RustBuffer, Structure.ByValue {
        constructor() : super()
        // JNA builds each returned RustBuffer with this constructor, then calls read() while `p` is valid.
        constructor(p: Pointer) : super(UniffiBufferMemory(Pointer.nativeValue(p)))

        override fun autoAllocate(size: Int): com.sun.jna.Memory = UniffiBufferMemory(UniffiBufferMemory.SINK)

        // Called by JNA just before this buffer is passed by value.
        override fun write() {
            val memory = pointer
            if (memory !is UniffiBufferMemory) return super.write() // nested in another Structure
            memory.point(UniffiBufferMemory.scratch())
            memory.setLong(0, capacity)
            memory.setLong(8, len)
            memory.setPointer(16, data)
        }

        override fun read() {
            val memory = pointer
            if (memory !is UniffiBufferMemory) return super.read() // nested in another Structure
            capacity = memory.getLong(0)
            len = memory.getLong(8)
            data = memory.getPointer(16)
            memory.point(UniffiBufferMemory.SINK) // what it pointed at (a returned value) is gone after the call
        }
    }
""")
    text = replace(text, "UniffiBufferMemory", """\
// This is a helper for safely passing byte references into the rust code.""", """\
/**
 * The memory a `RustBuffer.ByValue` points at (patched in by bindings/uniffi/patch_kotlin.py): never allocated
 * or freed, only pointed at a returned value while JNA reads it, at a per-thread scratch slot while JNA passes
 * it by value, and otherwise at SINK (a block any stray write may land in). The layout is UniFFI's: capacity
 * (u64) at 0, len (u64) at 8, data (pointer) at 16.
 *
 * @suppress
 */
internal class UniffiBufferMemory(address: Long) : com.sun.jna.Memory() {
    init {
        peer = address
        size = SLOT_SIZE
    }

    fun point(address: Long) {
        peer = address
    }

    // A Structure shares its memory at offset 0: keep this object (JNA would make a view of a fixed address).
    override fun share(offset: Long, sz: Long): Pointer = if (offset == 0L) this else super.share(offset, sz)

    private class Slots {
        val memory = com.sun.jna.Memory(SLOTS * SLOT_SIZE)
        var next = 0
    }

    companion object {
        private const val SLOT_SIZE = 32L
        // More than the RustBuffer arguments of any one call: JNA writes a call's arguments one after the other,
        // just before the call, and no two calls of one thread are being prepared at once.
        private const val SLOTS = 16
        private val sink = com.sun.jna.Memory(SLOT_SIZE)
        val SINK: Long = Pointer.nativeValue(sink)
        private val slots = ThreadLocal.withInitial { Slots() }

        fun scratch(): Long {
            val own = slots.get()
            val slot = own.next
            own.next = (slot + 1) % SLOTS
            return Pointer.nativeValue(own.memory) + slot * SLOT_SIZE
        }
    }
}

// This is a helper for safely passing byte references into the rust code.""")
    # Only the Java field matters: the native copy is written from the fields whenever the buffer is passed.
    text = replace(text, "lowerIntoRustBuffer", """\
            rbuf.writeField("len", bbuf.position().toLong())""", """\
            rbuf.len = bbuf.position().toLong()""")

    # 2. The call status: a pooled native block passed as a pointer.
    text = replace(text, "UniffiRustCallStatus", """\
@Structure.FieldOrder("code", "error_buf")
internal open class UniffiRustCallStatus : Structure() {
    @JvmField var code: Byte = 0
    @JvmField var error_buf: RustBuffer.ByValue = RustBuffer.ByValue()

    class ByValue: UniffiRustCallStatus(), Structure.ByValue
""", """\
// Patched (bindings/uniffi/patch_kotlin.py): a native block JNA passes as a pointer, reused through a per-thread pool.
internal open class UniffiRustCallStatus : com.sun.jna.Memory(SIZE) {
    var code: Byte
        get() = getByte(0)
        set(value) = setByte(0, value)
    var error_buf: RustBuffer.ByValue
        get() = RustBuffer.create(getLong(ERROR_BUF).toULong(), getLong(ERROR_BUF + 8).toULong(), getPointer(ERROR_BUF + 16))
        set(value) {
            setLong(ERROR_BUF, value.capacity)
            setLong(ERROR_BUF + 8, value.len)
            setPointer(ERROR_BUF + 16, value.data)
        }

    @Structure.FieldOrder("code", "error_buf")
    class ByValue : Structure(), Structure.ByValue {
        @JvmField var code: Byte = 0
        @JvmField var error_buf: RustBuffer.ByValue = RustBuffer.ByValue()

        internal fun errorBufOffset() = fieldOffset("error_buf").toLong()
    }
""")
    text = replace(text, "UniffiRustCallStatus pool", """\
    companion object {
        fun create(code: Byte, errorBuf: RustBuffer.ByValue): UniffiRustCallStatus.ByValue {""", """\
    companion object {
        private val ERROR_BUF = ByValue().errorBufOffset()
        private val SIZE = ERROR_BUF + 24
        private val pool = ThreadLocal.withInitial { java.util.ArrayDeque<UniffiRustCallStatus>() }

        internal fun acquire(): UniffiRustCallStatus {
            val status = pool.get().pollFirst() ?: UniffiRustCallStatus()
            status.code = UNIFFI_CALL_SUCCESS
            return status
        }

        internal fun release(status: UniffiRustCallStatus) {
            pool.get().addFirst(status)
        }

        fun create(code: Byte, errorBuf: RustBuffer.ByValue): UniffiRustCallStatus.ByValue {""")
    text = replace(text, "uniffiRustCallWithError", """\
    var status = UniffiRustCallStatus()
    val return_value = callback(status)
    uniffiCheckCallStatus(errorHandler, status)
    return return_value""", """\
    // Patched (bindings/uniffi/patch_kotlin.py): a pooled status; calls made to lower the arguments take others.
    val status = UniffiRustCallStatus.acquire()
    try {
        val return_value = callback(status)
        uniffiCheckCallStatus(errorHandler, status)
        return return_value
    } finally {
        UniffiRustCallStatus.release(status)
    }""")

    # 3. Strings.
    text = replace(text, "FfiConverterString.lift", """\
            val byteArr = ByteArray(value.len.toInt())
            value.asByteBuffer()!!.get(byteArr)
            return byteArr.toString(Charsets.UTF_8)""", """\
            if (value.len == 0L) return ""
            return value.data!!.getByteArray(0, value.len.toInt()).toString(Charsets.UTF_8)""")
    text = replace(text, "FfiConverterString.lower", """\
        val byteBuf = toUtf8(value)
        // Ideally we'd pass these bytes to `ffi_bytebuffer_from_bytes`, but doing so would require us
        // to copy them into a JNA `Memory`. So we might as well directly copy them into a `RustBuffer`.
        val rbuf = RustBuffer.alloc(byteBuf.limit().toULong())
        rbuf.asByteBuffer()!!.put(byteBuf)
        return rbuf""", """\
        // Patched (bindings/uniffi/patch_kotlin.py): without a surrogate, toByteArray is exact UTF-8; toUtf8's
        // strict encoder (which rejects a lone surrogate) only when there is one.
        val bytes = if (value.any { Character.isSurrogate(it) }) {
            toUtf8(value).let { ByteArray(it.remaining()).also { bytes -> it.get(bytes) } }
        } else {
            value.toByteArray(Charsets.UTF_8)
        }
        val rbuf = RustBuffer.alloc(bytes.size.toULong())
        if (bytes.isNotEmpty()) rbuf.data!!.write(0, bytes, 0, bytes.size)
        return rbuf""")

    # 4. The objects' cleaner, with back-pressure.
    text = replace(text, "UniffiCleaner.create", """\
private fun UniffiCleaner.Companion.create(): UniffiCleaner =
    try {""", """\
// Patched (bindings/uniffi/patch_kotlin.py): UniffiDrainingCleaner instead of the one below.
private fun UniffiCleaner.Companion.create(): UniffiCleaner = UniffiDrainingCleaner()

/**
 * Frees a Rust object once its Kotlin object is unreachable, like java.lang.ref.Cleaner, except that
 * `register` first frees the objects the garbage collector has already found unreachable (at most 64), on the
 * registering thread: threads that make objects faster than one cleaner thread frees them pay for it
 * themselves instead of letting the Rust objects pile up (back-pressure). A daemon thread frees the rest.
 */
private class UniffiDrainingCleaner : UniffiCleaner {
    private val queue = java.lang.ref.ReferenceQueue<Any>()
    // The references themselves must stay reachable until they are cleaned.
    private val registered: MutableSet<Ref> = ConcurrentHashMap.newKeySet()

    private inner class Ref(value: Any, private val task: Runnable) :
        java.lang.ref.PhantomReference<Any>(value, queue), UniffiCleaner.Cleanable {
        override fun clean() {
            if (registered.remove(this)) {
                clear() // freed now (close()): nothing left to do when the collector finds it unreachable
                task.run()
            }
        }
    }

    init {
        val thread = Thread({
            while (true) {
                try {
                    (queue.remove() as Ref).clean()
                } catch (_: InterruptedException) {
                } catch (_: Exception) {
                    // As java.lang.ref.Cleaner does: a failed free does not end the thread.
                }
            }
        }, "fairmines cleaner")
        thread.isDaemon = true
        thread.start()
    }

    override fun register(value: Any, cleanUpTask: Runnable): UniffiCleaner.Cleanable {
        for (i in 0 until 64) {
            val unreachable = queue.poll() ?: break
            try {
                (unreachable as Ref).clean()
            } catch (_: Exception) {
                // As java.lang.ref.Cleaner does: a failed free is not the registering caller's error.
            }
        }
        val ref = Ref(value, cleanUpTask)
        registered.add(ref)
        return ref
    }
}

@Suppress("unused")
private fun uniffiUpstreamCleaner(): UniffiCleaner =
    try {""")
    return text


def main() -> None:
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(patch(text))


if __name__ == "__main__":
    main()
