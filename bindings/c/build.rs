//! Generates the C header into `$OUT_DIR/fairmines.h` with cbindgen (pinned `=0.29.4`).
//!
//! Nothing is written into the source tree: `scripts/check-generated.sh header` compares this output with
//! the checked-in `include/fairmines.h` (and `--update header` replaces it).

use std::env;
use std::path::PathBuf;

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=build.rs");

    let version = |part: &str| env::var(format!("CARGO_PKG_VERSION_{part}")).expect("CARGO_PKG_VERSION_*");
    // The SONAME carries the ABI version by Cargo's compatibility rule (as cargo-c does): 0.0.z for 0.0.z,
    // 0.y for 0.y.z, x for x.y.z (x >= 1). A program records it (NEEDED), so one built against 0.1.z never
    // loads a 0.2 library, which Cargo's semver allows to break the ABI. scripts/install-c.sh reads it back.
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let abi = match (version("MAJOR").as_str(), version("MINOR").as_str()) {
            ("0", "0") => format!("0.0.{}", version("PATCH")),
            ("0", minor) => format!("0.{minor}"),
            (major, _) => major.to_owned(),
        };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libfairmines.so.{abi}");
    }

    let mut config = cbindgen::Config::from_file(manifest_dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    // The version macros come from Cargo.toml, so the header cannot drift from the crate version.
    config.after_includes = Some(format!(
        "\n/** The version of this header (the library's is fairmines_version()). */\n\
         #define FAIRMINES_VERSION_MAJOR {}\n\
         #define FAIRMINES_VERSION_MINOR {}\n\
         #define FAIRMINES_VERSION_PATCH {}\n\
         #define FAIRMINES_VERSION_STRING \"{}\"",
        version("MAJOR"),
        version("MINOR"),
        version("PATCH"),
        env::var("CARGO_PKG_VERSION").expect("CARGO_PKG_VERSION"),
    ));
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(manifest_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen could not generate the header")
        .write_to_file(out_dir.join("fairmines.h"));
}
