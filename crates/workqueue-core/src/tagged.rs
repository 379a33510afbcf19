//! Reading internally tagged documents (`{"kind": "requeue_after", ...}`)
//! through a flat record of every field any variant has, then checking the
//! fields against the tag. serde's own internally tagged enums buffer each
//! value and decode it twice; in the page that weighed several KB per enum.

use std::fmt::Debug;

/// The field a variant needs, or the error serde would give for it.
pub(crate) fn take<T>(field: &mut Option<T>, name: &str) -> Result<T, String> {
    field
        .take()
        .ok_or_else(|| format!("missing field `{name}`"))
}

/// Refuses a field that was written but belongs to another variant.
/// `left` holds each field's name and whether it is still set once the
/// variant took its own.
pub(crate) fn nothing_left<K: Debug>(tag: K, left: &[(&str, bool)]) -> Result<(), String> {
    match left.iter().find(|(_, set)| *set) {
        Some((name, _)) => Err(format!(
            "unknown field `{name}`: `{}` does not have it",
            snake(&format!("{tag:?}"))
        )),
        None => Ok(()),
    }
}

/// `RequeueAfter` as it is written in files: `requeue_after`.
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_of_another_variant_is_named() {
        #[derive(Debug)]
        enum Kind {
            AddMany,
        }
        let e = nothing_left(Kind::AddMany, &[("key", false), ("script", true)]).unwrap_err();
        assert_eq!(e, "unknown field `script`: `add_many` does not have it");
        assert!(nothing_left(Kind::AddMany, &[("key", false)]).is_ok());
        let mut missing: Option<u8> = None;
        assert_eq!(
            take(&mut missing, "count").unwrap_err(),
            "missing field `count`"
        );
    }
}
