//! The browser lab (placeholder until the UI lands).
//!
//! - [`App`] is the root component that `main.rs` mounts on `<body>`.

mod app;

pub use app::App;
