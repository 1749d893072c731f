//! The browser lab (placeholder until the UI lands).
