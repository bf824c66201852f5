//! Fatal errors: usage, configuration and output I/O. Everything about the
//! input files is a [`crate::diag::Diagnostic`] instead, and the run goes on.

use std::fmt;
use std::io;

/// An error that stops the run (exit code 2).
#[derive(Debug)]
pub enum Error {
    /// Bad flags or flag values (a glob that does not compile, `-c` without `=`).
    Usage(String),
    /// A configuration file that cannot be read or holds a mistake (its
    /// path, line and column in the message).
    Config(String),
    /// Writing the output failed.
    Output(io::Error),
    /// A tree at a git revision could not be read (`--rev`, a revision
    /// side of `diff`): E0031, E0032 or E0033 with what to fetch.
    Revision(RevisionError),
}

impl Error {
    /// True when the output was a closed pipe (`heatcap ... | head`): not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Config(m) => write!(f, "{m}"),
            Error::Output(e) => write!(f, "cannot write output: {e}"),
            Error::Revision(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

/// Why a revision's tree could not be read (`crate::git`): a diagnostic
/// code and a message naming the revision and what to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevisionError {
    /// E0031, E0032 or E0033.
    pub code: String,
    /// What went wrong and what to do.
    pub message: String,
}

impl fmt::Display for RevisionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for RevisionError {}

impl From<RevisionError> for Error {
    fn from(e: RevisionError) -> Self {
        Error::Revision(e)
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Output(e)
    }
}

/// The process exit status heatcap documents (README, `--help`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success: something matched, nothing at or above the threshold.
    Ok = 0,
    /// Nothing matched, or findings at or above the threshold.
    NoMatchOrFindings = 1,
    /// Usage, configuration or output failure.
    Failure = 2,
}
