//! Publishing a rendered report somewhere beyond stdout and `--out`: the network side of
//! reporting, kept out of `report/` so that reporters stay pure renderers.
//!
//! `github`: `--pr-comment` (reporters.md §8), the Markdown report as one pull-request
//! comment, updated in place.

pub mod github;
