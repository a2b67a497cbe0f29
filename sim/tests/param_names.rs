//! The tunables of each law are named in three places that cannot share one list: the core's
//! `Config` (the source of truth), the kernel module's `rdcc_glue!` `fields: [...]` (it needs the
//! names at compile time to declare one C `module_param` per field) and the simulator's
//! `build_params` (a `match` on names at run time). This test keeps the three equal, so a field
//! added to a `Config` cannot silently be missing as a module parameter or a scenario key.

use rdcc_sim::cc::{build_params, Law};
use std::path::Path;

/// `pub <name>:` lines of `pub struct Config { ... }` in a core law file.
fn config_fields(src: &str) -> Vec<String> {
    let start = src.find("pub struct Config {").expect("pub struct Config");
    let body = &src[start..];
    let end = body.find("\n}").expect("end of Config");
    body[..end]
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("pub ")?;
            let (name, _) = rest.split_once(':')?;
            (!name.contains(' ')).then(|| name.to_string())
        })
        .collect()
}

/// Names inside `fields: [ ... ]` of a module's `rdcc_glue!` invocation.
fn module_fields(src: &str) -> Vec<String> {
    let start = src.find("fields: [").expect("fields: [") + "fields: [".len();
    let end = start + src[start..].find(']').expect("]");
    src[start..end]
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn config_fields_are_module_parameters_and_scenario_keys() {
    let laws = [
        (
            Law::Swift,
            "core/src/swift_params.rs",
            "modules/swift/tcp_swift_rs.rs",
        ),
        (
            Law::SwiftVaiSf,
            "core/src/vaisf.rs",
            "modules/swift_vaisf/tcp_swift_vaisf_rs.rs",
        ),
        (
            Law::Timely,
            "core/src/timely.rs",
            "modules/timely/tcp_timely_rs.rs",
        ),
        (
            Law::ThetaPowerTcp,
            "core/src/powertcp_params.rs",
            "modules/theta_powertcp/tcp_theta_powertcp_rs.rs",
        ),
    ];
    for (law, core_file, module_file) in laws {
        let mut cfg = config_fields(&read(core_file));
        assert!(cfg.len() >= 5, "{core_file}: parsed only {cfg:?}");
        let mut module = module_fields(&read(module_file));
        cfg.sort();
        module.sort();
        assert_eq!(
            cfg, module,
            "{module_file}: module parameters differ from {core_file}'s Config"
        );
        for name in &cfg {
            // A value of 0 may be out of range; only "unknown parameter" is a naming failure.
            if let Err(e) = build_params(law, &[(name.clone(), 0)]) {
                assert!(
                    !e.to_string().contains("unknown parameter"),
                    "sim does not accept {name:?} for {law:?}: {e}"
                );
            }
        }
        let bogus = build_params(law, &[("no_such_field".into(), 1)]);
        assert!(matches!(bogus, Err(e) if e.to_string().contains("unknown parameter")));
    }
}

#[test]
fn expresspass_config_fields_are_scenario_keys() {
    use rdcc_sim::xpass::config::{apply, LAW_KEYS};
    use rdcc_sim::xpass::XpassConfig;
    // Set by the topology and transport, not by scenario keys.
    let derived = ["link_rate_mbps", "credit_bytes", "max_data_frame_bytes"];
    let mut cfg: Vec<String> = config_fields(&read("core/src/expresspass.rs"))
        .into_iter()
        .filter(|n| !derived.contains(&n.as_str()))
        .collect();
    let mut keys: Vec<String> = LAW_KEYS.iter().map(|s| s.to_string()).collect();
    cfg.sort();
    keys.sort();
    assert_eq!(
        cfg, keys,
        "sim/src/xpass/config.rs LAW_KEYS differ from the core's Config"
    );
    for name in &keys {
        if let Err(e) = apply(&XpassConfig::default(), &[(name.clone(), 0)]) {
            assert!(!e.to_string().contains("unknown key"), "{name}: {e}");
        }
    }
}

/// The INT laws have no kernel module yet (issue #16): their `Config` fields must still all be
/// scenario keys.
#[test]
fn int_law_config_fields_are_scenario_keys() {
    let laws = [
        (Law::PowerTcpInt, "core/src/powertcp_int.rs"),
        (Law::Hpcc, "core/src/hpcc.rs"),
        (Law::HpccVaiSf, "core/src/hpcc.rs"),
    ];
    for (law, core_file) in laws {
        let cfg = config_fields(&read(core_file));
        assert!(cfg.len() >= 5, "{core_file}: parsed only {cfg:?}");
        for name in &cfg {
            if let Err(e) = build_params(law, &[(name.clone(), 0)]) {
                assert!(
                    !e.to_string().contains("unknown parameter"),
                    "sim does not accept {name:?} for {law:?}: {e}"
                );
            }
        }
        let bogus = build_params(law, &[("no_such_field".into(), 1)]);
        assert!(matches!(bogus, Err(e) if e.to_string().contains("unknown parameter")));
    }
}
