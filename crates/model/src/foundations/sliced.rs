//! Work done in slices: one shape for every computation a page must not block on, so a
//! scheduler (the page's, or a worker's) drives them all the same way and a native caller runs
//! them to the end with [`Sliced::finish`].
//!
//! What always holds: a step does a bounded amount of work (about `budget` units; each type
//! says what its unit is) and never blocks; the output comes once the work is done, and a
//! finished computation stepped again gives the same output; the output of a computation in
//! slices is exactly that of the same computation in one go, however the budget is cut.
//!
//! ```
//! use parallelism_model::{over_time::CacheRatesRun, presets, sliced::Sliced};
//!
//! let drive = presets::find("e12").unwrap().drive_for_capacity_gb(960.0)?;
//! let mut run = CacheRatesRun::new(&drive)?;
//! let mut slices = 1;
//! let rates = loop {
//!     // A page would draw, or answer its reader, between two slices.
//!     if let Some(rates) = run.step(50_000)? {
//!         break rates;
//!     }
//!     slices += 1;
//! };
//! assert!(slices > 1);
//! assert_eq!(rates, CacheRatesRun::new(&drive)?.finish()?);
//! # Ok::<(), parallelism_model::RunError>(())
//! ```

/// Up to `budget` calls of `one_step` (a computation's smallest step), stopping at the first
/// that gives the output or an error: the [`Sliced::step`] of a computation whose unit is one
/// such step.
pub fn steps<T, E>(
    budget: usize,
    mut one_step: impl FnMut() -> Result<Option<T>, E>,
) -> Result<Option<T>, E> {
    for _ in 0..budget {
        if let Some(done) = one_step()? {
            return Ok(Some(done));
        }
    }
    Ok(None)
}

/// A computation done a slice at a time.
pub trait Sliced {
    /// What the computation gives once done.
    type Output;
    /// Why it may give nothing.
    type Error;

    /// Work for about `budget` units; the output once the work is done.
    fn step(&mut self, budget: usize) -> Result<Option<Self::Output>, Self::Error>;

    /// How far the work is, from 0 to 1.
    fn progress(&self) -> f64;

    /// Steps of `unit` until the work is done or `time_is_up` (asked after every step that
    /// left work): how a scheduler with a clock drives any computation, one slice at a time.
    fn work_until(
        &mut self,
        unit: usize,
        time_is_up: &mut dyn FnMut() -> bool,
    ) -> Result<Option<Self::Output>, Self::Error> {
        loop {
            if let Some(done) = self.step(unit)? {
                return Ok(Some(done));
            }
            if time_is_up() {
                return Ok(None);
            }
        }
    }

    /// The whole computation in one go (for a caller that may block: `lab`, tests).
    fn finish(mut self) -> Result<Self::Output, Self::Error>
    where
        Self: Sized,
    {
        loop {
            if let Some(done) = self.step(usize::MAX)? {
                return Ok(done);
            }
        }
    }
}
