//! A controller's Go set-up, read into a scenario: the manager's
//! `rest.Config` limit, each controller's options and rate limiter, and
//! Crossplane's `--max-reconcile-rate`. The code is parsed with a Go parser
//! (`gosyn`) and its values are evaluated where they are plain: literals,
//! constants, variables, flags with their defaults, Go durations. Every value
//! taken is listed with its file and line; everything met and not understood
//! is listed too, never guessed.
// What is `pub` is reachable from this root; the rest says `pub(crate)`.
#![warn(unreachable_pub)]

pub mod assume;
mod eval;
pub mod export;
mod export_clientgo;
mod export_core;
mod found;
mod go_text;
mod gomod;
mod import;
mod interp;
pub mod literal;
mod num;
mod paste;
mod source;
mod value;

pub use found::Found;
pub use go_text::kind_types;
pub use import::{import, Client, ImportError, Imported, MAX_BYTES};
