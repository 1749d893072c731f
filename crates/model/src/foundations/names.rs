//! One table of stable names per enum.
//!
//! The lab's enums travel as text: in URLs, on the command line, in JSON and CSV. Each gets its
//! names from a single table written once with [`named_enum!`](crate::named_enum), which
//! makes `ALL` (every value, in the table's order), the name accessor, `Display` (the name)
//! and `FromStr` (the inverse, refusing anything else with a [`ConfigError::Unknown`] that
//! lists the names), so printing and parsing can never drift apart.
//!
//! [`ConfigError::Unknown`]: crate::config::ConfigError::Unknown

/// `named_enum!(Type, "what it is", accessor, { Variant => "name", ... })`: see the module docs.
#[macro_export]
macro_rules! named_enum {
    ($ty:ident, $what:literal, $accessor:ident, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in the order of its name table.
            pub const ALL: [$ty; $crate::named_enum!(@count $($variant)+)] = [$($ty::$variant),+];

            /// The stable name (URL, command line, JSON); `Display` prints it and `FromStr`
            /// reads it.
            pub const fn $accessor(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.$accessor())
            }
        }

        impl ::core::str::FromStr for $ty {
            type Err = $crate::config::ConfigError;

            fn from_str(s: &str) -> ::core::result::Result<$ty, Self::Err> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err($crate::config::ConfigError::Unknown {
                        what: std::borrow::Cow::Borrowed($what),
                        value: s.to_string(),
                        expected: [$($name),+].join(", "),
                    }),
                }
            }
        }
    };
    (@count) => { 0usize };
    (@count $head:ident $($tail:ident)*) => { 1usize + $crate::named_enum!(@count $($tail)*) };
}

#[cfg(test)]
mod tests {
    use crate::config::{DriveState, Rw};
    use crate::link::HostLink;

    #[test]
    fn every_name_parses_back_and_anything_else_lists_the_names() {
        for rw in Rw::ALL {
            assert_eq!(rw.to_string().parse::<Rw>(), Ok(rw));
        }
        for s in DriveState::ALL {
            assert_eq!(s.to_string().parse::<DriveState>(), Ok(s));
        }
        for l in HostLink::ALL {
            assert_eq!(l.to_string().parse::<HostLink>(), Ok(l));
        }
        let err = "dirty".parse::<DriveState>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown drive state 'dirty' (expected one of: fob, seq-filled, steady)"
        );
        assert!("RANDREAD".parse::<Rw>().is_err(), "names are exact");
    }
}
