//! The server's contract surface: capture it (`capture`), store it (`lockfile`), compare two
//! of them (`schema_diff`, `shape`). Pure code except `lockfile::load`/`lockfile::write`.

pub mod canonical;
pub mod capture;
pub mod json;
pub mod lockfile;
pub mod schema_diff;
pub mod schema_text;
pub mod shape;
pub mod text;
