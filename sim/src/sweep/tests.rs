use super::*;
use proptest::prelude::*;

#[test]
fn seeds_parse_or_are_refused() {
    // (input, Ok(seeds) or an error fragment)
    let cases: &[(&str, Result<&[u64], &str>)] = &[
        ("1", Ok(&[1])),
        ("1,2,5", Ok(&[1, 2, 5])),
        ("1-3", Ok(&[1, 2, 3])),
        ("1..=3", Ok(&[1, 2, 3])),
        (" 7 , 1-2 ", Ok(&[7, 1, 2])),
        ("1..3", Err("write an inclusive range as A..=B or A-B")),
        ("3-1", Err("3-1 is an empty range")),
        ("1,,2", Err("empty item")),
        ("x", Err("\"x\" is not a seed")),
        ("-1", Err("\"\" is not a seed")),
        ("1,1-2", Err("seed 1 is listed twice")),
        ("0-100000", Err("over 100000 seeds")),
    ];
    for (input, want) in cases {
        match (parse_seeds(input).map_err(|e| e.to_string()), want) {
            (Ok(g), Ok(w)) => assert_eq!(g, *w, "{input}"),
            (Err(g), Err(w)) => assert!(g.contains(w), "{input}: {g}"),
            (g, w) => panic!("{input}: got {g:?}, want {w:?}"),
        }
    }
}

#[test]
fn grid_keys_parse_or_are_refused() {
    type Want<'a> = Result<(&'a str, &'a [&'a str]), &'a str>;
    let cases: &[(&str, Want)] = &[
        ("topology.x=1,2", Ok(("topology.x", &["1", "2"]))),
        ("fabric.pfc=true", Ok(("fabric.pfc", &["true"]))),
        (" a.b = 10Gbit , 25Gbit", Ok(("a.b", &["10Gbit", "25Gbit"]))),
        ("nokey", Err("expected KEY.PATH=V1,V2")),
        ("a..b=1", Err("expected KEY.PATH=V1,V2")),
        ("=1", Err("expected KEY.PATH=V1,V2")),
        ("seed=1,2", Err("sweep seeds with --seeds")),
        ("algorithms=swift", Err("sweep algorithms with --algos")),
        ("a.b=1,,2", Err("a.b: empty value")),
        ("a.b=", Err("a.b: empty value")),
        ("a.b=1,1", Err("a.b: value \"1\" is listed twice")),
    ];
    for (input, want) in cases {
        match (parse_grid(input).map_err(|e| e.to_string()), want) {
            (Ok(g), Ok((k, v))) => {
                assert_eq!(g.key, *k, "{input}");
                assert_eq!(
                    g.values,
                    v.iter().map(|s| s.to_string()).collect::<Vec<_>>()
                );
            }
            (Err(g), Err(w)) => assert!(g.contains(w), "{input}: {g}"),
            (g, w) => panic!("{input}: got {g:?}, want {w:?}"),
        }
    }
}

#[test]
fn points_are_algorithm_major_then_grid_then_seed() {
    let grid = [
        GridKey {
            key: "a.x".into(),
            values: vec!["1".into(), "2".into()],
        },
        GridKey {
            key: "b.y".into(),
            values: vec!["p".into(), "q".into()],
        },
    ];
    let algos = ["swift".to_string(), "dctcp".to_string()];
    let pts = expand(&algos, &grid, &[7, 8]);
    assert_eq!(pts.len(), 16);
    let show: Vec<String> = pts
        .iter()
        .take(5)
        .map(|p| format!("{} {} {} {}", p.id, p.algorithm, p.values.join("/"), p.seed))
        .collect();
    assert_eq!(
        show,
        [
            "00 swift 1/p 7",
            "01 swift 1/p 8",
            "02 swift 1/q 7",
            "03 swift 1/q 8",
            "04 swift 2/p 7"
        ]
    );
    assert_eq!(pts[15].id, "15");
    assert_eq!(pts[15].algorithm, "dctcp");
    assert_eq!(pts[5].sets(&grid), ["seed=8", "a.x=2", "b.y=p"]);
    // No grid: one point per algorithm and seed; ids as wide as the largest.
    let pts = expand(&algos, &[], &[1, 2, 3]);
    let ids: Vec<&str> = pts.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["0", "1", "2", "3", "4", "5"]);
}

proptest! {
    /// Every combination appears exactly once; ids are the indices, all of one width.
    #[test]
    fn expansion_is_the_full_product(
        n_algos in 1usize..4,
        sizes in proptest::collection::vec(1usize..4, 0..3),
        n_seeds in 1usize..5,
    ) {
        let algos: Vec<String> = (0..n_algos).map(|i| format!("a{i}")).collect();
        let grid: Vec<GridKey> = sizes
            .iter()
            .enumerate()
            .map(|(k, &n)| GridKey {
                key: format!("k.k{k}"),
                values: (0..n).map(|v| v.to_string()).collect(),
            })
            .collect();
        let seeds: Vec<u64> = (1..=n_seeds as u64).collect();
        let pts = expand(&algos, &grid, &seeds);
        let want = n_algos * n_seeds * sizes.iter().product::<usize>();
        prop_assert_eq!(pts.len(), want);
        let mut seen = std::collections::BTreeSet::new();
        let width = pts[0].id.len();
        for (i, p) in pts.iter().enumerate() {
            prop_assert_eq!(p.id.parse::<usize>().unwrap(), i);
            prop_assert_eq!(p.id.len(), width);
            prop_assert!(seen.insert((p.algorithm.clone(), p.values.clone(), p.seed)));
        }
    }
}
