//! The library's errors. Every message is one line a user can act on, naming the field,
//! option or file it is about; the `sim` binary prints it after `sim: error:` (invalid input,
//! exit 2) or `sim:` (a failure, exit 1). An error's message already holds the message of the
//! error it wraps (a file's I/O error, a context's error), so no variant reports a
//! [`std::error::Error::source`]: a chain printer (anyhow's `{:#}`) would say it twice.

use std::path::{Path, PathBuf};

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Invalid input: a scenario's value or section, a `--set` override, an option's value, an
    /// algorithm or a port name, a refused output directory. The message names the field
    /// (`topology.left = 0: must be within [1, 100000]`), and when it is known also the file
    /// and line (`FILE: line N: ...`, [`crate::scenario::human::at_line`]).
    #[error("{0}")]
    Invalid(String),
    /// A file or directory that could not be read, written, created or parsed.
    #[error("{}: {error}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        error: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Text that could not be encoded (a table as CSV or JSON, a record as TOML, a figure).
    #[error("{what}: {msg}")]
    Encode {
        /// What was being written: `csv`, `json`, `svg`, `points.csv`, ...
        what: String,
        /// Why.
        msg: String,
    },
    /// An error with what it is about in front: `cc.swift: ...`, `point 3 (seed 1, swift): ...`.
    #[error("{context}: {error}")]
    Context {
        /// What the error is about.
        context: String,
        /// The error.
        error: Box<Error>,
    },
    /// Several errors (a sweep's failed points), one per line.
    #[error("{}", lines(.0))]
    Many(Vec<Error>),
}

fn lines(errors: &[Error]) -> String {
    let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
    all.join("\n")
}

/// The library's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// [`Error::Invalid`] with a `format!` message.
macro_rules! invalid {
    ($($arg:tt)*) => {
        $crate::error::Error::Invalid(format!($($arg)*))
    };
}
pub(crate) use invalid;

impl Error {
    /// A file's error ([`Error::File`]).
    pub fn file(path: &Path, error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Error::File {
            path: path.to_path_buf(),
            error: error.into(),
        }
    }

    /// A closure for `map_err`: the error of the file `path`.
    pub fn at<E: Into<Box<dyn std::error::Error + Send + Sync>>>(
        path: &Path,
    ) -> impl FnOnce(E) -> Error + '_ {
        move |e| Error::file(path, e)
    }

    /// An encoding error ([`Error::Encode`]).
    pub fn encode(what: impl Into<String>, msg: impl std::fmt::Display) -> Self {
        Error::Encode {
            what: what.into(),
            msg: msg.to_string(),
        }
    }

    /// This error with `context` in front (`CONTEXT: ERROR`).
    pub fn context(self, context: impl Into<String>) -> Self {
        Error::Context {
            context: context.into(),
            error: Box::new(self),
        }
    }

    /// Whether this is invalid input (an [`Error::Invalid`], possibly with context in front):
    /// the binaries exit 2 for it.
    pub fn is_invalid(&self) -> bool {
        match self {
            Error::Invalid(_) => true,
            Error::Context { error, .. } => error.is_invalid(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_one_line_each() {
        let e = invalid!("topology.left = {}: must be within [1, 10]", 0).context("cc.swift");
        assert_eq!(
            e.to_string(),
            "cc.swift: topology.left = 0: must be within [1, 10]"
        );
        assert!(e.is_invalid());
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let f = Error::file(Path::new("a/b.csv"), io);
        assert_eq!(f.to_string(), "a/b.csv: No such file");
        assert!(!f.is_invalid());
        assert!(std::error::Error::source(&e).is_none());
        assert_eq!(Error::encode("csv", "bad").to_string(), "csv: bad");
        let many = Error::Many(vec![Error::Invalid("x".into()), f]);
        assert_eq!(many.to_string(), "x\na/b.csv: No such file");
    }
}
