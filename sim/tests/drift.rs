//! Drift (issue #34 item 6): every number a results page states in its `drift` blocks is what
//! a fresh run of the page's command gives, to the rounding the page prints. Each page of
//! Documentation/results/ either carries its numbers in `drift` blocks (format:
//! Documentation/results/README.md, "Drift") or is in [`SKIPPED`] with the reason. The runs
//! are the pages' own commands, in memory: `cargo xtask sim SCENARIO [--set K=V]...` writes
//! the same CSV text the figures name. `RDCC_DRIFT_SHOW=1` prints every figure with its fresh
//! value (to update a page after a deliberate change: run, paste, name the new commit);
//! `RDCC_DRIFT_PAGE=int_laws.md` checks that page only.

#[path = "drift/block.rs"]
mod block;
#[path = "drift/eval.rs"]
mod eval;

use block::{parse_figure, parse_page, stated, Figure, Page, Run, Stat, Value};
use eval::Files;
use rdcc_sim::scenario::RunResult;
use rdcc_sim::Scenario;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The results pages no fresh run here checks, and why: one list.
const SKIPPED: &[(&str, &str)] = &[
    ("README.md", "the model, file formats and this format; its few numbers (the dumbbell's 31.4 us, the parking lot's 0.76) are pinned by outcomes.rs"),
    ("cost.md", "instruction counts from a QEMU boot (`cargo xtask bench`), not a simulator run"),
    ("cost_rounds.md", "instruction counts from QEMU boots (`cargo xtask bench`), not a simulator run"),
    ("vm.md", "QEMU VM trials (`cargo xtask run --scenario default`), minutes per run and host-dependent"),
    ("uml_testbed.md", "UML boots (`cargo xtask run --kernel uml`), minutes per run"),
    ("uml_vs_sim.md", "UML boots beside the simulator; its simulator figures are held by xtask's vm_sim tests (`the_simulator_keeps_the_pages_figures`, `the_simulator_keeps_the_pages_multihop_figures`), with the page's tolerances"),
    ("int_testbed.md", "UML boots beside the simulator; its simulator figures are held by xtask's vm_sim tests (`the_simulator_keeps_the_int_pages_figures`, `the_simulator_keeps_the_websearch_pages_figures`), with the page's tolerances"),
    ("speed.md", "wall-clock and CPU time on a shared host: not reproducible to the digit"),
    ("swift_vm_path.md", "a comparison of four enforcement rules measured on the branch that chose one (three are no longer in the code), 20 seeds x 60 s per row, and VM boots; the chosen rule's SL rows are checked in sl_incast_16to1.md"),
    ("powertcp_fct_firm.md", "40-seed sweeps (31 CPU-minutes); its pooled40 block is judged by powertcp_fct.rs, whose seeds 1-10 must equal powertcp_fct.md's block; commands and commits on the page"),
    ("pfc.md", "every reproduction x 3 buffer modes by --set (the web search alone: 12 runs, about 2.5 min here); commands and commit on the page; not in drift form"),
];

fn results_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../Documentation/results")
}

/// Every results page: file name -> markdown.
fn pages() -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for e in std::fs::read_dir(results_dir()).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            m.insert(name, std::fs::read_to_string(e.path()).unwrap());
        }
    }
    m
}

/// The algorithm a figure belongs to: `ALG/FILE.csv`, else the key's first part.
fn algorithm(f: &Figure) -> Result<String, String> {
    match f.file.split_once('/') {
        Some((alg, _)) => Ok(alg.to_string()),
        None if f.key != "*" => Ok(f.key.split(':').next().unwrap().to_string()),
        None => Err(format!(
            "{}: name the algorithm (* spans algorithms)",
            f.text
        )),
    }
}

fn scenario(name: &str, sets: &[String]) -> Result<Scenario, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.toml"));
    Scenario::load_with(&path, sets).map_err(|e| e.to_string())
}

/// One algorithm's run of a scenario, and the files `sim` would write for it.
fn run_files(
    scenario_name: &str,
    sets: &[String],
    alg: &str,
) -> Result<(RunResult, Files), String> {
    let sc = scenario(scenario_name, sets)?;
    let t = Instant::now();
    let r = sc.run_one(alg, false).map_err(|e| e.to_string())?;
    eprintln!(
        "drift: {scenario_name} {sets:?} {alg}: {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let mut files = Files::new();
    for (name, text) in rdcc_sim::tables::summary_files(std::slice::from_ref(&r.summary))
        .map_err(|e| e.to_string())?
    {
        files.insert(name.to_string(), text);
    }
    for (name, text) in rdcc_sim::tables::run_files(&r.out).map_err(|e| e.to_string())? {
        files.insert(format!("{alg}/{name}"), text);
    }
    if let Some(x) = &r.xpass {
        for (name, text) in rdcc_sim::tables::xpass_files(x).map_err(|e| e.to_string())? {
            files.insert(format!("{alg}/{name}"), text);
        }
    }
    Ok((r, files))
}

/// Runs by (scenario, overrides, algorithm), each once.
type Cache = BTreeMap<(String, Vec<String>, String), (RunResult, Files)>;

fn cached<'a>(
    cache: &'a mut Cache,
    run: &Run,
    alg: &str,
) -> Result<&'a (RunResult, Files), String> {
    let k = (run.scenario.clone(), run.sets.clone(), alg.to_string());
    if !cache.contains_key(&k) {
        let v = run_files(&run.scenario, &run.sets, alg)?;
        cache.insert(k.clone(), v);
    }
    Ok(&cache[&k])
}

/// Every run the pages' figures and images need, on all cores, into `cache`: the runs are
/// independent, and one after the other they were one core's 100-150 s of every CI. A run that
/// fails is left out; the pages' loop runs it again and reports its error where it belongs.
fn prefill(cache: &mut Cache, pages: &[Page]) {
    let mut keys = std::collections::BTreeSet::new();
    for run in pages.iter().flat_map(|p| &p.runs) {
        for f in &run.figures {
            if let Ok(alg) = algorithm(f) {
                keys.insert((run.scenario.clone(), run.sets.clone(), alg));
            }
        }
        if !run.images.is_empty() {
            if let Ok(sc) = scenario(&run.scenario, &run.sets) {
                for alg in sc.algorithms {
                    keys.insert((run.scenario.clone(), run.sets.clone(), alg));
                }
            }
        }
    }
    let todo = std::sync::Mutex::new(keys.into_iter().collect::<Vec<_>>());
    let done = std::sync::Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let Some(k) = todo.lock().unwrap().pop() else {
                    break;
                };
                if let Ok(v) = run_files(&k.0, &k.1, &k.2) {
                    done.lock().unwrap().push((k, v));
                }
            });
        }
    });
    cache.extend(done.into_inner().unwrap());
}

/// The run's figures as `sim` draws them (every algorithm of the scenario), compared byte for
/// byte with the page's copies. The labels need DejaVu Sans (`fonts-dejavu-core`, which
/// `cargo xtask deps` installs): without it every figure differs.
fn check_images(page: &str, run: &Run, cache: &mut Cache) -> Result<Vec<String>, String> {
    let sc = scenario(&run.scenario, &run.sets)?;
    let (mut keys, mut results, mut files) = (Vec::new(), Vec::new(), Vec::new());
    for alg in &sc.algorithms {
        cached(cache, run, alg)?;
        let k = (run.scenario.clone(), run.sets.clone(), alg.clone());
        let (r, f) = cache.remove(&k).unwrap();
        keys.push(k);
        results.push(r);
        files.push(f);
    }
    let dir = std::env::temp_dir().join(format!("rdcc-drift-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let drawn = std::fs::create_dir_all(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))
        .and_then(|_| rdcc_sim::plot::write_plots(&sc, &dir, &results).map_err(|e| e.to_string()));
    for ((k, r), f) in keys.into_iter().zip(results).zip(files) {
        cache.insert(k, (r, f));
    }
    drawn?;
    let mut bad = Vec::new();
    for (out, img) in &run.images {
        let fresh = std::fs::read(dir.join(out)).map_err(|e| format!("{out}: {e}"))?;
        let stated = std::fs::read(results_dir().join(img)).map_err(|e| format!("{img}: {e}"))?;
        if fresh != stated {
            bad.push(format!(
                "{page}: {} {}: `png {out} = {img}`: the page's image is not what the run draws \
                 ({} bytes against {})",
                run.scenario,
                run.sets.join(" "),
                stated.len(),
                fresh.len()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(bad)
}

/// Every figure of every page against a fresh run; the differences, one line each.
#[test]
fn results_pages_state_what_a_fresh_run_gives() {
    let show = std::env::var_os("RDCC_DRIFT_SHOW").is_some();
    let mut cache = Cache::new();
    let mut bad = Vec::new();
    let (mut checked, mut images) = (0, 0);
    let only = std::env::var("RDCC_DRIFT_PAGE").ok();
    let pages: Vec<(String, String)> = pages()
        .into_iter()
        .filter(|(name, _)| only.as_ref().is_none_or(|o| o == name))
        .collect();
    let parsed: Vec<Page> = pages
        .iter()
        .filter_map(|(_, md)| parse_page(md).ok())
        .collect();
    prefill(&mut cache, &parsed);
    for (name, md) in pages {
        let page = match parse_page(&md) {
            Ok(p) => p,
            Err(e) => {
                bad.push(format!("{name}: {e}"));
                continue;
            }
        };
        for run in &page.runs {
            if show {
                println!("{name}: run {} {:?}", run.scenario, run.sets);
            }
            for f in &run.figures {
                let got = algorithm(f).and_then(|alg| {
                    cached(&mut cache, run, &alg).and_then(|(_, files)| eval::fresh(f, files))
                });
                checked += 1;
                match got {
                    Err(e) => bad.push(format!("{name}: `{}`: {e}", f.text)),
                    Ok(v) => {
                        if show {
                            let (lhs, _) = f.text.split_once(" = ").unwrap();
                            println!("{lhs} = {}", f.value.show(v));
                        }
                        if !f.value.matches(v) {
                            bad.push(format!(
                                "{name}: {} {}: `{}`: page {}, fresh run {}",
                                run.scenario,
                                run.sets.join(" "),
                                f.text,
                                f.value.show_stated(),
                                f.value.show(v)
                            ));
                        }
                    }
                }
                if let Value::Number { text, .. } = &f.value {
                    if !stated(&page.prose, text) {
                        bad.push(format!(
                            "{name}: `{}`: the page's text never states {text}",
                            f.text
                        ));
                    }
                }
            }
            if !run.images.is_empty() {
                match check_images(&name, run, &mut cache) {
                    Ok(b) => bad.extend(b),
                    Err(e) => bad.push(format!("{name}: {} images: {e}", run.scenario)),
                }
                images += run.images.len();
            }
        }
    }
    eprintln!(
        "drift: {checked} figures and {images} images checked, {} runs",
        cache.len()
    );
    assert!(bad.is_empty(), "{} drifts:\n{}", bad.len(), bad.join("\n"));
}

/// Every page is checked or skipped with a reason, never both, and the skip list names pages
/// that exist.
#[test]
fn every_results_page_is_checked_or_skipped() {
    let pages = pages();
    let mut bad = Vec::new();
    for (name, md) in &pages {
        let skipped = SKIPPED.iter().any(|(p, _)| p == name);
        match parse_page(md) {
            Err(e) => bad.push(format!("{name}: {e}")),
            Ok(Page { runs, .. }) if runs.is_empty() && !skipped => {
                bad.push(format!("{name}: no drift block and not in SKIPPED"))
            }
            Ok(Page { runs, .. }) if !runs.is_empty() && skipped => {
                bad.push(format!("{name}: has drift blocks but is in SKIPPED"))
            }
            Ok(_) => {}
        }
    }
    // The commit a page names exists (in a full clone; a shallow one may not have it).
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    if git(&["rev-parse", "--is-shallow-repository"]).as_deref() == Some("false") {
        for (name, md) in &pages {
            if let Ok(Page { commit, runs, .. }) = parse_page(md) {
                let spec = format!("{commit}^{{commit}}");
                if !runs.is_empty() && git(&["cat-file", "-e", &spec]).is_none() {
                    bad.push(format!("{name}: commit {commit} is not in this repository"));
                }
            }
        }
    }
    for (p, why) in SKIPPED {
        if !pages.contains_key(*p) {
            bad.push(format!("SKIPPED names {p}, which does not exist"));
        }
        if why.is_empty() {
            bad.push(format!("SKIPPED gives no reason for {p}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn figure_lines_parse_or_are_refused() {
    type Case<'a> = (
        &'a str,
        &'a str,
        &'a str,
        &'a str,
        Option<Stat>,
        Option<(f64, f64)>,
    );
    let ok: &[Case] = &[
        (
            "summary.csv swift rtt_mean_us = 10.8",
            "summary.csv",
            "swift",
            "rtt_mean_us",
            None,
            None,
        ),
        (
            "fct_bins.csv hpcc:<10KB slowdown_p999 = 2.86",
            "fct_bins.csv",
            "hpcc:<10KB",
            "slowdown_p999",
            None,
            None,
        ),
        (
            "swift/flows.csv * finish_us max = 1366",
            "swift/flows.csv",
            "*",
            "finish_us",
            Some(Stat::Max),
            None,
        ),
        (
            "hpcc/port_series.csv sw->h11 queue_bytes mean@2000..3000 = 1.4KB",
            "hpcc/port_series.csv",
            "sw->h11",
            "queue_bytes",
            Some(Stat::Mean),
            Some((2000.0, 3000.0)),
        ),
        (
            "hpcc/port_series.csv sw->h11 queue_bytes settled<=100000@1000..3000 = 290",
            "hpcc/port_series.csv",
            "sw->h11",
            "queue_bytes",
            Some(Stat::SettledAtMost(100000.0)),
            Some((1000.0, 3000.0)),
        ),
    ];
    for (line, file, key, column, stat, window) in ok {
        let f = parse_figure(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(
            (&f.file[..], &f.key[..], &f.column[..], f.stat, f.window),
            (*file, *key, *column, *stat, *window),
            "{line}"
        );
    }
    let refused: &[(&str, &str)] = &[
        ("summary.csv swift rtt_mean_us 10.8", "' = VALUE'"),
        ("summary swift rtt_mean_us = 10.8", "not a CSV file"),
        ("swift/flows.csv * finish_us = 1", "needs a statistic"),
        ("a/port_series.csv p q first>=5 = 1", "needs @FROM..TO"),
        ("a/port_series.csv p q median = 1", "unknown statistic"),
        ("summary.csv swift goodput_gbps = 1e3", "plain decimal"),
        ("a/port_series.csv p q mean@3..2 = 1", "empty window"),
    ];
    for (line, msg) in refused {
        let e = parse_figure(line).unwrap_err();
        assert!(e.contains(msg), "{line}: {e}");
    }
}

#[test]
fn values_match_to_the_printed_rounding() {
    let cases: &[(&str, Option<f64>, bool)] = &[
        ("2.86", Some(2.8649), true),
        ("2.86", Some(2.8651), false),
        ("2.74", Some(2.86), false),
        ("640", Some(650.0), false),
        ("650", Some(650.4), true),
        ("73KB", Some(73_400.0), true),
        ("73KB", Some(73_600.0), false),
        ("-", None, true),
        ("-", Some(0.0), false),
        ("0", None, false),
        ("0.894", Some(0.8943), true),
    ];
    for (s, fresh, want) in cases {
        assert_eq!(
            Value::parse(s).unwrap().matches(*fresh),
            *want,
            "{s} vs {fresh:?}"
        );
    }
}

#[test]
fn a_value_is_stated_only_as_a_whole_number() {
    let prose = "HPCC 2.86 (p99.9), 640 µs, 12.5 Gbit/s, 0.894 of the link";
    let cases: &[(&str, bool)] = &[
        ("2.86", true),
        ("2.8", false),
        ("86", false),
        ("640", true),
        ("64", false),
        ("12", false),
        ("12.5", true),
        ("0.894", true),
        ("894", false),
    ];
    for (text, want) in cases {
        assert_eq!(stated(prose, text), *want, "{text}");
    }
}

#[test]
fn statistics_over_a_series() {
    let mut files = Files::new();
    files.insert(
        "a/port_series.csv".into(),
        "t_us,port,queue_bytes,queue_max_bytes,tx_bytes\n\
         10.0,p,500,0,0\n20.0,p,50,0,0\n30.0,p,200,0,0\n40.0,p,20,0,0\n50.0,p,10,0,0\n\
         20.0,q,999,0,0\n"
            .into(),
    );
    files.insert(
        "summary.csv".into(),
        "algorithm,jain_first_at_least_0_9_us\na,\nb,170.0\n".into(),
    );
    let cases: &[(&str, Option<f64>)] = &[
        ("a/port_series.csv p queue_bytes max = 0", Some(500.0)),
        ("a/port_series.csv p queue_bytes min@15..35 = 0", Some(50.0)),
        (
            "a/port_series.csv p queue_bytes mean@10..30 = 0",
            Some(125.0),
        ),
        ("a/port_series.csv p queue_bytes spread = 0", Some(490.0)),
        (
            "a/port_series.csv p queue_bytes sum@10..30 = 0",
            Some(250.0),
        ),
        (
            "a/port_series.csv p queue_bytes first>=200@10..50 = 0",
            Some(20.0),
        ),
        (
            "a/port_series.csv p queue_bytes first>=201@15..50 = 0",
            None,
        ),
        (
            "a/port_series.csv p queue_bytes settled<=100@10..50 = 0",
            Some(30.0),
        ),
        ("a/port_series.csv * queue_bytes max = 0", Some(999.0)),
        ("summary.csv a jain_first_at_least_0_9_us = 0", None),
        ("summary.csv b jain_first_at_least_0_9_us = 0", Some(170.0)),
    ];
    for (line, want) in cases {
        let f = parse_figure(line).unwrap();
        assert_eq!(eval::fresh(&f, &files).unwrap(), *want, "{line}");
    }
    for (line, msg) in [
        ("a/port_series.csv x queue_bytes max = 0", "no row"),
        ("a/port_series.csv p queue_bytes = 0", "add a statistic"),
        ("a/port_series.csv p nope max = 0", "no column nope"),
        ("b/flows.csv 1 fct_us = 0", "wrote no b/flows.csv"),
    ] {
        let e = eval::fresh(&parse_figure(line).unwrap(), &files).unwrap_err();
        assert!(e.contains(msg), "{line}: {e}");
    }
}

#[test]
fn block_lines_parse_or_are_refused() {
    let ok = "text\n```drift\ncommit b131228\nrun a --set x=1\npng jain.png = img/j.png\n\
              summary.csv s c = 1\n```\nmore\n";
    let p = parse_page(ok).unwrap();
    assert_eq!(p.commit, "b131228");
    assert_eq!(p.runs[0].sets, ["x=1"]);
    assert_eq!(p.runs[0].images, [("jain.png".into(), "img/j.png".into())]);
    assert_eq!(p.runs[0].figures.len(), 1);
    assert_eq!(p.prose, "text\nmore\n");
    let refused: &[(&str, &str)] = &[
        ("```drift\nrun a\n```\n", "without a commit"),
        ("```drift\ncommit xyz\n```\n", "not a commit"),
        (
            "```drift\ncommit b131228\n```\n```drift\ncommit dde2a57\n```\n",
            "a second commit",
        ),
        (
            "```drift\ncommit b131228\nsummary.csv s c = 1\n```\n",
            "before any run",
        ),
        (
            "```drift\ncommit b131228\npng a.png = b.png\n```\n",
            "before any run",
        ),
        (
            "```drift\ncommit b131228\nrun a\npng a.svg = b.png\n```\n",
            "png FIGURE.png",
        ),
        (
            "```drift\ncommit b131228\nrun a --algos x\n```\n",
            "--set KEY=VALUE only",
        ),
        ("```drift\ncommit b131228\n", "unterminated"),
    ];
    for (md, msg) in refused {
        let e = parse_page(md).unwrap_err();
        assert!(e.contains(msg), "{md:?}: {e}");
    }
}
