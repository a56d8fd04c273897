//! `uniffi-bindgen`, built from the same pinned UniFFI as `fairmines-uniffi`, so the generated
//! Kotlin, Swift and Ruby sources always match the scaffolding compiled into the library.
//!
//! `cargo run -p fairmines-uniffi-bindgen -- generate --library <libfairmines_uniffi.so> -l kotlin -o <dir>`
//! (`scripts/test-uniffi.sh` runs it for all three languages).

fn main() {
    uniffi::uniffi_bindgen_main()
}
