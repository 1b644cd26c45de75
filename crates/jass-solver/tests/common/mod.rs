//! Shared by the solver's tests and its `solve` example.

pub mod reference;
