//! heatcap: discover, resolve and validate OpenStack Heat template
//! compositions.
//!
//! The library is a one-way pipeline, one module per stage:
//! [`walk`] → [`load`] → [`model`] → [`index`] → [`query`] → [`report`].
//! [`cli`] is the only module that knows the whole order; `main.rs` only
//! parses arguments and maps the result to an exit code.
//!
//! ```
//! use heatcap::load::{parse_text, ParseOptions};
//! let parsed = parse_text("heat_template_version: 2015-10-15\n", "t.yaml", &ParseOptions::default());
//! let root = parsed.root.unwrap();
//! assert_eq!(root.as_map().unwrap().get("heat_template_version").unwrap().value.as_str(), Some("2015-10-15"));
//! ```
#![warn(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]

pub use workspace::Workspace;

/// The whole catalogue of codes, in code order (see [`diag::CodeInfo`]).
pub fn catalogue() -> Vec<&'static diag::CodeInfo> {
    validate::registry::catalogue()
}

pub mod cli;
pub mod diag;
pub mod error;
pub mod index;
pub mod load;
pub mod model;
pub mod node;
pub mod product;
pub mod query;
pub mod report;
pub mod resolve;
pub mod validate;
pub mod walk;
pub mod workspace;
