//! What a go.mod says of controller-runtime: the version required, or the
//! one a `replace` directive puts in its place (a replace wins, as `go
//! build` takes it). Directives one per line or in blocks, comments and
//! any white space, as the go.mod reference writes them.

const CONTROLLER_RUNTIME: &str = "sigs.k8s.io/controller-runtime";

/// controller-runtime as a go.mod has it.
#[derive(Clone, Debug, PartialEq)]
pub enum Version {
    /// `v0.N.x`, with the line (from 1) that says so.
    Minor { line: usize, minor: u32 },
    /// Replaced by a directory, or a version that names no release: the
    /// line, and what it says.
    Unknown { line: usize, said: String },
}

/// The minor version of `v0.N.x` (a pre-release too).
fn minor_of(v: &str) -> Option<u32> {
    let minor: u32 = v
        .strip_prefix("v0.")?
        .split(['.', '-'])
        .next()?
        .parse()
        .ok()?;
    (minor > 0).then_some(minor)
}

/// controller-runtime's version in `gomod`, if it names controller-runtime.
pub fn controller_runtime(gomod: &str) -> Option<Version> {
    let mut required = None;
    let mut replaced = None;
    let mut block: Option<&str> = None;
    for (i, raw) in crate::paste::without_bom(gomod).lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let (directive, rest) = match (block, words.as_slice()) {
            (Some(_), [")"]) => {
                block = None;
                continue;
            }
            (Some(b), rest) => (b, rest),
            (None, [d @ ("require" | "replace"), "("]) => {
                block = Some(d);
                continue;
            }
            (None, [d, rest @ ..]) => (*d, rest),
            (None, []) => continue,
        };
        let line = i + 1;
        match (directive, rest) {
            ("require", [path, v, ..]) if *path == CONTROLLER_RUNTIME => {
                required = Some(match minor_of(v) {
                    Some(minor) => Version::Minor { line, minor },
                    None => Version::Unknown {
                        line,
                        said: v.to_string(),
                    },
                })
            }
            ("replace", words) if words.first() == Some(&CONTROLLER_RUNTIME) => {
                let Some(arrow) = words.iter().position(|w| *w == "=>") else {
                    continue;
                };
                replaced = Some(match &words[arrow + 1..] {
                    [_, v] => match minor_of(v) {
                        Some(minor) => Version::Minor { line, minor },
                        None => Version::Unknown {
                            line,
                            said: v.to_string(),
                        },
                    },
                    [dir] => Version::Unknown {
                        line,
                        said: format!("replaced by the directory {dir}"),
                    },
                    _ => continue,
                });
            }
            _ => {}
        }
    }
    replaced.or(required)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replace_wins_over_the_requirement() {
        let m = "module x\n\nrequire (\n\tsigs.k8s.io/controller-runtime v0.22.4 // indirect\n)\n\nreplace sigs.k8s.io/controller-runtime v0.22.4 => sigs.k8s.io/controller-runtime v0.23.1\n";
        assert_eq!(
            controller_runtime(m),
            Some(Version::Minor { line: 7, minor: 23 })
        );
        let block = "module x\nrequire sigs.k8s.io/controller-runtime v0.23.0\nreplace (\n\tsigs.k8s.io/controller-runtime => github.com/fork/controller-runtime v0.21.0\n)\n";
        assert_eq!(
            controller_runtime(block),
            Some(Version::Minor { line: 4, minor: 21 })
        );
        let dir = "module x\nrequire sigs.k8s.io/controller-runtime v0.23.0\nreplace sigs.k8s.io/controller-runtime => ../controller-runtime\n";
        assert!(matches!(
            controller_runtime(dir),
            Some(Version::Unknown { line: 3, .. })
        ));
    }

    #[test]
    fn a_bom_tabs_and_comments_are_read() {
        let m = "\u{feff}module\texample.com/x\n\ngo 1.24\n\nrequire (\n\tk8s.io/client-go v0.34.0\n\tsigs.k8s.io/controller-runtime\tv0.21.0\n)\n";
        assert_eq!(
            controller_runtime(m),
            Some(Version::Minor { line: 7, minor: 21 })
        );
        // A replace of another module with controller-runtime's version
        // says nothing of controller-runtime.
        let other = "module x\nrequire sigs.k8s.io/controller-runtime v0.20.0\nreplace k8s.io/api => k8s.io/api v0.23.1\n";
        assert_eq!(
            controller_runtime(other),
            Some(Version::Minor { line: 2, minor: 20 })
        );
        assert_eq!(controller_runtime("module x\n"), None);
    }
}
