//! The page's sharing parts (browser only): [`share`] (Copy link, Embed snippet, CSV, PNG and
//! fio job file downloads), [`fio_import`] (the reader's fio JSON as "your drive"),
//! [`compare`] (pin, family, remove), [`embed_frame`] (the compact chrome's height reported
//! to the embedding page) and [`download`] (text and images to files).
//!
//! None of them holds state of the lab: each reads and writes the one
//! [`super::state::LabState`] signal; only transient feedback (a "copied" confirmation, the
//! note about a refused file) lives in the component.

pub mod compare;
pub mod download;
pub mod embed_frame;
pub mod fio_import;
pub mod share;
