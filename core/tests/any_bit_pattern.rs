//! Every kernel module's law state is `AnyBitPattern` (core/src/event.rs): get_info hands the
//! law lockless copies of the per-socket area, which may mix versions or hold another
//! algorithm's bytes, so no field may be a `bool`, an enum or anything else with invalid bit
//! patterns. The glue (`rdcc_glue!`) requires the bound at compile time; this test shows that
//! the check behind it fails the build when it should: it type-checks copies of the core with
//! rustc, unchanged (which must compile) and with one mutation each (which must fail with
//! exactly the check's error).

use rdcc_core::event::AnyBitPattern;
use rdcc_core::{powertcp, swift, timely, vaisf};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The laws of modules/*/tcp_*_rs.rs (the glue asserts the same bound on each).
#[test]
fn module_laws_have_integer_states() {
    fn any_bit_pattern<T: AnyBitPattern>() -> usize {
        core::mem::size_of::<T>()
    }
    for size in [
        any_bit_pattern::<swift::State>(),
        any_bit_pattern::<vaisf::State>(),
        any_bit_pattern::<timely::State>(),
        any_bit_pattern::<powertcp::State>(),
    ] {
        assert!(size > 0 && size <= rdcc_core::event::CORE_STATE_BUDGET);
    }
}

/// The rustc that built this test (the toolchain's, beside its cargo), else the one on PATH.
fn rustc() -> PathBuf {
    let beside = Path::new(env!("CARGO")).with_file_name("rustc");
    if beside.is_file() {
        beside
    } else {
        PathBuf::from("rustc")
    }
}

/// A copy of core/src in a fresh directory under the target dir.
fn copy_of_core(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let dst = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("any_bit_pattern")
        .join(name);
    let _ = fs::remove_dir_all(&dst);
    fs::create_dir_all(dst.join("src")).unwrap();
    for e in fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            fs::copy(&p, dst.join("src").join(p.file_name().unwrap())).unwrap();
        }
    }
    dst
}

/// Insert `field_decl` as the last field of `pub struct State` in `file`, and `listed` (if any)
/// as the last name of its `any_bit_pattern!(State { ... })`.
fn add_field(dir: &Path, file: &str, field_decl: &str, listed: Option<&str>) {
    let path = dir.join("src").join(file);
    let mut text = fs::read_to_string(&path).unwrap();
    let start = text
        .find("\npub struct State {\n")
        .expect("pub struct State");
    let end = start + text[start..].find("\n}\n").expect("end of State");
    text.insert_str(end, &format!("\n    {field_decl}"));
    if let Some(name) = listed {
        let m = text.find("any_bit_pattern!(State {\n").expect("the check");
        let close = m + text[m..].find("\n});").expect("end of the check");
        text.insert_str(close, &format!("\n    {name},"));
    }
    fs::write(&path, text).unwrap();
}

/// Type-check the copy at `dir` as the library (`--emit=metadata`: no code generation).
/// Returns (success, the error lines of rustc's short format).
fn check(dir: &Path) -> (bool, Vec<String>) {
    let out = Command::new(rustc())
        .current_dir(dir)
        .args([
            "--edition=2021",
            "--crate-type=lib",
            "--crate-name=rdcc_core",
            "--emit=metadata",
            "--error-format=short",
            "--out-dir",
        ])
        .arg(dir.join("out"))
        .arg("src/lib.rs")
        .output()
        .expect("running rustc");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors = stderr
        .lines()
        .filter(|l| l.contains("error") && !l.starts_with("error: aborting"))
        .map(str::to_owned)
        .collect();
    (out.status.success(), errors)
}

/// There is an error, and every error has all of `want` and is at `file` or at the check's
/// definition in event.rs (where rustc places a macro's errors).
fn only_errors(errors: &[String], file: &str, want: &[&str]) -> bool {
    let at = |e: &String| e.starts_with(&format!("src/{file}:")) || e.starts_with("src/event.rs:");
    !errors.is_empty()
        && errors
            .iter()
            .all(|e| at(e) && want.iter().all(|w| e.contains(w)))
}

#[test]
fn the_check_refuses_non_integer_fields() {
    // The control: the unchanged core compiles this way, so a failure below is the mutation's.
    let dir = copy_of_core("unchanged");
    let (ok, errors) = check(&dir);
    assert!(ok, "the unchanged core does not type-check: {errors:#?}");

    // A bool field, listed in the check (in VAI/SF's padding: the size stays 72).
    let dir = copy_of_core("bool");
    add_field(&dir, "vaisf.rs", "stale: bool,", Some("stale"));
    let (ok, errors) = check(&dir);
    assert!(!ok, "a bool field in vaisf::State compiled");
    assert!(
        only_errors(&errors, "vaisf.rs", &["E0277", "`bool: AnyBitPattern`"]),
        "not the check's error: {errors:#?}"
    );

    // An enum field (in θ-PowerTCP's padding).
    let dir = copy_of_core("enum");
    add_field(
        &dir,
        "powertcp.rs",
        "why: super::event::Reason,",
        Some("why"),
    );
    let (ok, errors) = check(&dir);
    assert!(!ok, "an enum field in powertcp::State compiled");
    assert!(
        only_errors(&errors, "powertcp.rs", &["E0277", "Reason: AnyBitPattern`"]),
        "not the check's error: {errors:#?}"
    );

    // An integer field, listed: compiles (the check refuses by type, not every new field).
    let dir = copy_of_core("integer");
    add_field(&dir, "vaisf.rs", "extra: u8,", Some("extra"));
    let (ok, errors) = check(&dir);
    assert!(
        ok,
        "a listed u8 field in vaisf::State was refused: {errors:#?}"
    );

    // The same field, not listed in the check: refused whatever its type. The exhaustive
    // pattern fails with E0027 (a public field) or, the field being private to vaisf.rs and the
    // pattern's braces the macro's, "pattern requires `..` due to inaccessible fields".
    let dir = copy_of_core("unlisted");
    add_field(&dir, "vaisf.rs", "extra: u8,", None);
    let (ok, errors) = check(&dir);
    assert!(!ok, "a field missing from vaisf's check compiled");
    assert!(
        only_errors(&errors, "vaisf.rs", &["pattern requires `..`"])
            || only_errors(&errors, "vaisf.rs", &["E0027", "`extra`"]),
        "not the check's error: {errors:#?}"
    );
}
