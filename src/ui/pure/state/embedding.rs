//! [`Embedding`]: what the author of a page that embeds the lab set (`embed=`, `charts=`,
//! `lock=`, `hosts=`). Reset keeps it: a reader cannot undo the author's frame. Any combination is valid;
//! the parts keep their own rules ([`ChartsShown`] never shows no chart).

use crate::ui::pure::embed::{ChartsShown, Hosts, Locks};

/// The embedding part of the state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Embedding {
    /// Compact chrome for an iframe (`embed=1`).
    pub framed: bool,
    /// The charts shown (`charts=`).
    pub charts: ChartsShown,
    /// Read-only controls (`lock=`).
    pub locks: Locks,
    /// The pages heard when they send the lab messages (`hosts=`; see
    /// [`crate::ui::pure::host_api`]).
    pub hosts: Hosts,
}
