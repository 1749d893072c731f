//! [`Ladder`]: the ordered values a slider can take, and the coarser stops plain arrow keys use.
//!
//! A native `<input type="range">` only knows evenly spaced steps, but the lab's quantities are
//! not even: queue depth moves in powers of two with finer steps in between, block sizes double.
//! So every slider runs over an *index* (0..len) and a ladder maps index to value.
//!
//! What always holds: a ladder is never empty, its values strictly increase, and every lookup
//! ([`Ladder::index_of`], [`Ladder::value`], [`Ladder::step`]) returns a position or value that is
//! on the ladder, whatever number it is given, so no slider input can reach an invalid value.

/// The values of one slider, in increasing order, and which of them are coarse stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    values: Vec<u32>,
    /// Whether each position is a coarse stop (plain arrow keys jump between coarse stops).
    coarse: Vec<bool>,
}

impl Ladder {
    /// A ladder where every value is a coarse stop. Unsorted or repeated input is sorted and
    /// de-duplicated; an empty list becomes the single value `fallback`.
    pub fn new(values: impl IntoIterator<Item = u32>, fallback: u32) -> Ladder {
        Ladder::with_coarse(values, fallback, |_| true)
    }

    /// A ladder whose coarse stops are the values for which `is_coarse` holds (the first and
    /// last value always are, so the ends stay reachable with plain arrow keys).
    pub fn with_coarse(
        values: impl IntoIterator<Item = u32>,
        fallback: u32,
        is_coarse: impl Fn(u32) -> bool,
    ) -> Ladder {
        let mut values: Vec<u32> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        if values.is_empty() {
            values.push(fallback);
        }
        let last = values.len() - 1;
        let coarse = values
            .iter()
            .enumerate()
            .map(|(i, &v)| i == 0 || i == last || is_coarse(v))
            .collect();
        Ladder { values, coarse }
    }

    /// Number of positions (at least 1).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Always false: a ladder has at least one value (kept for clippy's `len` convention).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Highest index.
    pub fn max_index(&self) -> usize {
        self.values.len() - 1
    }

    /// All values in order.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The value at `index`, clamped to the ladder.
    pub fn value(&self, index: usize) -> u32 {
        self.values[index.min(self.max_index())]
    }

    /// Whether `value` is exactly on the ladder.
    pub fn contains(&self, value: u32) -> bool {
        self.values.binary_search(&value).is_ok()
    }

    /// Index of `value`, or of the nearest value on the ladder (the lower one on a tie).
    pub fn index_of(&self, value: u32) -> usize {
        match self.values.binary_search(&value) {
            Ok(i) => i,
            Err(0) => 0,
            Err(i) if i >= self.values.len() => self.max_index(),
            Err(i) => {
                let (lo, hi) = (self.values[i - 1], self.values[i]);
                if value - lo <= hi - value {
                    i - 1
                } else {
                    i
                }
            }
        }
    }

    /// The nearest value on the ladder.
    pub fn nearest(&self, value: u32) -> u32 {
        self.value(self.index_of(value))
    }

    /// The value one step up (`up`) or down from `from`: the next position when `fine`,
    /// otherwise the next coarse stop. Stays put at either end.
    pub fn step(&self, from: u32, up: bool, fine: bool) -> u32 {
        let here = self.index_of(from);
        // Off-ladder values first snap: a step never moves further than the next stop.
        let start_value = self.values[here];
        if start_value != from {
            let snapped_in_direction = if up {
                start_value > from
            } else {
                start_value < from
            };
            if snapped_in_direction && (fine || self.coarse[here]) {
                return start_value;
            }
        }
        let mut i = here;
        loop {
            let next = if up {
                if i == self.max_index() {
                    return self.values[i];
                }
                i + 1
            } else {
                if i == 0 {
                    return self.values[0];
                }
                i - 1
            };
            i = next;
            if fine || self.coarse[i] {
                return self.values[i];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn powers_with_halves() -> Ladder {
        Ladder::with_coarse([1, 2, 3, 4, 6, 8], 1, u32::is_power_of_two)
    }

    #[test]
    fn values_are_sorted_deduplicated_and_never_empty() {
        let l = Ladder::new([8, 2, 2, 4], 1);
        assert_eq!(l.values(), &[2, 4, 8]);
        let empty = Ladder::new([], 7);
        assert_eq!(empty.values(), &[7]);
        assert_eq!(empty.len(), 1);
    }

    #[test]
    fn any_number_maps_to_the_nearest_position() {
        let l = Ladder::new([1, 2, 4, 8], 1);
        assert_eq!(l.index_of(0), 0);
        assert_eq!(l.index_of(3), 1, "a tie goes to the lower value");
        assert_eq!(l.index_of(7), 3);
        assert_eq!(l.index_of(u32::MAX), 3);
        assert_eq!(l.value(usize::MAX), 8);
        assert_eq!(l.nearest(5), 4);
    }

    #[test]
    fn plain_steps_jump_between_coarse_stops_and_fine_steps_visit_every_value() {
        let l = powers_with_halves();
        assert_eq!(l.step(2, true, false), 4);
        assert_eq!(l.step(2, true, true), 3);
        assert_eq!(l.step(3, true, false), 4);
        assert_eq!(l.step(6, false, false), 4);
        assert_eq!(l.step(8, false, true), 6);
    }

    #[test]
    fn steps_stop_at_the_ends() {
        let l = powers_with_halves();
        assert_eq!(l.step(8, true, false), 8);
        assert_eq!(l.step(1, false, true), 1);
    }

    #[test]
    fn a_value_between_stops_steps_to_the_neighbouring_stop_first() {
        let l = Ladder::new([10, 20, 30], 10);
        assert_eq!(l.step(25, true, false), 30);
        assert_eq!(l.step(25, false, false), 20);
        assert_eq!(l.step(14, true, true), 20);
    }
}
