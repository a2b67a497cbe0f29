//! Lists of names on a command line (`--algos`): the one parser of the `sim` binary and of
//! `cargo xtask` (`run`, `bench`, `sim`), so every command takes the same separators.

use crate::error::{invalid, Result};

/// Split a list of names separated by spaces and/or commas (`"swift dctcp"`, `"swift,dctcp"`,
/// `"swift, dctcp"`). Refuses an empty list and a name listed twice; what the names may be is
/// the caller's to check.
pub fn split_list(value: &str) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for name in value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
    {
        if out.iter().any(|a| a == name) {
            return Err(invalid!("algorithm {name:?} is listed twice"));
        }
        out.push(name.to_string());
    }
    if out.is_empty() {
        return Err(invalid!("no algorithm given"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_and_refusals() {
        let cases: &[(&str, Result<&[&str], &str>)] = &[
            ("swift", Ok(&["swift"])),
            ("swift dctcp", Ok(&["swift", "dctcp"])),
            ("swift,dctcp", Ok(&["swift", "dctcp"])),
            ("  swift ,  dctcp ", Ok(&["swift", "dctcp"])),
            ("swift,,dctcp\ttimely\n", Ok(&["swift", "dctcp", "timely"])),
            ("swift swift", Err("algorithm \"swift\" is listed twice")),
            (
                "swift,dctcp swift",
                Err("algorithm \"swift\" is listed twice"),
            ),
            ("", Err("no algorithm given")),
            (" , ", Err("no algorithm given")),
        ];
        for (input, want) in cases {
            let got = split_list(input).map_err(|e| e.to_string());
            match (want, &got) {
                (Ok(w), Ok(g)) => assert_eq!(g, w, "{input:?}"),
                (Err(w), Err(g)) => assert_eq!(g, w, "{input:?}"),
                _ => panic!("{input:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
