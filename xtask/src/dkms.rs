//! The DKMS check of `cargo xtask test`: Debian's `dkms` adds, builds and installs the modules
//! against a profile's kernel build tree, as a user's machine would for its own kernel. Every
//! DKMS tree is private to the harness (`--dkmstree`, `--sourcetree`, `--installtree` under
//! `target/rdcc/dkms-<profile>/`), so nothing of the host's DKMS state or /lib/modules is
//! touched.

use crate::kernel::Kernel;
use crate::ktap::Summary;
use crate::say;
use crate::util::{is_root, kernel_cmd, out_dir, repo_root, run_capture, Error, Result};
use std::fs;
use std::path::Path;
use std::process::Command;

/// `PACKAGE_NAME` and `PACKAGE_VERSION` of dkms.conf.
fn package(conf: &str) -> Option<(String, String)> {
    let get = |key: &str| {
        conf.lines().find_map(|l| {
            l.trim()
                .strip_prefix(key)
                .and_then(|v| v.strip_prefix('='))
                .map(|v| v.trim_matches('"').to_string())
        })
    };
    Some((get("PACKAGE_NAME")?, get("PACKAGE_VERSION")?))
}

/// Debian's dkms, installed without recommends (it would pull in a distribution kernel's
/// headers, which the check does not use).
fn ensure_dkms() -> Result<()> {
    if Command::new("dkms").arg("--version").output().is_ok() {
        return Ok(());
    }
    if !is_root() {
        return Err(Error {
            msg: "dkms: not installed and not running as root".into(),
            detail: vec!["run: sudo apt-get install --no-install-recommends dkms".into()],
        });
    }
    say!("deps: installing dkms (no recommends)");
    let mut c = Command::new("apt-get");
    c.env("DEBIAN_FRONTEND", "noninteractive").args([
        "-y",
        "-qq",
        "--no-install-recommends",
        "install",
        "dkms",
    ]);
    run_capture(&mut c).map(|_| ())
}

fn copy_tree(src: &Path, dst: &Path) -> Result<()> {
    fs::create_dir_all(dst)?;
    for e in fs::read_dir(src)?.flatten() {
        let (from, to) = (e.path(), dst.join(e.file_name()));
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if from.is_dir() {
            copy_tree(&from, &to)?;
        } else if [".rs", ".c", ".h"].iter().any(|x| name.ends_with(x)) || name == "Kbuild" {
            fs::copy(&from, &to)?;
        }
    }
    Ok(())
}

/// Run dkms add, build and install for kernel `k`; one result per step and per installed
/// module.
pub fn check(k: &Kernel) -> Result<Summary> {
    ensure_dkms()?;
    let root = repo_root();
    let conf = fs::read_to_string(root.join("dkms.conf"))?;
    let (name, version) = package(&conf).ok_or_else(|| Error {
        msg: "dkms.conf: no PACKAGE_NAME/PACKAGE_VERSION".into(),
        detail: vec![],
    })?;
    let base = out_dir()?.join(format!("dkms-{}", k.profile.name));
    let _ = fs::remove_dir_all(&base);
    let (src_tree, dkms_tree, inst_tree) =
        (base.join("source"), base.join("dkms"), base.join("install"));
    let pkg = src_tree.join(format!("{name}-{version}"));
    copy_tree(&root.join("modules"), &pkg.join("modules"))?;
    copy_tree(&root.join("core/src"), &pkg.join("core/src"))?;
    fs::copy(root.join("Kbuild"), pkg.join("Kbuild"))?;
    fs::copy(root.join("dkms.conf"), pkg.join("dkms.conf"))?;
    fs::create_dir_all(&dkms_tree)?;
    // dkms install refuses a kernel whose directory does not exist in the install tree.
    fs::create_dir_all(inst_tree.join(&k.release))?;

    let mut s = Summary::default();
    let dkms = |verb: &str| {
        let mut c = kernel_cmd("dkms");
        c.arg(verb)
            .arg("--dkmstree")
            .arg(&dkms_tree)
            .arg("--sourcetree")
            .arg(&src_tree)
            .arg("--installtree")
            .arg(&inst_tree)
            .args(["-m", &name, "-v", &version]);
        if verb != "add" {
            c.args(["-k", &k.release])
                .arg("--kernelsourcedir")
                .arg(&k.src);
        }
        if verb == "install" {
            // depmod would run on the host's /lib/modules/<release>, which is not this
            // kernel's: the install tree is private.
            c.arg("--no-depmod");
        }
        c
    };
    for verb in ["add", "build", "install"] {
        let mut c = dkms(verb);
        let res = run_capture(&mut c);
        let out = match &res {
            Ok(o) => o.clone(),
            Err(e) => [vec![e.msg.clone()], e.detail.clone()].concat().join("\n"),
        };
        for l in out.lines().filter(|l| !l.trim().is_empty()).take(30) {
            say!("dkms {verb}: {l}");
        }
        s.record(
            &format!("dkms {verb} ({} kernel {})", k.profile.name, k.release),
            res.is_ok(),
        );
        if res.is_err() {
            return Ok(s);
        }
    }
    for m in crate::modules::PRODUCT_MODULES {
        let ko = inst_tree
            .join(&k.release)
            .join("updates/dkms")
            .join(format!("{m}.ko"));
        let alt = inst_tree.join(format!("lib/modules/{}/updates/dkms/{m}.ko", k.release));
        s.record(
            &format!("dkms installed {m}.ko"),
            ko.exists() || alt.exists(),
        );
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dkms_conf_names_the_package_and_every_product_module() {
        let conf = fs::read_to_string(repo_root().join("dkms.conf")).unwrap();
        let (name, version) = package(&conf).unwrap();
        assert_eq!(name, "rdcc");
        assert!(!version.is_empty());
        let kbuild = fs::read_to_string(repo_root().join("modules/Kbuild")).unwrap();
        for l in kbuild
            .lines()
            .filter(|l| l.starts_with("obj-m += tcp_") || l.starts_with("obj-m += sch_rdcc_"))
        {
            let m = l.trim_start_matches("obj-m += ").trim_end_matches(".o");
            assert!(
                conf.contains(&format!("=\"{m}\"")),
                "dkms.conf lacks BUILT_MODULE_NAME {m}"
            );
        }
        for m in crate::modules::PRODUCT_MODULES {
            assert!(
                kbuild.contains(&format!("obj-m += {m}.o")),
                "{m} not in Kbuild"
            );
        }
        assert!(
            !conf.contains("rdcc_kunit"),
            "the test module is not installed"
        );
    }
}
