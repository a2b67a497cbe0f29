//! A parser for TAP 13 and KTAP (the kernel's nested TAP), used for in-VM selftests and KUnit.
//!
//! Counting rules:
//! - Leaf results count: a result line is a leaf when no deeper result lines precede it since the
//!   previous result at its own level. A parent (suite) result only counts when it is `not ok`
//!   while none of its children failed (the suite itself crashed or errored).
//! - `# SKIP` results count as skipped; `# TODO` failures as passes (TAP semantics).
//! - A plan `1..N` at any level with fewer than N results at that level adds the missing ones as
//!   failures ("missing result"), so a test that dies midway cannot pass.
//! - Lines may carry a printk timestamp `[    1.234567] ` which is stripped.

/// The outcome of one result line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
    Skip,
}

/// A counted result, with its path of suite names (e.g. `list-kernel-test/list_add`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestResult {
    pub name: String,
    pub outcome: Outcome,
}

/// The counts of a parsed stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub results: Vec<TestResult>,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Summary {
    fn push(&mut self, name: String, outcome: Outcome) {
        match outcome {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail => self.failed += 1,
            Outcome::Skip => self.skipped += 1,
        }
        self.results.push(TestResult { name, outcome });
    }

    /// Merge another summary with a prefix on its names.
    pub fn extend(&mut self, prefix: &str, other: Summary) {
        for r in other.results {
            self.push(format!("{prefix}{}", r.name), r.outcome);
        }
    }

    /// Record a synthetic result (e.g. "VM finished", "no kernel warnings").
    pub fn record(&mut self, name: &str, ok: bool) {
        self.push(
            name.to_string(),
            if ok { Outcome::Pass } else { Outcome::Fail },
        );
    }
}

/// Strip a printk timestamp and return (indent level, trimmed line). Indentation is 4 spaces
/// (KTAP) per level; a tab counts as one level (older TAP subtests).
fn normalize(line: &str) -> (usize, &str) {
    let mut l = line.trim_end_matches(['\r', '\n']);
    if l.starts_with('[') {
        if let Some(end) = l.find("] ") {
            if l[1..end]
                .trim()
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.')
            {
                l = &l[end + 2..];
            }
        }
    }
    let mut width = 0;
    for c in l.chars() {
        match c {
            ' ' => width += 1,
            '\t' => width += 4,
            _ => break,
        }
    }
    (width / 4, l.trim())
}

/// Parse `ok N name # DIRECTIVE` / `not ok N name`.
fn parse_result(l: &str) -> Option<(bool, usize, String, Outcome)> {
    let (ok, rest) = if let Some(r) = l.strip_prefix("not ok ") {
        (false, r)
    } else if let Some(r) = l.strip_prefix("ok ") {
        (true, r)
    } else {
        return None;
    };
    let (num, rest) = match rest.split_once(' ') {
        Some((n, r)) => (n, r),
        None => (rest, ""),
    };
    let num: usize = num.parse().ok()?;
    let (desc, directive) = match rest.split_once('#') {
        Some((d, dir)) => (d, dir.trim().to_ascii_uppercase()),
        None => (rest, String::new()),
    };
    let name = desc.trim().trim_start_matches("- ").trim().to_string();
    // A `# TODO` failure is expected to fail (TAP): it counts as a pass.
    let outcome = if directive.starts_with("SKIP") {
        Outcome::Skip
    } else if ok || directive.starts_with("TODO") {
        Outcome::Pass
    } else {
        Outcome::Fail
    };
    Some((ok, num, name, outcome))
}

#[derive(Default)]
struct Level {
    plan: Option<usize>,
    results: usize,
    /// Failures among children since this level's last result.
    child_failures: usize,
    /// Any child results since this level's last result.
    child_results: usize,
    /// Suite name from `# Subtest: name`.
    subtest: Option<String>,
}

/// Parse a TAP/KTAP stream. Lines that are not TAP are ignored.
pub fn parse(text: &str) -> Summary {
    let mut sum = Summary::default();
    let mut levels: Vec<Level> = vec![Level::default()];
    let mut seen_any = false;
    for raw in text.lines() {
        let (depth, l) = normalize(raw);
        if l.is_empty() {
            continue;
        }
        while levels.len() <= depth {
            levels.push(Level::default());
        }
        if let Some(name) = l.strip_prefix("# Subtest:") {
            levels[depth].subtest = Some(name.trim().to_string());
            continue;
        }
        if l.starts_with("KTAP version") || l.starts_with("TAP version") {
            seen_any = true;
            // A new (sub)stream at this depth resets its plan and counters.
            let subtest = levels[depth].subtest.take();
            levels[depth] = Level {
                subtest,
                ..Level::default()
            };
            continue;
        }
        if let Some(plan) = l.strip_prefix("1..") {
            let n = plan.split_whitespace().next().and_then(|n| n.parse().ok());
            levels[depth].plan = n;
            seen_any = true;
            continue;
        }
        let Some((_ok, _num, name, outcome)) = parse_result(l) else {
            continue;
        };
        seen_any = true;
        // Close deeper levels: check their plans.
        close_deeper(&mut levels, depth, &mut sum);
        let prefix = suite_prefix(&levels, depth);
        let lvl = &mut levels[depth];
        lvl.results += 1;
        let full = format!("{prefix}{name}");
        if lvl.child_results == 0 {
            sum.push(full, outcome);
        } else if outcome == Outcome::Fail && lvl.child_failures == 0 {
            sum.push(format!("{full} (suite)"), Outcome::Fail);
        }
        let failed = outcome == Outcome::Fail || lvl.child_failures > 0;
        lvl.child_results = 0;
        lvl.child_failures = 0;
        if depth > 0 {
            let parent = &mut levels[depth - 1];
            parent.child_results += 1;
            if failed {
                parent.child_failures += 1;
            }
        }
    }
    close_deeper(&mut levels, 0, &mut sum);
    if let Some(top) = levels.first() {
        if let Some(plan) = top.plan {
            for i in top.results..plan {
                sum.push(format!("missing result {} of {plan}", i + 1), Outcome::Fail);
            }
        }
    }
    let _ = seen_any;
    sum
}

fn suite_prefix(levels: &[Level], depth: usize) -> String {
    let mut p = String::new();
    for l in levels.iter().take(depth + 1).skip(1) {
        if let Some(s) = &l.subtest {
            p.push_str(s);
            p.push('/');
        }
    }
    p
}

/// Levels deeper than `depth` are finished: report their missing results and reset them.
fn close_deeper(levels: &mut Vec<Level>, depth: usize, sum: &mut Summary) {
    while levels.len() > depth + 1 {
        let Some(l) = levels.pop() else { break };
        if let Some(plan) = l.plan {
            if l.results < plan {
                let name = l.subtest.clone().unwrap_or_else(|| "subtest".into());
                for i in l.results..plan {
                    sum.push(
                        format!("{name}: missing result {} of {plan}", i + 1),
                        Outcome::Fail,
                    );
                }
                if let Some(parent) = levels.last_mut() {
                    parent.child_failures += 1;
                    parent.child_results += 1;
                }
            }
        }
    }
}

/// Kernel log lines that fail a run: WARNING, BUG, Oops, panics, KASAN/UBSAN reports.
pub fn kernel_problems(dmesg: &str) -> Vec<String> {
    const BAD: &[&str] = &[
        "WARNING:",
        "BUG:",
        "Oops",
        "Kernel panic",
        "general protection fault",
        "UBSAN:",
        "KASAN:",
        "rust_panic",
        "panicked at",
        "Call Trace:",
    ];
    dmesg
        .lines()
        .filter(|l| BAD.iter().any(|b| l.contains(b)))
        .map(|l| l.trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUNIT: &str = "\
[    0.512000] KTAP version 1
[    0.512001] 1..2
[    0.512002]     KTAP version 1
[    0.512003]     # Subtest: list-kernel-test
[    0.512004]     # module: list_test
[    0.512005]     1..3
[    0.512006]     ok 1 list_test_list_init
[    0.512007]     ok 2 list_test_list_add
[    0.512008]     ok 3 list_test_skipme # SKIP not on this arch
[    0.512009] # list-kernel-test: pass:2 fail:0 skip:1 total:3
[    0.512010] ok 1 list-kernel-test
[    0.512011]     KTAP version 1
[    0.512012]     # Subtest: swift
[    0.512013]     1..2
[    0.512014]     ok 1 vectors
[    0.512015]     not ok 2 props
[    0.512016] not ok 2 swift
";

    #[test]
    fn kunit_nested_counts_leaves() {
        let s = parse(KUNIT);
        assert_eq!((s.passed, s.failed, s.skipped), (3, 1, 1), "{s:#?}");
        assert!(s
            .results
            .iter()
            .any(|r| r.name == "swift/props" && r.outcome == Outcome::Fail));
        assert!(s
            .results
            .iter()
            .any(|r| r.name == "list-kernel-test/list_test_list_add"));
    }

    #[test]
    fn missing_results_fail() {
        let s = parse("TAP version 13\n1..3\nok 1 - a\nok 2 - b\n");
        assert_eq!((s.passed, s.failed), (2, 1));
        let s = parse("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: x\n    1..2\n    ok 1 a\nnot ok 1 x\n");
        // one leaf passed, one missing; the suite failure is explained by the missing child.
        assert_eq!((s.passed, s.failed), (1, 1), "{s:#?}");
    }

    #[test]
    fn suite_failure_without_failing_children_counts() {
        let s = parse("KTAP version 1\n1..1\n    # Subtest: x\n    1..1\n    ok 1 a\nnot ok 1 x\n");
        assert_eq!((s.passed, s.failed), (1, 1), "{s:#?}");
    }

    #[test]
    fn tap13_with_directives_and_noise() {
        let s = parse(
            "noise\nTAP version 13\n1..4\nok 1 - first\nnot ok 2 - second # TODO later\n\
             ok 3 - third # SKIP no dctcp\n# diag\nnot ok 4 - fourth\n",
        );
        assert_eq!((s.passed, s.failed, s.skipped), (2, 1, 1));
        assert_eq!(s.results[0].name, "first");
    }

    #[test]
    fn empty_stream_counts_nothing() {
        let s = parse("hello\nworld\n");
        assert_eq!((s.passed, s.failed, s.skipped), (0, 0, 0));
    }

    #[test]
    fn problems_in_dmesg() {
        let d = "[ 1.0] ok\n[ 2.0] WARNING: CPU: 0 PID: 1 at net/ipv4/tcp.c:1\n[ 3.0] fine\n";
        assert_eq!(kernel_problems(d).len(), 1);
        assert!(kernel_problems("all good\n").is_empty());
    }
}
