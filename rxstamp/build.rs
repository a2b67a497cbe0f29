//! Compiles `bpf/rqd.bpf.c` and `bpf/int.bpf.c` with clang (`-target bpf -O2 -g`: the programs'
//! BTF is required for their sk_storage maps) into `$OUT_DIR/rqd.bpf.o` and `int.bpf.o`, which
//! `src/main.rs` and `src/intecho.rs` embed.
//!
//! Needs clang and Debian's libbpf-dev (`<bpf/bpf_helpers.h>`), both installed by `cargo xtask
//! deps`. Without them the crate still builds (so `cargo test --workspace` works on a bare
//! machine), with an empty object and a warning; the binary then refuses to load and says why.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=../modules/glue/rdcc_rqd_wire.h");
    println!("cargo:rerun-if-changed=../modules/glue/rdcc_int_wire.h");
    let multiarch = Command::new("gcc")
        .arg("-print-multiarch")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "x86_64-linux-gnu".into());
    let clang = std::env::var("RXSTAMP_CLANG").unwrap_or_else(|_| "clang".into());
    for name in ["rqd", "int"] {
        let out =
            PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join(format!("{name}.bpf.o"));
        let src = format!("bpf/{name}.bpf.c");
        println!("cargo:rerun-if-changed={src}");
        let status = Command::new(&clang)
            .args(["-target", "bpf", "-O2", "-g", "-Wall", "-Werror"])
            .arg(format!("-I/usr/include/{multiarch}"))
            .args(["-c", &src, "-o"])
            .arg(&out)
            .status();
        match status {
            Ok(s) if s.success() => {}
            other => {
                println!(
                    "cargo:warning=rxstamp: cannot compile {src} ({other:?}); install clang and \
                     libbpf-dev (cargo xtask deps). The binary will refuse to load."
                );
                std::fs::write(&out, b"").expect("write empty object");
            }
        }
    }
}
