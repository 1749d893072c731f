//! Helpers shared by the model's property tests.

pub mod cases;
